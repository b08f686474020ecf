//! Paying for a plan: initialize, the built-in PayU simulator, PayU's return
//! and webhook, verification against a PayU-like server, status, history,
//! invoices, cancelling and the end of a paid period.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use chrono::{DateTime, Utc};
use sea_orm::sea_query::Expr;
use sea_orm::{ColumnTrait, EntityTrait, QueryFilter};
use serde_json::{Value, json};

use ca_billing::entities::payment::PaymentStatus;

use crate::billing::campaign;
use crate::helpers::{Reply, SECRET, TestApp, spawn_app, spawn_app_with};

/// The simulator's credentials as the server derives them.
pub(crate) fn simulator_credentials() -> ca_billing::payu::Credentials {
    use sha2::{Digest, Sha256};
    ca_billing::payu::Credentials {
        key: "ca-simulator".into(),
        salt: hex::encode(Sha256::digest(
            format!("payu-simulator|{SECRET}").as_bytes(),
        )),
    }
}

pub(crate) async fn initialize(app: &TestApp, token: &str, body: Value) -> Reply {
    app.send("POST", "/api/payment/initialize", Some(token), body)
        .await
}

pub(crate) fn params_of(reply: &Reply) -> Vec<(String, String)> {
    reply.body["data"]["params"]
        .as_object()
        .expect("params")
        .iter()
        .map(|(k, v)| (k.clone(), v.as_str().expect("text").to_string()))
        .collect()
}

pub(crate) async fn post_form(
    app: &TestApp,
    path: &str,
    fields: &[(String, String)],
) -> (u16, String, String) {
    let res = app
        .client
        .post(app.url(path))
        .form(fields)
        .send()
        .await
        .expect("send");
    let status = res.status().as_u16();
    let location = res
        .headers()
        .get("location")
        .map(|l| l.to_str().expect("location").to_string())
        .unwrap_or_default();
    (status, location, res.text().await.expect("body"))
}

/// The hidden inputs of an HTML form, decoded.
pub(crate) fn hidden_inputs(html: &str) -> Vec<(String, String)> {
    let mut out = Vec::new();
    for part in html.split("<input type=\"hidden\" name=\"").skip(1) {
        let (name, rest) = part.split_once("\" value=\"").expect("value");
        let value = rest.split_once('"').expect("end").0;
        out.push((
            html_escape::decode_html_entities(name).to_string(),
            html_escape::decode_html_entities(value).to_string(),
        ));
    }
    out
}

/// Goes through the simulator's hosted page with `outcome` and returns the
/// fields it posts back, and where.
pub(crate) async fn simulate(
    app: &TestApp,
    params: &[(String, String)],
    outcome: &str,
) -> (String, Vec<(String, String)>) {
    let (status, _, page) = post_form(app, "/payment/simulator", params).await;
    assert_eq!(status, 200);
    assert!(page.contains("Complete your payment"), "{page}");
    let mut fields = hidden_inputs(&page);
    fields.push(("outcome".into(), outcome.into()));
    let (status, _, back) = post_form(app, "/payment/simulator/complete", &fields).await;
    assert_eq!(status, 200);
    let action = back
        .split("action=\"")
        .nth(1)
        .and_then(|a| a.split('"').next())
        .expect("return form")
        .to_string();
    (
        html_escape::decode_html_entities(&action).to_string(),
        hidden_inputs(&back),
    )
}

pub(crate) fn path_of(url: &str, app: &TestApp) -> String {
    url.strip_prefix(&app.base).expect("own url").to_string()
}

pub(crate) fn field<'a>(fields: &'a [(String, String)], name: &str) -> &'a str {
    fields
        .iter()
        .find(|(k, _)| k == name)
        .map(|(_, v)| v.as_str())
        .expect(name)
}

pub(crate) fn with(fields: &[(String, String)], name: &str, value: &str) -> Vec<(String, String)> {
    fields
        .iter()
        .map(|(k, v)| {
            if k == name {
                (k.clone(), value.to_string())
            } else {
                (k.clone(), v.clone())
            }
        })
        .collect()
}

/// Re-signs PayU's result fields with `c` (as only someone holding the salt could).
pub(crate) fn resign(
    c: &ca_billing::payu::Credentials,
    fields: &[(String, String)],
) -> Vec<(String, String)> {
    let udf: Vec<&str> = (1..=5).map(|i| field(fields, &format!("udf{i}"))).collect();
    let hash = ca_billing::payu::response_hash(
        c,
        field(fields, "status"),
        &ca_billing::payu::Signed {
            txnid: field(fields, "txnid"),
            amount: field(fields, "amount"),
            productinfo: field(fields, "productinfo"),
            firstname: field(fields, "firstname"),
            email: field(fields, "email"),
            udf: [udf[0], udf[1], udf[2], udf[3], udf[4]],
        },
        None,
    );
    with(fields, "hash", &hash)
}

pub(crate) async fn payment(app: &TestApp, txnid: &str) -> ca_billing::entities::payment::Model {
    use ca_billing::entities::payment;
    payment::Entity::find()
        .filter(payment::Column::Txnid.eq(txnid))
        .one(&app.db.conn)
        .await
        .expect("query")
        .expect("payment")
}

/// As if PayU was last asked about `txnid` a minute ago.
pub(crate) async fn last_asked_long_ago(app: &TestApp, txnid: &str) {
    use ca_billing::entities::payment;
    payment::Entity::update_many()
        .col_expr(
            payment::Column::CheckedAt,
            Expr::value(Some(Utc::now() - chrono::Duration::minutes(1))),
        )
        .filter(payment::Column::Txnid.eq(txnid))
        .exec(&app.db.conn)
        .await
        .expect("update");
}

