//! Payments as a merchant going live meets them: no simulator once PayU is
//! configured, renewals that extend the period, payments nobody came back
//! for settled by reconciliation, PayU's finer statuses, late successes,
//! abandoned checkouts, refunds, and the limits of PayU's form. PayU is a
//! local stand-in that answers `verify_payment` and
//! `cancel_refund_transaction` as PayU does.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use chrono::{DateTime, Duration, Utc};
use sea_orm::sea_query::Expr;
use sea_orm::{ColumnTrait, EntityTrait, QueryFilter};
use serde_json::{Value, json};

use ca_billing::entities::payment::{self, PaymentStatus};

use crate::admin::account;
use crate::helpers::{SECRET, TestApp, spawn_app, spawn_app_with};
use crate::payments::{
    buy, field, initialize, params_of, payment, payu_stub, post_form, resign, simulator_credentials,
};

const KEY: &str = "LIVEKEY";
const SALT: &str = "LIVESALT0123456789";

fn payu_credentials() -> ca_billing::payu::Credentials {
    ca_billing::payu::Credentials {
        key: KEY.into(),
        salt: SALT.into(),
    }
}

type Answer = Arc<Mutex<Value>>;
type Seen = Arc<Mutex<Vec<HashMap<String, String>>>>;

/// A server configured with PayU (test mode), its PayU stand-in's answer
/// and the requests it saw, and the stand-in's URL.
async fn payu_app() -> (TestApp, Answer, Seen, String) {
    let answer: Answer = Arc::new(Mutex::new(json!({"status": 0, "msg": "nothing yet"})));
    let seen: Seen = Arc::new(Mutex::new(Vec::new()));
    let url = payu_stub(answer.clone(), seen.clone()).await;
    let verify = url.clone();
    let mut app = spawn_app_with(|c| {
        c.payu_key = Some(KEY.into());
        c.payu_salt = Some(SALT.into());
        c.payu_mode = Some("test".into());
        c.payu_verify_url = Some(verify);
    })
    .await;
    // The tests run reconciliation rounds themselves: a round of the
    // server's own worker (every 30 s) on a slow machine would settle the
    // payments first.
    app.stop_worker("payment reconciliation").await;
    (app, answer, seen, url)
}

/// The billing service of `app` as its reconciliation worker runs it (tests
/// run a round themselves).
fn billing(app: &TestApp, verify_url: Option<&str>) -> ca_billing::BillingService {
    let gateway = match verify_url {
        Some(url) => ca_billing::Gateway::Payu {
            credentials: payu_credentials(),
            payment_url: ca_billing::payu::TEST_PAYMENT_URL.into(),
            verify_url: url.into(),
            live: false,
        },
        None => ca_billing::Gateway::Simulator,
    };
    ca_billing::BillingService::new(
        app.db.conn.clone(),
        ca_billing::BillingConfig {
            public_url: app.base.clone(),
            gateway,
            simulator: simulator_credentials(),
            demo_enabled: verify_url.is_none(),
            seller: ca_billing::dto::Seller {
                name: "ConvertAssist".into(),
                address: String::new(),
                gstin: None,
                state_code: None,
            },
            tax: Default::default(),
        },
        Arc::new(ca_campaigns::counters::Meter(app.db.conn.clone())),
    )
}

/// As if the payment `txnid` was made `minutes` ago.
async fn made_ago(app: &TestApp, txnid: &str, minutes: i64) {
    payment::Entity::update_many()
        .col_expr(
            payment::Column::CreatedAt,
            Expr::value(Utc::now() - Duration::minutes(minutes)),
        )
        .col_expr(
            payment::Column::CheckedAt,
            Expr::value(Option::<DateTime<Utc>>::None),
        )
        .filter(payment::Column::Txnid.eq(txnid))
        .exec(&app.db.conn)
        .await
        .expect("update");
}

/// PayU's `verify_payment` answer for these transactions.
fn verified(entries: &[(&str, Value)]) -> Value {
    let details: serde_json::Map<String, Value> = entries
        .iter()
        .map(|(t, v)| ((*t).to_string(), v.clone()))
        .collect();
    json!({"status": 1, "msg": format!("{} out of {} Transactions Fetched Successfully", entries.len(), entries.len()), "transaction_details": details})
}

fn success(amount: &str) -> Value {
    json!({"status": "success", "unmappedstatus": "captured", "amt": amount, "transaction_amount": amount,
        "mihpayid": "403993715521937565", "mode": "UPI", "bank_ref_num": "8471", "error_Message": "NO ERROR"})
}

/// PayU's return (or webhook) fields for the payment `p`, signed with the
/// live credentials; `unmappedstatus` (which PayU does not sign) only when given.
fn signed_callback(
    p: &payment::Model,
    status: &str,
    unmapped: Option<&str>,
) -> Vec<(String, String)> {
    let mut fields: Vec<(String, String)> = vec![
        ("key".into(), KEY.into()),
        ("txnid".into(), p.txnid.clone()),
        ("amount".into(), "999.00".into()),
        ("productinfo".into(), p.productinfo.clone()),
        ("firstname".into(), p.firstname.clone()),
        ("email".into(), p.email.clone()),
        ("status".into(), status.into()),
        ("mihpayid".into(), "403993715521999999".into()),
        ("hash".into(), String::new()),
    ];
    if let Some(u) = unmapped {
        fields.push(("unmappedstatus".into(), u.into()));
    }
    for (i, u) in ca_billing::payu::udfs(p).iter().enumerate() {
        fields.push((format!("udf{}", i + 1), u.clone()));
    }
    resign(&payu_credentials(), &fields)
}

/// PayU's `check_action_status` answer for the refund `request_id`.
fn refund_status(request_id: &str, status: &str) -> Value {
    json!({"status": 1, "msg": "1 out of 1 Transactions Fetched Successfully",
        "transaction_details": {request_id: {request_id: {
            "mihpayid": "403993715521937565", "request_id": request_id, "amt": "999.00",
            "action": "refund", "status": status, "bank_arn": null, "refund_mode": "Back to Source"}}}})
}