pub(crate) async fn last_invoice_number(app: &TestApp) -> i64 {
    ca_billing::entities::invoice_sequence::Entity::find_by_id(1)
        .one(&app.db.conn)
        .await
        .expect("query")
        .expect("row")
        .last_number
}

/// Initializes and pays `plan` for `cycle` through the simulator; returns the txnid.
pub(crate) async fn buy(app: &TestApp, token: &str, plan: &str, cycle: &str) -> String {
    let init = initialize(app, token, json!({"udf2": plan, "udf4": cycle})).await;
    assert_eq!(init.status, 200, "{}", init.body);
    let (target, fields) = simulate(app, &params_of(&init), "success").await;
    let (status, location, _) = post_form(app, &path_of(&target, app), &fields).await;
    assert_eq!(status, 303);
    let txnid = field(&fields, "txnid").to_string();
    assert_eq!(location, format!("/payment/success?txnid={txnid}"));
    txnid
}

#[tokio::test]
async fn initialize_computes_the_amount_and_refuses_what_cannot_be_bought() {
    let app = spawn_app().await;
    let (token, user) = app.register("payer@example.in", "correct horse 1").await;
    let init = initialize(
        &app,
        &token,
        json!({"amount": 1, "productinfo": "cheap", "udf2": "basic", "udf4": "monthly", "udf1": "someone-else", "email": "x@evil.in"}),
    )
    .await;
    assert_eq!(init.status, 200, "{}", init.body);
    let data = &init.body["data"];
    assert_eq!(data["amount"], 999.0);
    assert_eq!(data["action"], app.url("/payment/simulator"));
    let params = params_of(&init);
    assert_eq!(field(&params, "amount"), "999.00");
    assert_eq!(field(&params, "productinfo"), "Basic Plan (Monthly)");
    assert_eq!(field(&params, "udf1"), user["id"].as_str().expect("id"));
    assert_eq!(field(&params, "udf2"), "basic");
    assert_eq!(field(&params, "udf3"), "subscription");
    assert_eq!(field(&params, "udf4"), "monthly");
    assert_eq!(field(&params, "email"), "payer@example.in");
    assert_eq!(field(&params, "phone"), "9876543210");
    assert_eq!(field(&params, "key"), "ca-simulator");
    assert_eq!(field(&params, "surl"), app.url("/api/payment/payu/return"));
    assert_eq!(field(&params, "furl"), app.url("/api/payment/payu/return"));
    let txnid = field(&params, "txnid");
    assert!(txnid.len() <= 25 && txnid.starts_with("CA"), "{txnid}");
    // The hash is PayU's request hash over exactly these fields.
    let c = simulator_credentials();
    let expected = ca_billing::payu::request_hash(
        &c,
        &ca_billing::payu::Signed {
            txnid,
            amount: "999.00",
            productinfo: "Basic Plan (Monthly)",
            firstname: field(&params, "firstname"),
            email: "payer@example.in",
            udf: [
                field(&params, "udf1"),
                "basic",
                "subscription",
                "monthly",
                "",
            ],
        },
    );
    assert_eq!(field(&params, "hash"), expected);
    let stored = payment(&app, txnid).await;
    assert_eq!(
        (stored.status.as_str(), stored.amount_paise),
        ("pending", 99_900)
    );

    // A blank udf2 (a form's empty field) does not hide the plan named by planId.
    let named = initialize(&app, &token, json!({"udf2": " ", "planId": "basic"})).await;
    assert_eq!(named.status, 200, "{}", named.body);
    assert_eq!(field(&params_of(&named), "udf2"), "basic");

    let annual = initialize(&app, &token, json!({"udf2": "basic", "udf4": "annual"})).await;
    assert_eq!(annual.body["data"]["amount"], 9990.0);
    assert_eq!(
        field(&params_of(&annual), "productinfo"),
        "Basic Plan (Annual)"
    );

    // Without a phone on the account, PayU gets the default one.
    ca_auth::entities::user::Entity::update_many()
        .col_expr(ca_auth::entities::user::Column::Phone, Expr::value(""))
        .filter(ca_auth::entities::user::Column::Email.eq("payer@example.in"))
        .exec(&app.db.conn)
        .await
        .expect("phone");
    let no_phone = initialize(&app, &token, json!({"udf2": "basic"})).await;
    assert_eq!(field(&params_of(&no_phone), "phone"), "9999999999");

    let refused = |body: Value| initialize(&app, &token, body);
    refused(json!({"udf2": "free"}))
        .await
        .error(422, "free_plan");
    refused(json!({"udf2": "enterprise"}))
        .await
        .error(422, "contact_sales");
    refused(json!({"udf2": "beta"}))
        .await
        .error(403, "invite_only");
    refused(json!({"udf2": "gold"}))
        .await
        .error(404, "plan_not_found");
    refused(json!({})).await.error(400, "validation_failed");
    refused(json!({"udf2": "basic", "udf4": "weekly"}))
        .await
        .error(400, "validation_failed");
    app.send(
        "POST",
        "/api/payment/initialize",
        None,
        json!({"udf2": "basic"}),
    )
    .await
    .error(401, "missing_token");

    buy(&app, &token, "basic", "monthly").await;
    refused(json!({"udf2": "basic", "udf4": "annual"}))
        .await
        .error(409, "already_subscribed");
    // An invitation opens the invite-only plan.
    ca_billing::plans::invite(&app.db.conn, "beta", "payer@example.in")
        .await
        .expect("invite");
    let beta = initialize(&app, &token, json!({"udf2": "beta"})).await;
    assert_eq!(beta.body["data"]["amount"], 5000.0);
}

#[tokio::test]
async fn a_simulated_success_activates_the_plan_once_with_an_invoice() {
    let app = spawn_app().await;
    let (token, _) = app.register("meera@example.in", "correct horse 1").await;
    let txnid = buy(&app, &token, "basic", "monthly").await;

    let verified = app
        .send(
            "POST",
            "/payment/verify",
            Some(&token),
            json!({"txnid": txnid}),
        )
        .await;
    assert_eq!(verified.status, 200, "{}", verified.body);
    assert_eq!(verified.body["success"], true);
    assert_eq!(verified.body["data"]["status"], "success");
    assert_eq!(verified.body["data"]["amount"], 999.0);
    assert_eq!(verified.body["txnid"], txnid.as_str());
    assert_eq!(verified.body["productinfo"], "Basic Plan (Monthly)");
    let same = app
        .send(
            "POST",
            "/api/payment/verify",
            Some(&token),
            json!({"txnid": txnid}),
        )
        .await;
    assert_eq!(same.body["data"]["status"], "success");

    let me = app.get("/api/auth/me", Some(&token)).await;
    assert_eq!(me.body["user"]["planId"], "basic");
    assert_eq!(me.body["user"]["subscriptionStatus"], "active");
    let ends: DateTime<Utc> = me.body["user"]["subscriptionEndsAt"]
        .as_str()
        .expect("ends")
        .parse()
        .expect("time");
    assert!((27..=31).contains(&(ends - Utc::now()).num_days()));

    let status = app
        .get(&format!("/api/payment/status/{txnid}"), Some(&token))
        .await;
    assert_eq!(status.body["data"]["status"], "success");
    assert_eq!(status.body["data"]["amount"], 999.0);
    assert!(status.body["data"]["mihpayid"].as_str().is_some());

    let history = app.get("/api/payment/history", Some(&token)).await;
    let rows = history.body["data"].as_array().expect("rows");
    assert_eq!(rows.len(), 1);
    assert_eq!(rows[0]["txnid"], txnid.as_str());
    assert_eq!(rows[0]["status"], "success");
    assert_eq!(rows[0]["paymentMode"], "UPI");
    assert_eq!(rows[0]["invoiceNumber"], "CA-000001");
    assert_eq!(rows[0]["provider"], "simulator");
    assert_eq!(rows[0]["cycle"], "monthly");

    let invoice = app
        .get(&format!("/api/payment/invoice/{txnid}"), Some(&token))
        .await;
    assert_eq!(invoice.status, 200, "{}", invoice.body);
    let inv = &invoice.body["data"];
    assert_eq!(inv["invoiceNumber"], "CA-000001");
    assert_eq!(inv["planName"], "Basic");
    assert_eq!(inv["amount"], 999.0);
    assert_eq!(inv["buyer"]["email"], "meera@example.in");
    assert_eq!(inv["seller"]["name"], "ConvertAssist");
    assert!(inv["periodStart"].is_string() && inv["periodEnd"].is_string());

    let sub = app.get("/api/billing/subscription", Some(&token)).await;
    assert_eq!(sub.body["data"]["planId"], "basic");
    assert_eq!(sub.body["data"]["planName"], "Basic");
    assert_eq!(sub.body["data"]["status"], "active");
    assert_eq!(sub.body["data"]["cycle"], "monthly");
    assert_eq!(sub.body["data"]["cancelAtPeriodEnd"], false);
}

#[tokio::test]
async fn a_failed_payment_goes_to_the_failure_page_and_changes_no_plan() {
    let app = spawn_app().await;
    let (token, _) = app.register("fail@example.in", "correct horse 1").await;
    let init = initialize(&app, &token, json!({"udf2": "basic"})).await;
    let (target, fields) = simulate(&app, &params_of(&init), "failure").await;
    let (status, location, _) = post_form(&app, &path_of(&target, &app), &fields).await;
    assert_eq!(status, 303);
    let txnid = field(&fields, "txnid");
    assert!(
        location.starts_with(&format!(
            "/payment/failure?txnid={txnid}&error=failed&error_Message="
        )),
        "{location}"
    );
    assert!(location.contains("declined"), "{location}");
    let p = payment(&app, txnid).await;
    assert_eq!(p.status, PaymentStatus::Failure);
    assert_eq!(p.invoice_number, None);
    assert!(p.error_message.is_some_and(|e| e.contains("declined")));
    let me = app.get("/api/auth/me", Some(&token)).await;
    assert_eq!(me.body["user"]["subscriptionStatus"], "trial");
    app.get(&format!("/api/payment/invoice/{txnid}"), Some(&token))
        .await
        .error(404, "payment_not_found");
    let verified = app
        .send(
            "POST",
            "/payment/verify",
            Some(&token),
            json!({"txnid": txnid}),
        )
        .await;
    assert_eq!(verified.body["data"]["status"], "failure");
    // A failure takes no invoice number: the next success is number 1.
    buy(&app, &token, "basic", "monthly").await;
    assert_eq!(last_invoice_number(&app).await, 1);
}