/// How many credit notes reverse `p`'s invoice.
async fn credit_notes(app: &TestApp, p: &payment::Model) -> usize {
    ca_billing::entities::invoice::Entity::find()
        .filter(ca_billing::entities::invoice::Column::PaymentId.eq(&p.id))
        .all(&app.db.conn)
        .await
        .expect("documents")
        .iter()
        .filter(|d| d.kind == "credit_note")
        .count()
}

async fn started(app: &TestApp, token: &str, body: Value) -> String {
    let init = initialize(app, token, body).await;
    assert_eq!(init.status, 200, "{}", init.body);
    field(&params_of(&init), "txnid").to_string()
}

#[tokio::test]
async fn once_payu_is_configured_the_simulator_and_the_demo_page_are_gone() {
    let (app, _, _, _) = payu_app().await;
    let (token, _) = app.register("live@example.in", "correct horse 1").await;
    // The simulator's pages do not exist.
    for path in ["/payment/simulator", "/payment/simulator/complete"] {
        let (status, _, _) = post_form(&app, path, &[("key".into(), "ca-simulator".into())]).await;
        assert_eq!(status, 404, "{path}");
    }
    assert_eq!(
        app.get("/payment/simulator/submit.js", None).await.status,
        404
    );
    // A simulated payment left from before PayU was configured never
    // settles, even with a callback signed as the simulator signs.
    let txnid = started(&app, &token, json!({"udf2": "basic"})).await;
    payment::Entity::update_many()
        .col_expr(payment::Column::Provider, Expr::value("simulator"))
        .col_expr(payment::Column::Mode, Expr::value("simulator"))
        .filter(payment::Column::Txnid.eq(&txnid))
        .exec(&app.db.conn)
        .await
        .expect("update");
    let p = payment(&app, &txnid).await;
    let mut fields: Vec<(String, String)> = vec![
        ("key".into(), "ca-simulator".into()),
        ("txnid".into(), txnid.clone()),
        ("amount".into(), "999.00".into()),
        ("productinfo".into(), p.productinfo.clone()),
        ("firstname".into(), p.firstname.clone()),
        ("email".into(), p.email.clone()),
        ("status".into(), "success".into()),
        ("hash".into(), String::new()),
    ];
    for (i, u) in ca_billing::payu::udfs(&p).iter().enumerate() {
        fields.push((format!("udf{}", i + 1), u.clone()));
    }
    let fields = resign(&simulator_credentials(), &fields);
    let (status, _, _) = post_form(&app, "/api/payment/payu/webhook", &fields).await;
    assert_eq!(status, 400);
    assert_eq!(payment(&app, &txnid).await.status, PaymentStatus::Pending);
    // Reconciliation does not ask PayU about it; it expires with the window.
    made_ago(&app, &txnid, 31).await;
    let run = billing(&app, Some(&app.base))
        .reconcile(Utc::now())
        .await
        .expect("run");
    assert_eq!(run.expired, 1);
    assert_eq!(payment(&app, &txnid).await.status, PaymentStatus::Expired);
    let me = app.get("/api/auth/me", Some(&token)).await;
    assert_ne!(me.body["user"]["planId"], "basic");

    // The demo page is refused, and the wizard's "Upgrade" goes to PayU.
    app.send(
        "POST",
        "/api/billing/mock-payment-success",
        Some(&token),
        json!({"planId": "basic"}),
    )
    .await
    .error(403, "demo_payments_disabled");
    let checkout = app
        .send(
            "POST",
            "/api/billing/checkout",
            Some(&token),
            json!({"planId": "basic"}),
        )
        .await;
    assert_eq!(checkout.status, 200, "{}", checkout.body);
    let url = checkout.body["data"]["checkoutUrl"]
        .as_str()
        .expect("url")
        .to_string();
    assert!(url.starts_with("/payment/checkout/CA"), "{url}");
    let page = app.client.get(app.url(&url)).send().await.expect("page");
    assert_eq!(page.status(), 200);
    let csp = page.headers()["content-security-policy"]
        .to_str()
        .expect("csp")
        .to_string();
    assert!(csp.contains("https://test.payu.in"), "{csp}");
    let html = page.text().await.expect("html");
    assert!(
        html.contains("action=\"https://test.payu.in/_payment\""),
        "{html}"
    );
    let posted = crate::payments::hidden_inputs(&html);
    let txnid = field(&posted, "txnid").to_string();
    let stored = payment(&app, &txnid).await;
    assert_eq!(stored.provider, "payu");
    assert_eq!(
        stored.mode,
        ca_billing::entities::payment::CheckoutMode::Test
    );
    assert_eq!(field(&posted, "amount"), "999.00");
    assert_eq!(field(&posted, "key"), KEY);
}

#[tokio::test]
async fn a_second_payment_for_the_plan_extends_the_period_from_its_end() {
    let app = spawn_app().await;
    let (token, _) = app.register("twice@example.in", "correct horse 1").await;
    // Two tabs start a checkout for the same plan; both are paid.
    let first = initialize(&app, &token, json!({"udf2": "basic"})).await;
    let second = initialize(&app, &token, json!({"udf2": "basic"})).await;
    for init in [&first, &second] {
        let (target, fields) = crate::payments::simulate(&app, &params_of(init), "success").await;
        let (status, _, _) =
            post_form(&app, &crate::payments::path_of(&target, &app), &fields).await;
        assert_eq!(status, 303);
    }
    let a = payment(&app, field(&params_of(&first), "txnid")).await;
    let b = payment(&app, field(&params_of(&second), "txnid")).await;
    assert_eq!(a.status, PaymentStatus::Success);
    assert_eq!(b.status, PaymentStatus::Success);
    let (a_end, b_start, b_end) = (
        a.period_end.expect("end"),
        b.period_start.expect("start"),
        b.period_end.expect("end"),
    );
    assert_eq!(
        b_start, a_end,
        "the second period starts where the first ends"
    );
    assert!(b_end > a_end + Duration::days(27));
    let sub = app.get("/api/billing/subscription", Some(&token)).await;
    assert_eq!(sub.body["data"]["status"], "active");
    let ends: DateTime<Utc> = sub.body["data"]["subscriptionEndsAt"]
        .as_str()
        .expect("end")
        .parse()
        .expect("date");
    assert_eq!(ends.timestamp(), b_end.timestamp());

    // On the plan, buying it again is refused unless it is a renewal…
    initialize(&app, &token, json!({"udf2": "basic"}))
        .await
        .error(409, "already_subscribed");
    // …and "Renew now" extends the period once more, from its end.
    let renewal = buy_renewal(&app, &token).await;
    let r = payment(&app, &renewal).await;
    assert_eq!(
        r.period_start.expect("start").timestamp(),
        b_end.timestamp()
    );
    let sub = app.get("/api/billing/subscription", Some(&token)).await;
    let ends: DateTime<Utc> = sub.body["data"]["subscriptionEndsAt"]
        .as_str()
        .expect("end")
        .parse()
        .expect("date");
    assert_eq!(ends.timestamp(), r.period_end.expect("end").timestamp());
}