#[tokio::test]
async fn forged_tampered_unknown_and_replayed_callbacks_change_nothing() {
    let app = spawn_app().await;
    let (token, _) = app.register("guard@example.in", "correct horse 1").await;
    let init = initialize(&app, &token, json!({"udf2": "basic"})).await;
    let (_, fields) = simulate(&app, &params_of(&init), "success").await;
    let txnid = field(&fields, "txnid").to_string();
    let refused = "/payment/failure?error=verification_failed";

    // A forged hash.
    let forged = with(&fields, "hash", &"ab".repeat(64));
    let (status, location, _) = post_form(&app, "/api/payment/payu/return", &forged).await;
    assert_eq!(status, 303);
    assert!(location.starts_with(refused), "{location}");
    // A tampered amount, even signed correctly, differs from the stored one.
    let cheap = resign(&simulator_credentials(), &with(&fields, "amount", "1.00"));
    let (_, location, _) = post_form(&app, "/api/payment/payu/return", &cheap).await;
    assert!(location.starts_with(refused), "{location}");
    // Signed with a key that is not ours.
    let other = ca_billing::payu::Credentials {
        key: "ca-simulator".into(),
        salt: "not-the-salt".into(),
    };
    let (_, location, _) =
        post_form(&app, "/api/payment/payu/return", &resign(&other, &fields)).await;
    assert!(location.starts_with(refused), "{location}");
    // An unknown transaction.
    let unknown = resign(
        &simulator_credentials(),
        &with(&fields, "txnid", "CAUNKNOWN123"),
    );
    let (_, location, _) = post_form(&app, "/api/payment/payu/return", &unknown).await;
    assert!(location.starts_with(refused), "{location}");
    // The webhook refuses the same with a 400.
    let (status, _, body) = post_form(&app, "/api/payment/payu/webhook", &forged).await;
    assert_eq!(status, 400, "{body}");
    assert!(body.contains("callback_refused"));
    assert_eq!(payment(&app, &txnid).await.status, PaymentStatus::Pending);
    let me = app.get("/api/auth/me", Some(&token)).await;
    assert_eq!(me.body["user"]["subscriptionStatus"], "trial");

    // The real one applies; a replay and the webhook after it change nothing.
    let (_, location, _) = post_form(&app, "/api/payment/payu/return", &fields).await;
    assert_eq!(location, format!("/payment/success?txnid={txnid}"));
    let first = payment(&app, &txnid).await;
    let (_, location, _) = post_form(&app, "/api/payment/payu/return", &fields).await;
    assert_eq!(location, format!("/payment/success?txnid={txnid}"));
    let (status, _, body) = post_form(&app, "/api/payment/payu/webhook", &fields).await;
    assert_eq!(status, 200);
    let body: Value = serde_json::from_str(&body).expect("json");
    assert_eq!(body["applied"], false);
    assert_eq!(body["status"], "success");
    // A later, correctly signed failure cannot move a success back.
    let failure = resign(
        &simulator_credentials(),
        &with(&fields, "status", "failure"),
    );
    let (status, _, _) = post_form(&app, "/api/payment/payu/webhook", &failure).await;
    assert_eq!(status, 200);
    assert_eq!(payment(&app, &txnid).await, first);
    assert_eq!(last_invoice_number(&app).await, 1);
}

#[tokio::test]
async fn concurrent_callbacks_are_applied_once() {
    let app = spawn_app().await;
    let (token, _) = app.register("race@example.in", "correct horse 1").await;
    let init = initialize(&app, &token, json!({"udf2": "basic", "udf4": "annual"})).await;
    let (_, fields) = simulate(&app, &params_of(&init), "success").await;
    let calls = (0..8).map(|i| {
        let path = if i % 2 == 0 {
            "/api/payment/payu/webhook"
        } else {
            "/api/payment/payu/return"
        };
        let app = &app;
        let fields = fields.clone();
        async move {
            let res = app
                .client
                .post(app.url(path))
                .form(&fields)
                .send()
                .await
                .expect("send");
            let webhook = path.ends_with("webhook");
            let status = res.status().as_u16();
            let location = res
                .headers()
                .get("location")
                .map(|l| l.to_str().expect("location").to_string())
                .unwrap_or_default();
            let body = res.text().await.expect("body");
            (webhook, status, if webhook { body } else { location })
        }
    });
    let results = futures_util::future::join_all(calls).await;
    let mut applied = 0;
    for (webhook, status, body) in results {
        if webhook {
            assert_eq!(status, 200, "{body}");
            let v: Value = serde_json::from_str(&body).expect("json");
            if v["applied"] == true {
                applied += 1;
            }
        } else {
            assert_eq!(status, 303);
            assert!(body.starts_with("/payment/success?"), "{body}");
        }
    }
    assert!(applied <= 1);
    let p = payment(&app, field(&fields, "txnid")).await;
    assert_eq!(p.status, PaymentStatus::Success);
    assert_eq!(p.invoice_number, Some(1));
    assert_eq!(last_invoice_number(&app).await, 1);
    // The annual period is a year.
    let days = (p.period_end.expect("end") - p.period_start.expect("start")).num_days();
    assert!((365..=366).contains(&days), "{days}");
    let me = app.get("/api/auth/me", Some(&token)).await;
    assert_eq!(me.body["user"]["planId"], "basic");
    let sub = app.get("/api/billing/subscription", Some(&token)).await;
    assert_eq!(sub.body["data"]["cycle"], "annual");
    assert_eq!(p.amount_paise, 999_000);
}

/// A stand-in of PayU's `postservice.php?form=2` that answers `answer` and
/// records the requests it got.
pub(crate) async fn payu_stub(
    answer: Arc<Mutex<Value>>,
    seen: Arc<Mutex<Vec<HashMap<String, String>>>>,
) -> String {
    use actix_web::{App, HttpResponse, HttpServer, web};
    let listener = std::net::TcpListener::bind("127.0.0.1:0").expect("bind");
    let url = format!(
        "http://{}/merchant/postservice.php?form=2",
        listener.local_addr().expect("addr")
    );
    let server = HttpServer::new(move || {
        let answer = answer.clone();
        let seen = seen.clone();
        App::new().route(
            "/merchant/postservice.php",
            web::post().to(move |form: web::Form<HashMap<String, String>>| {
                let answer = answer.clone();
                let seen = seen.clone();
                async move {
                    seen.lock().expect("lock").push(form.into_inner());
                    let body = answer.lock().expect("lock").clone();
                    // `_delay_ms` in the answer: PayU takes that long.
                    if let Some(ms) = body.get("_delay_ms").and_then(Value::as_u64) {
                        tokio::time::sleep(std::time::Duration::from_millis(ms)).await;
                    }
                    HttpResponse::Ok().json(body)
                }
            }),
        )
    })
    .listen(listener)
    .expect("listen")
    .workers(1)
    .run();
    tokio::spawn(server);
    url
}

#[tokio::test]
async fn verify_settles_a_pending_payment_from_payus_answer() {
    let answer = Arc::new(Mutex::new(json!({"status": 0})));
    let seen = Arc::new(Mutex::new(Vec::new()));
    let url = payu_stub(answer.clone(), seen.clone()).await;
    let key = "TESTKEY";
    let salt = "TESTSALT0123456789";
    let app = spawn_app_with(|c| {
        c.payu_key = Some(key.into());
        c.payu_salt = Some(salt.into());
        c.payu_verify_url = Some(url.clone());
    })
    .await;
    let (token, _) = app.register("payu@example.in", "correct horse 1").await;
    let init = initialize(&app, &token, json!({"udf2": "basic"})).await;
    assert_eq!(init.body["data"]["action"], "https://test.payu.in/_payment");
    let params = params_of(&init);
    assert_eq!(field(&params, "key"), key);
    let txnid = field(&params, "txnid").to_string();
    // The demo page is off once PayU is configured.
    app.send(
        "POST",
        "/api/billing/mock-payment-success",
        Some(&token),
        json!({"planId": "basic"}),
    )
    .await
    .error(403, "demo_payments_disabled");

    // PayU does not know it yet: it stays pending.
    *answer.lock().expect("lock") = json!({"status": 0, "msg": "0 out of 1 Transactions Fetched Successfully",
        "transaction_details": {txnid.clone(): {"mihpayid": "Not Found", "status": "Not Found"}}});
    let v = app
        .send(
            "POST",
            "/payment/verify",
            Some(&token),
            json!({"txnid": txnid}),
        )
        .await;
    assert_eq!(v.body["data"]["status"], "pending");
    {
        let seen = seen.lock().expect("lock");
        let req = seen.last().expect("a verify request");
        assert_eq!(req["command"], "verify_payment");
        assert_eq!(req["var1"], txnid);
        assert_eq!(req["key"], key);
        let c = ca_billing::payu::Credentials {
            key: key.into(),
            salt: salt.into(),
        };
        assert_eq!(
            req["hash"],
            ca_billing::payu::api_hash(&c, "verify_payment", &txnid)
        );
    }
    // Asked again at once, the server does not ask PayU again: at most once
    // every 5 s per payment, however often the page asks.
    let asked = seen.lock().expect("lock").len();
    let v = app
        .send(
            "POST",
            "/payment/verify",
            Some(&token),
            json!({"txnid": txnid}),
        )
        .await;
    assert_eq!(v.body["data"]["status"], "pending");
    assert_eq!(seen.lock().expect("lock").len(), asked);
    // A success for another amount is not applied.
    *answer.lock().expect("lock") = json!({"status": 1, "transaction_details": {txnid.clone(): {
        "status": "success", "amt": "1.00", "mihpayid": "403993715521937565", "mode": "CC"}}});
    last_asked_long_ago(&app, &txnid).await;
    let v = app
        .send(
            "POST",
            "/payment/verify",
            Some(&token),
            json!({"txnid": txnid}),
        )
        .await;
    assert_eq!(v.body["data"]["status"], "pending");
    // PayU's success for the stored amount settles it.
    last_asked_long_ago(&app, &txnid).await;
    *answer.lock().expect("lock") = json!({"status": 1, "msg": "1 out of 1 Transactions Fetched Successfully",
        "transaction_details": {txnid.clone(): {
        "status": "success", "unmappedstatus": "captured", "amt": "999.00", "transaction_amount": "999.00",
        "mihpayid": "403993715521937565", "mode": "CC", "bank_ref_num": "8471", "error_Message": "NO ERROR"}}});
    let v = app
        .send(
            "POST",
            "/payment/verify",
            Some(&token),
            json!({"txnid": txnid}),
        )
        .await;
    assert_eq!(v.body["data"]["status"], "success", "{}", v.body);
    let p = payment(&app, &txnid).await;
    assert_eq!(p.mihpayid.as_deref(), Some("403993715521937565"));
    assert_eq!(p.payment_mode.as_deref(), Some("CC"));
    assert_eq!(p.provider, "payu");
    let me = app.get("/api/auth/me", Some(&token)).await;
    assert_eq!(me.body["user"]["planId"], "basic");

    // PayU's webhook after verify changes nothing (it is signed with PayU's salt).
    let c = ca_billing::payu::Credentials {
        key: key.into(),
        salt: salt.into(),
    };
    let mut webhook: Vec<(String, String)> = vec![
        ("key".into(), key.into()),
        ("txnid".into(), txnid.clone()),
        ("amount".into(), "999.00".into()),
        ("productinfo".into(), field(&params, "productinfo").into()),
        ("firstname".into(), field(&params, "firstname").into()),
        ("email".into(), field(&params, "email").into()),
        ("status".into(), "success".into()),
        ("mihpayid".into(), "403993715521937565".into()),
        ("hash".into(), String::new()),
    ];
    for i in 1..=5 {
        webhook.push((format!("udf{i}"), field(&params, &format!("udf{i}")).into()));
    }
    let webhook = resign(&c, &webhook);
    let (status, _, body) = post_form(&app, "/api/payment/payu/webhook", &webhook).await;
    assert_eq!(status, 200, "{body}");
    assert!(body.contains("\"applied\":false"), "{body}");
    assert_eq!(last_invoice_number(&app).await, 1);
}