async fn buy_renewal(app: &TestApp, token: &str) -> String {
    let init = initialize(app, token, json!({"udf2": "basic", "renew": true})).await;
    assert_eq!(init.status, 200, "{}", init.body);
    let (target, fields) = crate::payments::simulate(app, &params_of(&init), "success").await;
    let (status, _, _) = post_form(app, &crate::payments::path_of(&target, app), &fields).await;
    assert_eq!(status, 303);
    field(&fields, "txnid").to_string()
}

#[tokio::test]
async fn reconciliation_settles_what_nobody_came_back_for() {
    let (app, answer, seen, url) = payu_app().await;
    let (token, user) = app
        .register("closed-tab@example.in", "correct horse 1")
        .await;
    let paid = started(&app, &token, json!({"udf2": "basic"})).await;
    let cancelled = started(&app, &token, json!({"udf2": "basic"})).await;
    let abandoned = started(&app, &token, json!({"udf2": "basic"})).await;
    let fresh = started(&app, &token, json!({"udf2": "basic"})).await;
    for t in [&paid, &cancelled] {
        made_ago(&app, t, 3).await;
    }
    made_ago(&app, &abandoned, 31).await;
    *answer.lock().expect("lock") = verified(&[
        (&paid, success("999.00")),
        (
            &cancelled,
            json!({"status": "failure", "unmappedstatus": "userCancelled", "amt": "999.00", "mihpayid": "4039937155"}),
        ),
        (
            &abandoned,
            json!({"mihpayid": "Not Found", "status": "Not Found"}),
        ),
    ]);
    let service = billing(&app, Some(&url));
    let run = service.reconcile(Utc::now()).await.expect("run");
    assert_eq!(
        (run.checked, run.settled, run.expired),
        (3, 2, 1),
        "{run:?}"
    );
    assert_eq!(run.error, None);
    // One batched call, the txnids joined by `|`, not the fresh one.
    {
        let seen = seen.lock().expect("lock");
        assert_eq!(seen.len(), 1);
        let var1: Vec<&str> = seen[0]["var1"].split('|').collect();
        assert_eq!(var1.len(), 3);
        assert!(!var1.contains(&fresh.as_str()));
        assert_eq!(
            seen[0]["hash"],
            ca_billing::payu::api_hash(&payu_credentials(), "verify_payment", &seen[0]["var1"])
        );
    }
    assert_eq!(payment(&app, &paid).await.status, PaymentStatus::Success);
    let c = payment(&app, &cancelled).await;
    assert_eq!(c.status, PaymentStatus::Failure);
    assert_eq!(c.error_message.as_deref(), Some("Cancelled on PayU's page"));
    let a = payment(&app, &abandoned).await;
    assert_eq!(a.status, PaymentStatus::Expired);
    assert!(
        a.error_message
            .as_deref()
            .is_some_and(|m| m.starts_with("Not completed"))
    );
    assert_eq!(payment(&app, &fresh).await.status, PaymentStatus::Pending);
    let me = app.get("/api/auth/me", Some(&token)).await;
    assert_eq!(me.body["user"]["planId"], "basic");
    // The history shows the abandoned checkout as not completed, with why.
    let history = app.get("/api/payment/history", Some(&token)).await;
    let row = history.body["data"]
        .as_array()
        .expect("rows")
        .iter()
        .find(|r| r["txnid"] == abandoned.as_str())
        .expect("row")
        .clone();
    assert_eq!(row["status"], "expired");
    assert!(
        row["errorMessage"]
            .as_str()
            .is_some_and(|m| m.contains("Not completed"))
    );
    // A second run right away asks nothing again (checked 3 minutes apart).
    service.reconcile(Utc::now()).await.expect("run");
    assert_eq!(seen.lock().expect("lock").len(), 1);

    // PayU refusing the call (a wrong salt) is an error staff see.
    made_ago(&app, &fresh, 5).await;
    *answer.lock().expect("lock") = json!({"status": 0, "msg": "Invalid Hash."});
    let run = service.reconcile(Utc::now()).await.expect("run");
    assert_eq!(
        run.error.as_deref(),
        Some("PayU refused the call: Invalid Hash.")
    );
    assert_eq!(payment(&app, &fresh).await.status, PaymentStatus::Pending);
    let (staff, _) = account(&app, "ops@example.in", "admin").await;
    let health = app.get("/api/admin/system/health", Some(&staff)).await;
    assert_eq!(health.status, 200, "{}", health.body);
    let payments = &health.body["data"]["payments"];
    assert_eq!(
        payments["lastReconciliation"]["error"],
        "PayU refused the call: Invalid Hash."
    );
    assert_eq!(payments["pendingOver15Minutes"], 0);
    let _ = user;
}

/// A payment PayU still reports in progress after its 30 minutes (a bank
/// authorisation not yet captured, a slow UPI or net-banking payment) holds
/// the buyer's money: it is not given up, and it is asked about until PayU
/// settles it. A transaction PayU does not know is given up as before.
#[tokio::test]
async fn payments_payu_keeps_in_progress_do_not_crowd_a_new_one_out() {
    use sea_orm::IntoActiveModel;
    let (app, answer, _, url) = payu_app().await;
    let (token, _) = app.register("crowd@example.in", "correct horse 1").await;
    let template = payment(&app, &started(&app, &token, json!({"udf2": "basic"})).await).await;
    // A full run's worth of payments PayU has called in progress for a
    // while, each asked about four minutes ago and so due again.
    let now = Utc::now();
    let per_run = usize::try_from(ca_billing::reconcile::PER_RUN).expect("size");
    let held = (0..per_run).map(|i| {
        let mut p = template.clone();
        p.id = format!("held-{i}");
        p.txnid = format!("CAHELD{i:05}");
        p.created_at = now - Duration::minutes(20);
        p.checked_at = Some(now - Duration::minutes(4));
        p.into_active_model()
    });
    payment::Entity::insert_many(held)
        .exec(&app.db.conn)
        .await
        .expect("insert");
    // A buyer has just paid; PayU says so.
    let fresh = started(&app, &token, json!({"udf2": "basic"})).await;
    made_ago(&app, &fresh, 3).await;
    *answer.lock().expect("lock") = verified(&[(&fresh, success("999.00"))]);
    let run = billing(&app, Some(&url)).reconcile(now).await.expect("run");
    assert_eq!(run.checked, ca_billing::reconcile::PER_RUN as i64);
    assert_eq!(run.settled, 1);
    assert_eq!(payment(&app, &fresh).await.status, PaymentStatus::Success);
}

#[tokio::test]
async fn money_payu_still_holds_is_never_given_up() {
    let (app, answer, _, url) = payu_app().await;
    let (token, _) = app.register("held@example.in", "correct horse 1").await;
    let service = billing(&app, Some(&url));
    let authorised = started(&app, &token, json!({"udf2": "basic"})).await;
    let pending = started(&app, &token, json!({"udf2": "basic"})).await;
    let unknown = started(&app, &token, json!({"udf2": "basic"})).await;
    for t in [&authorised, &pending, &unknown] {
        made_ago(&app, t, 31).await;
    }
    *answer.lock().expect("lock") = verified(&[
        (
            &authorised,
            json!({"status": "success", "unmappedstatus": "auth", "amt": "999.00", "mihpayid": "4039937155"}),
        ),
        (
            &pending,
            json!({"status": "pending", "unmappedstatus": "pending", "amt": "999.00", "mihpayid": "4039937156"}),
        ),
        (
            &unknown,
            json!({"mihpayid": "Not Found", "status": "Not Found"}),
        ),
    ]);
    let run = service.reconcile(Utc::now()).await.expect("run");
    assert_eq!(
        (run.checked, run.settled, run.expired),
        (3, 0, 1),
        "{run:?}"
    );
    assert_eq!(
        payment(&app, &authorised).await.status,
        PaymentStatus::Pending
    );
    assert_eq!(payment(&app, &pending).await.status, PaymentStatus::Pending);
    assert_eq!(payment(&app, &unknown).await.status, PaymentStatus::Expired);

    // Hours later PayU captures one and lets the other go.
    for t in [&authorised, &pending] {
        made_ago(&app, t, 240).await;
    }
    *answer.lock().expect("lock") = verified(&[
        (&authorised, success("999.00")),
        (
            &pending,
            json!({"status": "failure", "unmappedstatus": "failed", "amt": "999.00", "mihpayid": "4039937156"}),
        ),
    ]);
    let run = service.reconcile(Utc::now()).await.expect("run");
    assert_eq!(
        (run.checked, run.settled, run.expired),
        (2, 2, 0),
        "{run:?}"
    );
    assert_eq!(
        payment(&app, &authorised).await.status,
        PaymentStatus::Success
    );
    assert_eq!(payment(&app, &pending).await.status, PaymentStatus::Failure);
    let me = app.get("/api/auth/me", Some(&token)).await;
    assert_eq!(me.body["user"]["planId"], "basic");
}

/// On a live install, the test-card payments made while going live (PayU's
/// test mode, same database) are not revenue: staff figures count live
/// payments only.
#[tokio::test]
async fn test_payments_made_before_going_live_are_not_revenue() {
    let answer: Answer = Arc::new(Mutex::new(json!({"status": 0, "msg": "nothing yet"})));
    let url = payu_stub(answer.clone(), Arc::new(Mutex::new(Vec::new()))).await;
    let verify = url.clone();
    let mut app = spawn_app_with(|c| {
        c.payu_key = Some(KEY.into());
        c.payu_salt = Some(SALT.into());
        c.payu_mode = Some("live".into());
        c.payu_verify_url = Some(verify);
    })
    .await;
    app.stop_worker("payment reconciliation").await;
    let (su, _) = account(&app, "root@example.in", "superuser").await;
    let (tried, _) = app.register("tried@example.in", "correct horse 1").await;
    let (paid, _) = app.register("paid@example.in", "correct horse 1").await;
    let test_card = started(&app, &tried, json!({"udf2": "basic"})).await;
    let real = started(&app, &paid, json!({"udf2": "basic"})).await;
    // The first was made while the install still ran PayU's test mode.
    payment::Entity::update_many()
        .col_expr(payment::Column::Mode, Expr::value("test"))
        .filter(payment::Column::Txnid.eq(&test_card))
        .exec(&app.db.conn)
        .await
        .expect("test mode");
    for t in [&test_card, &real] {
        made_ago(&app, t, 3).await;
    }
    *answer.lock().expect("lock") =
        verified(&[(&test_card, success("999.00")), (&real, success("999.00"))]);
    let mut config = billing(&app, Some(&url)).config().clone();
    config.gateway = ca_billing::Gateway::Payu {
        credentials: payu_credentials(),
        payment_url: ca_billing::payu::TEST_PAYMENT_URL.into(),
        verify_url: url.clone(),
        live: true,
    };
    let service = ca_billing::BillingService::new(
        app.db.conn.clone(),
        config,
        Arc::new(ca_campaigns::counters::Meter(app.db.conn.clone())),
    );
    let run = service.reconcile(Utc::now()).await.expect("run");
    assert_eq!(run.settled, 2, "{run:?}");

    let stats = app.get("/api/admin/dashboard/stats", Some(&su)).await;
    assert_eq!(
        stats.body["data"]["revenueThisMonth"], 999.0,
        "{}",
        stats.body
    );
    let fig = app.get("/api/admin/superadmin", Some(&su)).await;
    let f = &fig.body["data"];
    assert_eq!(f["revenueByMonth"][11]["revenue"], 999.0, "{}", fig.body);
    assert_eq!(f["revenueByMonth"][11]["payments"], 1);
    assert_eq!(f["revenueThisMonth"], 999.0);
    assert_eq!(f["mrr"], 999.0);
    let list = app
        .get("/api/admin/users?search=tried%40example.in", Some(&su))
        .await;
    assert_eq!(
        list.body["data"]["users"][0]["totalRevenue"], 0.0,
        "{}",
        list.body
    );
    let list = app
        .get("/api/admin/users?search=paid%40example.in", Some(&su))
        .await;
    assert_eq!(
        list.body["data"]["users"][0]["totalRevenue"], 999.0,
        "{}",
        list.body
    );
}