#[tokio::test]
async fn cancel_keeps_the_plan_until_the_period_ends_then_free_with_campaigns_paused() {
    let app = spawn_app().await;
    let (token, _) = app.register("cancel@example.in", "correct horse 1").await;
    app.send("POST", "/api/billing/cancel", Some(&token), json!({}))
        .await
        .error(422, "nothing_to_cancel");
    buy(&app, &token, "basic", "monthly").await;
    let created = app
        .send("POST", "/api/campaigns", Some(&token), campaign("Diwali"))
        .await;
    assert_eq!(created.status, 201, "{}", created.body);
    let campaign_id = created.body["campaign"]["_id"]
        .as_str()
        .expect("id")
        .to_string();

    let cancelled = app
        .send("POST", "/api/billing/cancel", Some(&token), json!({}))
        .await;
    assert_eq!(cancelled.status, 200, "{}", cancelled.body);
    assert!(
        cancelled.body["message"]
            .as_str()
            .expect("message")
            .contains("until")
    );
    assert_eq!(cancelled.body["data"]["cancelAtPeriodEnd"], true);
    assert_eq!(cancelled.body["data"]["status"], "active");
    app.send("POST", "/api/billing/cancel", Some(&token), json!({}))
        .await
        .error(422, "already_cancelled");
    let me = app.get("/api/auth/me", Some(&token)).await;
    assert_eq!(me.body["user"]["subscriptionStatus"], "active");

    // Nothing expires before the period ends.
    let campaigns = ca_campaigns::CampaignService::new(app.db.conn.clone());
    assert_eq!(
        campaigns
            .expire_subscriptions(Utc::now())
            .await
            .expect("sweep"),
        0
    );
    // The period ends.
    ca_auth::entities::user::Entity::update_many()
        .col_expr(
            ca_auth::entities::user::Column::SubscriptionEndsAt,
            Expr::value(Utc::now() - chrono::Duration::minutes(1)),
        )
        .filter(ca_auth::entities::user::Column::Email.eq("cancel@example.in"))
        .exec(&app.db.conn)
        .await
        .expect("end period");
    assert_eq!(
        campaigns
            .expire_subscriptions(Utc::now())
            .await
            .expect("sweep"),
        1
    );
    assert_eq!(
        campaigns
            .expire_subscriptions(Utc::now())
            .await
            .expect("sweep"),
        0
    );
    let me = app.get("/api/auth/me", Some(&token)).await;
    assert_eq!(me.body["user"]["subscriptionStatus"], "free");
    assert_eq!(me.body["user"]["planId"], "free");
    let sub = app.get("/api/billing/subscription", Some(&token)).await;
    assert_eq!(sub.body["data"]["status"], "free");
    assert_eq!(sub.body["data"]["cycle"], Value::Null);
    // Paused, not deleted.
    let kept = app
        .get(&format!("/api/campaigns/{campaign_id}"), Some(&token))
        .await;
    assert_eq!(kept.status, 200);
    assert_eq!(kept.body["campaign"]["isActive"], false);
    // Buying again starts a new period and clears the cancellation.
    buy(&app, &token, "basic", "monthly").await;
    let sub = app.get("/api/billing/subscription", Some(&token)).await;
    assert_eq!(sub.body["data"]["status"], "active");
    assert_eq!(sub.body["data"]["cancelAtPeriodEnd"], false);
}

#[tokio::test]
async fn a_cancellation_is_taken_back_before_the_period_ends_and_not_after() {
    let app = spawn_app().await;
    let (token, _) = app.register("resume@example.in", "correct horse 1").await;
    // Nothing to resume on a trial, nor on a plan that is not cancelled.
    app.send("POST", "/api/billing/resume", Some(&token), json!({}))
        .await
        .error(422, "nothing_to_resume");
    buy(&app, &token, "basic", "monthly").await;
    app.send("POST", "/api/billing/resume", Some(&token), json!({}))
        .await
        .error(422, "nothing_to_resume");
    let before = app.get("/api/billing/subscription", Some(&token)).await;
    let cancelled = app
        .send("POST", "/api/billing/cancel", Some(&token), json!({}))
        .await;
    assert_eq!(cancelled.status, 200, "{}", cancelled.body);
    assert!(cancelled.body["data"]["cancelledAt"].is_string());

    let resumed = app
        .send("POST", "/api/billing/resume", Some(&token), json!({}))
        .await;
    assert_eq!(resumed.status, 200, "{}", resumed.body);
    assert!(
        resumed.body["message"]
            .as_str()
            .expect("message")
            .contains("back on"),
        "{}",
        resumed.body
    );
    let sub = app.get("/api/billing/subscription", Some(&token)).await;
    assert_eq!(sub.body["data"]["cancelAtPeriodEnd"], false);
    assert_eq!(sub.body["data"]["cancelledAt"], Value::Null);
    assert_eq!(sub.body["data"]["status"], "active");
    // Nothing was charged and the period is the one paid for.
    assert_eq!(
        sub.body["data"]["subscriptionEndsAt"],
        before.body["data"]["subscriptionEndsAt"]
    );
    let history = app.get("/api/payment/history", Some(&token)).await;
    assert_eq!(
        history.body["data"].as_array().map(Vec::len),
        Some(1),
        "{}",
        history.body
    );
    app.send("POST", "/api/billing/resume", Some(&token), json!({}))
        .await
        .error(422, "nothing_to_resume");
    // It can be cancelled again, and once the period is over the
    // cancellation stands.
    let again = app
        .send("POST", "/api/billing/cancel", Some(&token), json!({}))
        .await;
    assert_eq!(again.status, 200, "{}", again.body);
    let past = Utc::now() - chrono::Duration::minutes(1);
    ca_auth::entities::user::Entity::update_many()
        .col_expr(
            ca_auth::entities::user::Column::SubscriptionEndsAt,
            Expr::value(past),
        )
        .filter(ca_auth::entities::user::Column::Email.eq("resume@example.in"))
        .exec(&app.db.conn)
        .await
        .expect("end period");
    ca_billing::entities::subscription::Entity::update_many()
        .col_expr(
            ca_billing::entities::subscription::Column::CurrentPeriodEnd,
            Expr::value(past),
        )
        .exec(&app.db.conn)
        .await
        .expect("end period");
    app.send("POST", "/api/billing/resume", Some(&token), json!({}))
        .await
        .error(422, "nothing_to_resume");
    let record = ca_billing::entities::subscription::Entity::find()
        .one(&app.db.conn)
        .await
        .expect("read")
        .expect("record");
    assert!(record.cancel_at_period_end, "the refused resume changed it");
}