#[tokio::test]
async fn every_status_payu_sends_is_handled() {
    let (app, answer, _, url) = payu_app().await;
    let (token, _) = app.register("statuses@example.in", "correct horse 1").await;
    let service = billing(&app, Some(&url));
    let cases = [
        ("pending", "pending", PaymentStatus::Pending, None),
        ("success", "auth", PaymentStatus::Pending, None),
        (
            "failure",
            "userCancelled",
            PaymentStatus::Failure,
            Some("Cancelled on PayU's page"),
        ),
        (
            "failure",
            "bounced",
            PaymentStatus::Failure,
            Some("Not completed: the bank's verification step was not finished"),
        ),
        (
            "failure",
            "dropped",
            PaymentStatus::Failure,
            Some("Not completed: the buyer left PayU's page before paying"),
        ),
        (
            "failure",
            "autoRefund",
            PaymentStatus::Failure,
            Some("Refunded automatically by PayU"),
        ),
        (
            "failure",
            "failed",
            PaymentStatus::Failure,
            Some("Bank declined"),
        ),
    ];
    for (status, unmapped, expected, reason) in cases {
        let txnid = started(&app, &token, json!({"udf2": "basic"})).await;
        made_ago(&app, &txnid, 3).await;
        *answer.lock().expect("lock") = verified(&[(
            &txnid,
            json!({"status": status, "unmappedstatus": unmapped, "amt": "999.00",
                "mihpayid": "4039937155", "error_Message": "Bank declined"}),
        )]);
        service.reconcile(Utc::now()).await.expect("run");
        let p = payment(&app, &txnid).await;
        assert_eq!(p.status, expected, "{status}/{unmapped}");
        assert_eq!(p.error_message.as_deref(), reason, "{status}/{unmapped}");
    }

    // A success PayU reports after the payment had failed is applied (the
    // money was taken), marked for staff.
    let txnid = started(&app, &token, json!({"udf2": "basic"})).await;
    made_ago(&app, &txnid, 3).await;
    *answer.lock().expect("lock") = verified(&[(
        &txnid,
        json!({"status": "failure", "unmappedstatus": "failed", "amt": "999.00", "mihpayid": "1"}),
    )]);
    service.reconcile(Utc::now()).await.expect("run");
    assert_eq!(payment(&app, &txnid).await.status, PaymentStatus::Failure);
    // PayU's webhook then says it succeeded.
    let p = payment(&app, &txnid).await;
    let fields = signed_callback(&p, "success", Some("captured"));
    // PayU's own answer says the same (a success is applied only as PayU
    // states it).
    *answer.lock().expect("lock") = verified(&[(
        &txnid,
        json!({"status": "success", "unmappedstatus": "captured", "amt": "999.00",
            "mihpayid": "403993715521999999"}),
    )]);
    let (status, _, body) = post_form(&app, "/api/payment/payu/webhook", &fields).await;
    assert_eq!(status, 200, "{body}");
    assert!(body.contains("\"applied\":true"), "{body}");
    let p = payment(&app, &txnid).await;
    assert_eq!(p.status, PaymentStatus::Success);
    assert!(p.late_success_at.is_some());
    assert!(p.invoice_number.is_some());
    let me = app.get("/api/auth/me", Some(&token)).await;
    assert_eq!(me.body["user"]["planId"], "basic");
    let (staff, _) = account(&app, "ops@example.in", "admin").await;
    let detail = app
        .get(&format!("/api/admin/users/{}", p.owner_id), Some(&staff))
        .await;
    let shown = detail.body["data"]["payments"]
        .as_array()
        .expect("payments")
        .iter()
        .find(|r| r["txnid"] == txnid.as_str())
        .expect("payment")
        .clone();
    assert!(shown["lateSuccessAt"].is_string(), "{shown}");

    // PayU then reverses that late capture by itself (the buyer had paid
    // again): the payment is refunded, with a credit note, and the period
    // it paid for ends. A resend of the notice changes nothing more.
    let reversed: Vec<(String, String)> = fields
        .iter()
        .map(|(k, v)| match k.as_str() {
            "status" => (k.clone(), "failure".to_string()),
            "unmappedstatus" => (k.clone(), "autoRefund".to_string()),
            _ => (k.clone(), v.clone()),
        })
        .collect();
    let reversed = resign(&payu_credentials(), &reversed);
    *answer.lock().expect("lock") = verified(&[(
        &txnid,
        json!({"status": "failure", "unmappedstatus": "autoRefund", "amt": "999.00",
            "mihpayid": "403993715521999999"}),
    )]);
    for _ in 0..2 {
        let (status, _, body) = post_form(&app, "/api/payment/payu/webhook", &reversed).await;
        assert_eq!(status, 200, "{body}");
    }
    let p = payment(&app, &txnid).await;
    assert_eq!(p.status, PaymentStatus::Refunded);
    assert_eq!(p.refund_amount_paise, Some(99_900));
    assert_eq!(credit_notes(&app, &p).await, 1);
    let sub = app.get("/api/billing/subscription", Some(&token)).await;
    assert_ne!(sub.body["data"]["status"], "active", "{}", sub.body);
}

#[tokio::test]
async fn a_success_is_applied_only_as_payus_own_answer_states_it() {
    let (app, answer, seen, _) = payu_app().await;
    let (token, _) = app.register("unmapped@example.in", "correct horse 1").await;
    let plan = async || app.get("/api/auth/me", Some(&token)).await.body["user"]["planId"].clone();
    let free = plan().await;

    // The bank only authorised the payment (PayU: success/auth). The
    // browser's return is signed, but its unsigned `unmappedstatus` was
    // dropped (or changed to "captured") on the way.
    let txnid = started(&app, &token, json!({"udf2": "basic"})).await;
    let p = payment(&app, &txnid).await;
    *answer.lock().expect("lock") = verified(&[(
        &txnid,
        json!({"status": "success", "unmappedstatus": "auth", "amt": "999.00", "mihpayid": "7"}),
    )]);
    let (status, location, _) = post_form(
        &app,
        "/api/payment/payu/return",
        &signed_callback(&p, "success", None),
    )
    .await;
    assert_eq!(status, 303);
    assert!(
        location.starts_with("/payment/status?") && location.contains("status=pending"),
        "{location}"
    );
    {
        let seen = seen.lock().expect("lock");
        let asked = seen.last().expect("PayU was asked");
        assert_eq!(asked["command"], "verify_payment");
        assert_eq!(asked["var1"], txnid);
    }
    let (status, _, body) = post_form(
        &app,
        "/api/payment/payu/webhook",
        &signed_callback(&p, "success", Some("captured")),
    )
    .await;
    assert_eq!(status, 200, "{body}");
    assert!(body.contains("\"applied\":false"), "{body}");
    assert_eq!(payment(&app, &txnid).await.status, PaymentStatus::Pending);
    assert_eq!(plan().await, free);

    // PayU cannot be asked (it refuses the call): still nothing is given,
    // and PayU's webhook is told to come again.
    *answer.lock().expect("lock") = json!({"status": 0, "msg": "Hash mismatch"});
    let (_, location, _) = post_form(
        &app,
        "/api/payment/payu/return",
        &signed_callback(&p, "success", None),
    )
    .await;
    assert!(location.contains("status=pending"), "{location}");
    let (status, _, body) = post_form(
        &app,
        "/api/payment/payu/webhook",
        &signed_callback(&p, "success", Some("captured")),
    )
    .await;
    assert_eq!(status, 503, "{body}");
    assert_eq!(payment(&app, &txnid).await.status, PaymentStatus::Pending);
    assert_eq!(plan().await, free);

    // Once PayU has captured it, the same return is applied, as PayU states it.
    *answer.lock().expect("lock") = verified(&[(&txnid, success("999.00"))]);
    let (_, location, _) = post_form(
        &app,
        "/api/payment/payu/return",
        &signed_callback(&p, "success", None),
    )
    .await;
    assert_eq!(location, format!("/payment/success?txnid={txnid}"));
    let paid = payment(&app, &txnid).await;
    assert_eq!(paid.status, PaymentStatus::Success);
    assert_eq!(paid.unmapped_status.as_deref(), Some("captured"));
    assert_eq!(paid.mihpayid.as_deref(), Some("403993715521937565"));
    assert_eq!(plan().await, "basic");

    // A success PayU refunded by itself, its "autoRefund" changed to
    // "captured" by the buyer: PayU's answer says failure, and it fails.
    let (other, _) = app
        .register("autorefund@example.in", "correct horse 1")
        .await;
    let txnid = started(&app, &other, json!({"udf2": "basic"})).await;
    let p = payment(&app, &txnid).await;
    *answer.lock().expect("lock") = verified(&[(
        &txnid,
        json!({"status": "failure", "unmappedstatus": "autoRefund", "amt": "999.00", "mihpayid": "8"}),
    )]);
    let (_, location, _) = post_form(
        &app,
        "/api/payment/payu/return",
        &signed_callback(&p, "success", Some("captured")),
    )
    .await;
    assert!(location.starts_with("/payment/failure?"), "{location}");
    let failed = payment(&app, &txnid).await;
    assert_eq!(failed.status, PaymentStatus::Failure);
    assert_eq!(
        failed.error_message.as_deref(),
        Some("Refunded automatically by PayU")
    );
    let me = app.get("/api/auth/me", Some(&other)).await;
    assert_ne!(me.body["user"]["planId"], "basic");
}