#[tokio::test]
async fn a_monthly_subscriber_switches_to_annual_billing_from_the_end_of_the_paid_month() {
    let app = spawn_app().await;
    let (token, _) = app.register("annual@example.in", "correct horse 1").await;
    let first = buy(&app, &token, "basic", "monthly").await;
    let anchor = payment(&app, &first).await.period_start.expect("start");
    let sub = app.get("/api/billing/subscription", Some(&token)).await;
    assert_eq!(sub.body["data"]["cycle"], "monthly");
    let month_end: DateTime<Utc> = sub.body["data"]["subscriptionEndsAt"]
        .as_str()
        .expect("end")
        .parse()
        .expect("date");

    // The switch is a payment for the same plan by the year, as a renewal.
    let init = initialize(
        &app,
        &token,
        json!({"udf2": "basic", "udf4": "annual", "renew": true}),
    )
    .await;
    assert_eq!(init.status, 200, "{}", init.body);
    let params = params_of(&init);
    assert_eq!(field(&params, "amount"), "9990.00");
    assert_eq!(field(&params, "productinfo"), "Basic Plan (Annual)");
    let (target, fields) = simulate(&app, &params, "success").await;
    let (status, _, _) = post_form(&app, &path_of(&target, &app), &fields).await;
    assert_eq!(status, 303);
    let paid = payment(&app, field(&fields, "txnid")).await;
    assert_eq!(paid.cycle, "annual");
    let start = paid.period_start.expect("start");
    let end = paid.period_end.expect("end");
    assert_eq!(start.timestamp(), month_end.timestamp());
    // A year on from the paid month, on the day the subscription started.
    assert_eq!(
        end.timestamp(),
        (anchor + chrono::Months::new(13)).timestamp()
    );
    let sub = app.get("/api/billing/subscription", Some(&token)).await;
    assert_eq!(sub.body["data"]["cycle"], "annual");
    assert_eq!(sub.body["data"]["status"], "active");
    let ends: DateTime<Utc> = sub.body["data"]["subscriptionEndsAt"]
        .as_str()
        .expect("end")
        .parse()
        .expect("date");
    assert_eq!(ends.timestamp(), end.timestamp());
}

#[tokio::test]
async fn a_renewal_keeps_the_day_of_the_month_the_subscription_started_on() {
    use ca_billing::entities::subscription;
    use chrono::{Datelike, TimeZone};
    let app = spawn_app().await;
    let (token, user) = app.register("renew31@example.in", "correct horse 1").await;
    buy(&app, &token, "basic", "monthly").await;
    // As if the subscription started on the 31st of a month, and its
    // current period ends on a short month's last day, still to come.
    let now = Utc::now();
    let anchor = Utc
        .with_ymd_and_hms(now.year() - 1, 1, 31, 8, 15, 0)
        .single()
        .expect("date");
    let (months, end) = (1..40u32)
        .map(|k| (k, anchor + chrono::Months::new(k)))
        .find(|(_, end)| *end > now + chrono::Duration::days(1) && end.day() < 31)
        .expect("a short month ahead");
    subscription::Entity::update_many()
        .col_expr(
            subscription::Column::CurrentPeriodStart,
            Expr::value(anchor),
        )
        .col_expr(subscription::Column::CurrentPeriodEnd, Expr::value(end))
        .filter(subscription::Column::OwnerId.eq(user["id"].as_str().expect("id")))
        .exec(&app.db.conn)
        .await
        .expect("update");

    let init = initialize(
        &app,
        &token,
        json!({"udf2": "basic", "udf4": "monthly", "renew": true}),
    )
    .await;
    assert_eq!(init.status, 200, "{}", init.body);
    let (target, fields) = simulate(&app, &params_of(&init), "success").await;
    let (status, _, _) = post_form(&app, &path_of(&target, &app), &fields).await;
    assert_eq!(status, 303);
    let renewal = payment(&app, field(&fields, "txnid")).await;
    assert_eq!(
        renewal.period_start.map(|t| t.timestamp()),
        Some(end.timestamp())
    );
    let renewed_to = renewal.period_end.expect("end");
    // Back on the 31st (or the month's last day): a month from the short
    // month's end would have lost the subscriber the days in between.
    assert_eq!(
        renewed_to.timestamp(),
        (anchor + chrono::Months::new(months + 1)).timestamp()
    );
    assert!(renewed_to.day() > end.day(), "{end} then {renewed_to}");
    let sub = app.get("/api/billing/subscription", Some(&token)).await;
    let ends: DateTime<Utc> = sub.body["data"]["subscriptionEndsAt"]
        .as_str()
        .expect("end")
        .parse()
        .expect("date");
    assert_eq!(ends.timestamp(), renewed_to.timestamp());
}