#[tokio::test]
async fn a_refund_goes_back_through_payu_and_ends_the_period() {
    let (app, answer, seen, url) = payu_app().await;
    let (token, _) = app.register("refund@example.in", "correct horse 1").await;
    let txnid = started(&app, &token, json!({"udf2": "basic"})).await;
    made_ago(&app, &txnid, 3).await;
    *answer.lock().expect("lock") = verified(&[(&txnid, success("999.00"))]);
    billing(&app, Some(&url))
        .reconcile(Utc::now())
        .await
        .expect("run");
    assert_eq!(payment(&app, &txnid).await.status, PaymentStatus::Success);
    let (staff, _) = account(&app, "ops@example.in", "admin").await;
    let path = format!("/api/admin/payments/{txnid}/refund");
    // Owners cannot refund; PayU refusing leaves the payment as it was.
    app.send("POST", &path, Some(&token), json!({}))
        .await
        .error(403, "admin_required");
    *answer.lock().expect("lock") = json!({"status": 0, "msg": "Invalid amount"});
    app.send("POST", &path, Some(&staff), json!({}))
        .await
        .error(422, "refund_refused");
    assert_eq!(payment(&app, &txnid).await.status, PaymentStatus::Success);
    *answer.lock().expect("lock") = json!({"status": 1, "msg": "Refund Request Queued", "request_id": "130412345", "mihpayid": "403993715521937565", "error_code": 102});
    let r = app.send("POST", &path, Some(&staff), json!({})).await;
    assert_eq!(r.status, 200, "{}", r.body);
    // PayU only queued it: the payment stays paid, marked as waiting on PayU.
    assert_eq!(r.body["data"]["status"], "success");
    assert!(
        r.body["data"]["refundRequestedAt"].is_string(),
        "{}",
        r.body
    );
    {
        let seen = seen.lock().expect("lock");
        let call = seen.last().expect("refund call");
        assert_eq!(call["command"], "cancel_refund_transaction");
        assert_eq!(call["var1"], "403993715521937565");
        assert_eq!(call["var3"], "999.00");
        assert!(call["var2"].starts_with("RF"));
        assert_eq!(
            call["hash"],
            ca_billing::payu::api_hash(
                &payu_credentials(),
                "cancel_refund_transaction",
                "403993715521937565"
            )
        );
    }
    let p = payment(&app, &txnid).await;
    assert_eq!(p.status, PaymentStatus::Success);
    assert_eq!(p.refund_id.as_deref(), Some("130412345"));
    assert_eq!(credit_notes(&app, &p).await, 0);
    let sub = app.get("/api/billing/subscription", Some(&token)).await;
    assert_eq!(sub.body["data"]["status"], "active", "{}", sub.body);
    // Asked again meanwhile: it is already on its way.
    app.send("POST", &path, Some(&staff), json!({}))
        .await
        .error(409, "refund_in_progress");

    // The worker asks PayU (check_action_status, by the request id): still
    // queued, then done.
    let service = billing(&app, Some(&url));
    *answer.lock().expect("lock") = refund_status("130412345", "queued");
    let now = Utc::now();
    let round = service.check_refunds(now).await.expect("round");
    assert_eq!((round.checked, round.done), (1, 0));
    {
        let seen = seen.lock().expect("lock");
        let call = seen.last().expect("status call");
        assert_eq!(call["command"], "check_action_status");
        assert_eq!(call["var1"], "130412345");
        assert_eq!(
            call["hash"],
            ca_billing::payu::api_hash(&payu_credentials(), "check_action_status", "130412345")
        );
    }
    // Not asked again at once.
    assert_eq!(service.check_refunds(now).await.expect("round").checked, 0);
    assert_eq!(payment(&app, &txnid).await.status, PaymentStatus::Success);
    // Ten minutes on, PayU has made it.
    payment::Entity::update_many()
        .col_expr(
            payment::Column::RefundCheckedAt,
            Expr::value(Some(now - Duration::minutes(11))),
        )
        .filter(payment::Column::Txnid.eq(&txnid))
        .exec(&app.db.conn)
        .await
        .expect("update");
    *answer.lock().expect("lock") = refund_status("130412345", "success");
    let round = service.check_refunds(Utc::now()).await.expect("round");
    assert_eq!((round.checked, round.done), (1, 1));
    let p = payment(&app, &txnid).await;
    assert_eq!(p.status, PaymentStatus::Refunded);
    assert_eq!(p.refund_id.as_deref(), Some("130412345"));
    assert_eq!(p.refund_amount_paise, Some(99_900));
    assert_eq!(credit_notes(&app, &p).await, 1);
    // The period it paid for ended: the owner is no longer on Basic.
    let sub = app.get("/api/billing/subscription", Some(&token)).await;
    assert_ne!(sub.body["data"]["status"], "active", "{}", sub.body);
    let history = app.get("/api/payment/history", Some(&token)).await;
    assert_eq!(history.body["data"][0]["status"], "refunded");
    // Refunded once: a second refund is refused.
    app.send("POST", &path, Some(&staff), json!({}))
        .await
        .error(422, "not_refundable");
}

/// One payment's money is asked back from PayU once: a double click or a
/// second staff member while the first request is out gets "already on its
/// way" (409), not a second full-amount refund. A refusal by PayU lets
/// staff try again, with the same refund id, so PayU can tell a repeat.
#[tokio::test]
async fn a_refund_is_asked_of_payu_once_however_many_clicks() {
    let (app, answer, seen, url) = payu_app().await;
    let (token, _) = app.register("double@example.in", "correct horse 1").await;
    let txnid = started(&app, &token, json!({"udf2": "basic"})).await;
    made_ago(&app, &txnid, 3).await;
    *answer.lock().expect("lock") = verified(&[(&txnid, success("999.00"))]);
    billing(&app, Some(&url))
        .reconcile(Utc::now())
        .await
        .expect("run");
    let (staff, _) = account(&app, "ops@example.in", "admin").await;
    let (other, _) = account(&app, "desk@example.in", "admin").await;
    let path = format!("/api/admin/payments/{txnid}/refund");
    let refund_calls = |seen: &Seen| {
        seen.lock()
            .expect("lock")
            .iter()
            .filter(|c| c["command"] == "cancel_refund_transaction")
            .map(|c| c["var2"].clone())
            .collect::<Vec<_>>()
    };

    // PayU refuses first: nothing is recorded and staff may try again.
    *answer.lock().expect("lock") = json!({"status": 0, "msg": "Invalid amount"});
    app.send("POST", &path, Some(&staff), json!({}))
        .await
        .error(422, "refund_refused");

    *answer.lock().expect("lock") = json!({"status": 1, "msg": "Refund Request Queued", "request_id": "130412346", "mihpayid": "403993715521937565", "error_code": 102, "_delay_ms": 800});
    let (a, b) = tokio::join!(
        app.send("POST", &path, Some(&staff), json!({})),
        app.send("POST", &path, Some(&other), json!({}))
    );
    let mut statuses = [a.status.as_u16(), b.status.as_u16()];
    statuses.sort_unstable();
    assert_eq!(statuses, [200, 409], "{} / {}", a.body, b.body);
    let loser = if a.status == 409 { &a } else { &b };
    assert_eq!(loser.body["code"], "refund_in_progress", "{}", loser.body);
    let calls = refund_calls(&seen);
    assert_eq!(calls.len(), 2, "the refused one and one more: {calls:?}");
    assert_eq!(calls[0], calls[1], "the same refund id each time");
    let p = payment(&app, &txnid).await;
    assert!(p.refund_requested_at.is_some());
    // Waiting on PayU, it is not asked of PayU again, however long it takes.
    app.send("POST", &path, Some(&staff), json!({}))
        .await
        .error(409, "refund_in_progress");
    payment::Entity::update_many()
        .col_expr(
            payment::Column::RefundStartedAt,
            Expr::value(Some(Utc::now() - Duration::hours(2))),
        )
        .filter(payment::Column::Txnid.eq(&txnid))
        .exec(&app.db.conn)
        .await
        .expect("update");
    app.send("POST", &path, Some(&other), json!({}))
        .await
        .error(409, "refund_in_progress");
    assert_eq!(refund_calls(&seen).len(), 2);
}