#[tokio::test]
async fn payments_are_the_owners_own() {
    let app = spawn_app().await;
    let (a, _) = app.register("a@example.in", "correct horse 1").await;
    let (b, _) = app.register("b@example.in", "correct horse 1").await;
    let txnid = buy(&app, &a, "basic", "monthly").await;
    app.get(&format!("/api/payment/status/{txnid}"), Some(&b))
        .await
        .error(404, "payment_not_found");
    app.send("POST", "/payment/verify", Some(&b), json!({"txnid": txnid}))
        .await
        .error(404, "payment_not_found");
    app.get(&format!("/api/payment/invoice/{txnid}"), Some(&b))
        .await
        .error(404, "payment_not_found");
    let history = app.get("/api/payment/history", Some(&b)).await;
    assert_eq!(history.body["data"], json!([]));
    app.get("/api/payment/history", None)
        .await
        .error(401, "missing_token");
    app.get("/api/payment/status/NOPE", Some(&a))
        .await
        .error(404, "payment_not_found");
}

#[tokio::test]
async fn the_demo_payment_is_recorded_like_a_real_one() {
    let app = spawn_app().await;
    let (token, _) = app.register("demo@example.in", "correct horse 1").await;
    let paid = app
        .send(
            "POST",
            "/api/billing/mock-payment-success",
            Some(&token),
            json!({"planId": "basic"}),
        )
        .await;
    assert_eq!(paid.status, 200, "{}", paid.body);
    let history = app.get("/api/payment/history", Some(&token)).await;
    let row = &history.body["data"][0];
    assert_eq!(row["provider"], "demo");
    assert_eq!(row["status"], "success");
    assert_eq!(row["amount"], 999.0);
    assert_eq!(row["invoiceNumber"], "CA-000001");
    let invoice = app
        .get(
            &format!(
                "/api/payment/invoice/{}",
                row["txnid"].as_str().expect("txnid")
            ),
            Some(&token),
        )
        .await;
    assert_eq!(invoice.status, 200);
}

#[tokio::test]
async fn the_simulator_refuses_requests_it_did_not_get_from_us() {
    let app = spawn_app().await;
    let (token, _) = app.register("sim@example.in", "correct horse 1").await;
    let init = initialize(&app, &token, json!({"udf2": "basic"})).await;
    let params = params_of(&init);
    for bad in [
        with(&params, "hash", "00"),
        with(&params, "amount", "1.00"),
        with(&params, "surl", "https://evil.example/steal"),
        with(&params, "key", "someone-else"),
    ] {
        let (status, _, page) = post_form(&app, "/payment/simulator", &bad).await;
        assert_eq!(status, 200);
        assert!(page.contains("Payment request refused"), "{page}");
        assert!(!page.contains("evil.example"), "{page}");
    }
    let (_, _, page) = post_form(&app, "/payment/simulator", &params).await;
    assert!(page.contains("₹999.00"));
    assert!(page.contains("PayU simulator: no real money moves"));
}

/// The history says when each payment settled (what the billing screen's
/// "Payment successful" banner reads) and why a failed one failed.
#[tokio::test]
async fn the_history_says_when_a_payment_settled_and_why_one_failed() {
    let app = spawn_app().await;
    let (token, _) = app.register("settled@example.in", "correct horse 1").await;
    let before = Utc::now();
    let paid = buy(&app, &token, "basic", "monthly").await;
    let init = initialize(&app, &token, json!({"udf2": "basic", "renew": true})).await;
    assert_eq!(init.status, 200, "{}", init.body);
    let (target, fields) = simulate(&app, &params_of(&init), "failure").await;
    post_form(&app, &path_of(&target, &app), &fields).await;
    let failed = field(&fields, "txnid").to_string();
    let open = initialize(&app, &token, json!({"udf2": "basic", "renew": true})).await;
    let pending = field(&params_of(&open), "txnid").to_string();

    let history = app.get("/api/payment/history", Some(&token)).await;
    assert_eq!(history.status, 200);
    let row = |txnid: &str| {
        history.body["data"]
            .as_array()
            .expect("payments")
            .iter()
            .find(|p| p["txnid"] == txnid)
            .expect("row")
            .clone()
    };
    let settled = |txnid: &str| {
        row(txnid)["settledAt"]
            .as_str()
            .map(|s| s.parse::<DateTime<Utc>>().expect("a date"))
    };
    let at = settled(&paid).expect("a success is settled");
    assert!(at >= before - chrono::Duration::seconds(1) && at <= Utc::now());
    assert_eq!(row(&paid)["status"], "success");
    assert!(settled(&failed).is_some());
    assert_eq!(row(&failed)["status"], "failure");
    assert!(
        row(&failed)["errorMessage"]
            .as_str()
            .is_some_and(|m| m.contains("declined")),
        "{}",
        row(&failed)
    );
    assert_eq!(row(&pending)["status"], "pending");
    assert_eq!(row(&pending)["settledAt"], Value::Null);
    assert_eq!(row(&paid)["errorMessage"], Value::Null);
}