#[tokio::test]
async fn a_refund_payu_fails_is_not_recorded_and_can_be_asked_again() {
    let (app, answer, seen, url) = payu_app().await;
    let (token, _) = app.register("refail@example.in", "correct horse 1").await;
    let txnid = started(&app, &token, json!({"udf2": "basic"})).await;
    made_ago(&app, &txnid, 3).await;
    *answer.lock().expect("lock") = verified(&[(&txnid, success("999.00"))]);
    let service = billing(&app, Some(&url));
    service.reconcile(Utc::now()).await.expect("run");
    let (staff, _) = account(&app, "ops@example.in", "admin").await;
    let path = format!("/api/admin/payments/{txnid}/refund");
    let shown = async || {
        let p = payment(&app, &txnid).await;
        let detail = app
            .get(&format!("/api/admin/users/{}", p.owner_id), Some(&staff))
            .await;
        detail.body["data"]["payments"]
            .as_array()
            .expect("payments")
            .iter()
            .find(|r| r["txnid"] == txnid.as_str())
            .expect("payment")
            .clone()
    };

    *answer.lock().expect("lock") =
        json!({"status": 1, "msg": "Refund Request Queued", "request_id": "130500001"});
    let r = app
        .send("POST", &path, Some(&staff), json!({"keepAccess": true}))
        .await;
    assert_eq!(r.status, 200, "{}", r.body);
    // PayU fails it (say, the merchant's balance could not cover it).
    *answer.lock().expect("lock") = json!({"status": 1, "msg": "1 out of 1 Transactions Fetched Successfully",
        "transaction_details": {"130500001": {"130500001": {"request_id": "130500001", "action": "refund",
            "status": "failure", "remark": "Insufficient balance"}}}});
    let round = service.check_refunds(Utc::now()).await.expect("round");
    assert_eq!((round.checked, round.failed), (1, 1));
    let p = payment(&app, &txnid).await;
    assert_eq!(p.status, PaymentStatus::Success);
    assert_eq!(p.refunded_at, None);
    assert_eq!(credit_notes(&app, &p).await, 0);
    let row = shown().await;
    assert_eq!(row["status"], "success");
    assert!(row["refundRequestedAt"].is_null(), "{row}");
    assert_eq!(
        row["refundError"],
        "PayU could not make the refund: Insufficient balance"
    );
    let history = app.get("/api/payment/history", Some(&token)).await;
    assert_eq!(history.body["data"][0]["status"], "success");

    // Staff ask again: PayU queues it and makes it; the owner keeps the
    // period, as staff chose this time.
    *answer.lock().expect("lock") =
        json!({"status": 1, "msg": "Refund Request Queued", "request_id": "130500002"});
    let r = app
        .send("POST", &path, Some(&staff), json!({"keepAccess": true}))
        .await;
    assert_eq!(r.status, 200, "{}", r.body);
    assert!(shown().await["refundError"].is_null());
    *answer.lock().expect("lock") = refund_status("130500002", "success");
    let round = service.check_refunds(Utc::now()).await.expect("round");
    assert_eq!(round.done, 1);
    let p = payment(&app, &txnid).await;
    assert_eq!(p.status, PaymentStatus::Refunded);
    assert_eq!(p.refund_keeps_access, Some(true));
    assert_eq!(credit_notes(&app, &p).await, 1);
    let sub = app.get("/api/billing/subscription", Some(&token)).await;
    assert_eq!(sub.body["data"]["status"], "active", "{}", sub.body);
    let calls = seen
        .lock()
        .expect("lock")
        .iter()
        .filter(|c| c["command"] == "cancel_refund_transaction")
        .count();
    assert_eq!(calls, 2);
}

#[tokio::test]
async fn the_simulator_refunds_itself_and_staff_may_let_the_owner_keep_the_period() {
    let app = spawn_app().await;
    let (token, _) = app.register("keep@example.in", "correct horse 1").await;
    let txnid = buy(&app, &token, "basic", "monthly").await;
    let (staff, _) = account(&app, "ops@example.in", "admin").await;
    let r = app
        .send(
            "POST",
            &format!("/api/admin/payments/{txnid}/refund"),
            Some(&staff),
            json!({"keepAccess": true}),
        )
        .await;
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(r.body["data"]["refundKeepsAccess"], true);
    let sub = app.get("/api/billing/subscription", Some(&token)).await;
    assert_eq!(sub.body["data"]["status"], "active");
    assert_eq!(sub.body["data"]["planId"], "basic");
    // The refund is on the staff's record.
    let audit = ca_admin::entities::audit_entry::Entity::find()
        .filter(ca_admin::entities::audit_entry::Column::Action.eq("refund_payment"))
        .all(&app.db.conn)
        .await
        .expect("audit");
    assert_eq!(audit.len(), 1);
    assert_eq!(audit[0].target_id, txnid);
}

#[tokio::test]
async fn checkout_refuses_what_payus_form_would_refuse() {
    let app = spawn_app().await;
    let long = format!("{}@example.in", "a".repeat(40));
    assert!(long.len() > 50);
    let (token, _) = app.register(&long, "correct horse 1").await;
    let r = initialize(&app, &token, json!({"udf2": "basic"})).await;
    assert_eq!(r.status, 400, "{}", r.body);
    assert!(
        r.body["errors"]["email"][0]
            .as_str()
            .is_some_and(|m| m.contains("at most 50 characters"))
    );
    let stored = payment::Entity::find()
        .all(&app.db.conn)
        .await
        .expect("payments");
    assert!(stored.is_empty(), "nothing stored");
    let _ = SECRET;
}
