//! Outgoing webhooks over HTTP against local receivers: a lead through the
//! widget becomes one signed `lead.created` delivery, retries follow the
//! schedule, a hanging receiver holds only its own deliveries, a killed
//! server still delivers after restart with the same `webhook-id`,
//! destinations inside the server's network are refused, rotation signs
//! with both secrets, the Mailchimp audience push speaks Mailchimp's API,
//! and an endpoint failing for 5 days is switched off with an email.

use std::collections::{HashMap, VecDeque};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use base64::Engine;
use ca_webhooks::entities::{delivery, endpoint};
use chrono::Utc;
use hmac::{Hmac, Mac};
use sea_orm::sea_query::Expr;
use sea_orm::{ColumnTrait, EntityTrait, PaginatorTrait, QueryFilter};
use serde_json::{Value, json};
use sha2::Sha256;

use crate::helpers::{Reply, TestApp, spawn_app, spawn_app_with};

/// How a receiver answers one request.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Then {
    Status(u16),
    /// Never answers.
    Hang,
}

/// One request a receiver got.
#[derive(Debug, Clone)]
pub(crate) struct Got {
    method: String,
    path: String,
    headers: HashMap<String, String>,
    body: String,
}

impl Got {
    pub(crate) fn json(&self) -> Value {
        serde_json::from_str(&self.body).expect("json body")
    }
    pub(crate) fn header(&self, name: &str) -> &str {
        self.headers
            .get(name)
            .map(String::as_str)
            .unwrap_or_else(|| panic!("no {name} header: {:?}", self.headers))
    }
}

/// A local HTTP server standing in for an owner's endpoint: answers from
/// its script, then with `then`, and keeps every request it got.
#[derive(Clone)]
pub(crate) struct Receiver {
    pub(crate) url: String,
    got: Arc<Mutex<Vec<Got>>>,
    script: Arc<Mutex<VecDeque<Then>>>,
    then: Arc<Mutex<Then>>,
    running: Arc<AtomicUsize>,
    most_at_once: Arc<AtomicUsize>,
}

impl Receiver {
    pub(crate) async fn start(script: &[Then], then: Then) -> Self {
        use actix_web::{App, HttpRequest, HttpResponse, HttpServer, web};
        let listener = std::net::TcpListener::bind("127.0.0.1:0").expect("bind");
        let url = format!(
            "http://{}/hooks/convertassist",
            listener.local_addr().expect("addr")
        );
        let r = Receiver {
            url,
            got: Arc::default(),
            script: Arc::new(Mutex::new(script.iter().copied().collect())),
            then: Arc::new(Mutex::new(then)),
            running: Arc::default(),
            most_at_once: Arc::default(),
        };
        let shared = r.clone();
        let server = HttpServer::new(move || {
            let r = shared.clone();
            App::new().default_service(web::to(move |req: HttpRequest, body: web::Bytes| {
                let r = r.clone();
                async move {
                    let now = r.running.fetch_add(1, Ordering::SeqCst) + 1;
                    r.most_at_once.fetch_max(now, Ordering::SeqCst);
                    r.got.lock().expect("lock").push(Got {
                        method: req.method().to_string(),
                        path: req.uri().to_string(),
                        headers: req
                            .headers()
                            .iter()
                            .map(|(k, v)| {
                                (k.as_str().to_string(), v.to_str().unwrap_or("").to_string())
                            })
                            .collect(),
                        body: String::from_utf8_lossy(&body).into_owned(),
                    });
                    let then = r
                        .script
                        .lock()
                        .expect("lock")
                        .pop_front()
                        .unwrap_or(*r.then.lock().expect("lock"));
                    let answer = match then {
                        Then::Status(code) => HttpResponse::build(
                            actix_web::http::StatusCode::from_u16(code).expect("code"),
                        )
                        .body(format!("answered {code}")),
                        Then::Hang => {
                            tokio::time::sleep(Duration::from_secs(3600)).await;
                            HttpResponse::Ok().finish()
                        }
                    };
                    r.running.fetch_sub(1, Ordering::SeqCst);
                    answer
                }
            }))
        })
        .listen(listener)
        .expect("listen")
        .workers(1)
        .disable_signals()
        .run();
        tokio::spawn(server);
        r
    }

    fn got(&self) -> Vec<Got> {
        self.got.lock().expect("lock").clone()
    }

    fn answer_from_now(&self, then: Then) {
        *self.then.lock().expect("lock") = then;
    }

    /// Waits until the receiver got at least `n` requests (at most `secs`).
    pub(crate) async fn wait_for(&self, n: usize, secs: u64) -> Vec<Got> {
        let deadline = Instant::now() + Duration::from_secs(secs);
        loop {
            let got = self.got();
            if got.len() >= n {
                return got;
            }
            assert!(
                Instant::now() < deadline,
                "the receiver got {} of {n} requests in {secs} s",
                got.len()
            );
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    }
}

/// Verifies a Standard Webhooks signature header the way the
/// specification's libraries do: HMAC-SHA256 of `{id}.{timestamp}.{body}`
/// with the base64-decoded secret (after `whsec_`); any one `v1,` entry of
/// the space-separated list may match. Answers how many entries matched.
pub(crate) fn verified_by(secret: &str, got: &Got) -> usize {
    let key = base64::engine::general_purpose::STANDARD
        .decode(secret.strip_prefix("whsec_").expect("whsec_ prefix"))
        .expect("base64 secret");
    let id = got.header("webhook-id");
    let ts = got.header("webhook-timestamp");
    let mut mac = Hmac::<Sha256>::new_from_slice(&key).expect("key");
    mac.update(format!("{id}.{ts}.{}", got.body).as_bytes());
    let expected = base64::engine::general_purpose::STANDARD.encode(mac.finalize().into_bytes());
    got.header("webhook-signature")
        .split(' ')
        .filter(|s| s.strip_prefix("v1,") == Some(expected.as_str()))
        .count()
}

pub(crate) async fn owner_with_campaign(app: &TestApp, email: &str) -> (String, String) {
    let (token, _) = app.register(email, "secret1").await;
    let created = app
        .send(
            "POST",
            "/api/campaigns",
            Some(&token),
            json!({
                "name": "Diwali exit offer",
                "websiteUrl": "https://www.kesar.example.in",
                "settings": {"forms": {"conversionForms": [{
                    "id": "newsletter", "name": "Saree lookbook", "type": "lead_magnet",
                    "title": "Get our lookbook", "buttonText": "Send it",
                    "successMessage": "The lookbook is on its way!",
                    "isDefault": true, "active": true,
                    "fields": [
                        {"name": "name", "label": "Name", "type": "text", "required": false},
                        {"name": "email", "label": "Email", "type": "email", "required": true},
                        {"name": "phone", "label": "Phone", "type": "phone", "required": false}
                    ]
                }]}}
            }),
        )
        .await;
    assert_eq!(created.status, 201, "{}", created.body);
    let id = created.body["campaign"]["_id"]
        .as_str()
        .expect("id")
        .to_string();
    (token, id)
}

pub(crate) async fn add_endpoint(app: &TestApp, token: &str, body: Value) -> Value {
    let added = app
        .send("POST", "/api/webhooks/endpoints", Some(token), body)
        .await;
    assert_eq!(added.status, 201, "{}", added.body);
    added.body["data"].clone()
}

/// Rotates endpoint `id`'s signing secret; answers the new secret and until
/// when the old one still signs.
pub(crate) async fn rotate_secret(app: &TestApp, token: &str, id: &str) -> Value {
    let rotated = app
        .send(
            "POST",
            &format!("/api/webhooks/endpoints/{id}/rotate-secret"),
            Some(token),
            json!({}),
        )
        .await;
    assert_eq!(rotated.status, 200, "{}", rotated.body);
    rotated.body["data"].clone()
}

/// A visitor of `campaign` leaves `email` through the popup's form.
pub(crate) async fn lead(app: &TestApp, campaign: &str, visitor: &str, email: &str) -> String {
    let started = app
        .post(
            "/api/widget/conversations",
            json!({"campaignId": campaign, "visitorId": visitor,
                   "userContext": {"deviceType": "desktop", "currentUrl": "https://www.kesar.example.in/sarees/silk"}}),
        )
        .await;
    assert_eq!(started.status, 201, "{}", started.body);
    let conversation = started.body["conversationId"]
        .as_str()
        .expect("id")
        .to_string();
    let sent = app
        .post(
            &format!("/api/widget/conversations/{conversation}/forms"),
            json!({"formId": "newsletter", "values": {"email": email, "name": "Meera Iyer", "phone": "+91 98765 43210"}}),
        )
        .await;
    assert_eq!(sent.status, 200, "{}", sent.body);
    conversation
}

async fn log(app: &TestApp, token: &str, endpoint: Option<&str>) -> Vec<Value> {
    let path = match endpoint {
        Some(e) => format!("/api/webhooks/deliveries?endpointId={e}&limit=100"),
        None => "/api/webhooks/deliveries?limit=100".to_string(),
    };
    let reply = app.get(&path, Some(token)).await;
    assert_eq!(reply.status, 200, "{}", reply.body);
    reply.body["data"].as_array().expect("data").clone()
}

/// Waits until the endpoint's log has an attempt with `status`.
async fn logged(app: &TestApp, token: &str, endpoint: &str, status: &str, secs: u64) -> Vec<Value> {
    let deadline = Instant::now() + Duration::from_secs(secs);
    loop {
        let rows = log(app, token, Some(endpoint)).await;
        if rows.iter().any(|r| r["status"] == status) {
            return rows;
        }
        assert!(
            Instant::now() < deadline,
            "no {status} attempt in {secs} s: {rows:?}"
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

#[tokio::test]
async fn a_lead_through_the_widget_is_one_signed_lead_created_delivery() {
    let app = spawn_app().await;
    let receiver = Receiver::start(&[], Then::Status(204)).await;
    let (token, campaign) = owner_with_campaign(&app, "hooks@example.in").await;
    let t = Some(token.as_str());
    let endpoint = add_endpoint(
        &app,
        &token,
        json!({"url": receiver.url, "description": "CRM", "eventTypes": ["lead.created"], "enabled": true}),
    )
    .await;
    let secret = endpoint["secret"].as_str().expect("secret").to_string();
    assert!(secret.starts_with("whsec_"), "{secret}");
    assert_eq!(
        base64::engine::general_purpose::STANDARD
            .decode(&secret["whsec_".len()..])
            .expect("base64")
            .len(),
        32
    );
    let id = endpoint["id"].as_str().expect("id").to_string();
    // Only the answer that creates it carries the secret.
    let listed = app.get("/api/webhooks/endpoints", t).await;
    assert_eq!(listed.body["data"][0]["id"], id.as_str());
    assert!(
        listed.body["data"][0].get("secret").is_none(),
        "{}",
        listed.body
    );
    assert_eq!(
        listed.body["data"][0]["eventTypes"],
        json!(["lead.created"])
    );

    let conversation = lead(&app, &campaign, "v_hook_visitor_01", "Meera@Example.IN").await;
    let got = receiver.wait_for(1, 10).await;
    // Nothing more arrives: exactly one delivery.
    tokio::time::sleep(Duration::from_millis(1500)).await;
    let got = if receiver.got().len() == got.len() {
        got
    } else {
        receiver.got()
    };
    assert_eq!(got.len(), 1, "{got:?}");
    let first = &got[0];
    assert_eq!(first.method, "POST");
    assert_eq!(first.path, "/hooks/convertassist");
    assert_eq!(first.header("content-type"), "application/json");
    assert_eq!(verified_by(&secret, first), 1, "the signature verifies");
    let ts: i64 = first.header("webhook-timestamp").parse().expect("seconds");
    assert!((Utc::now().timestamp() - ts).abs() < 30);
    let payload = first.json();
    assert_eq!(payload["type"], "lead.created");
    assert_eq!(payload["id"], first.header("webhook-id"));
    assert!(payload["timestamp"].as_str().is_some());
    let data = &payload["data"];
    assert_eq!(data["customer"]["email"], "meera@example.in");
    assert_eq!(data["customer"]["name"], "Meera Iyer");
    assert_eq!(data["customer"]["status"], "lead");
    assert_eq!(data["fields"]["phone"], "+91 98765 43210");
    assert_eq!(
        data["campaign"],
        json!({"id": campaign, "name": "Diwali exit offer"})
    );
    assert_eq!(data["pageUrl"], "https://www.kesar.example.in/sarees/silk");
    assert_eq!(data["conversationId"], conversation.as_str());

    // The log shows it delivered on the first attempt.
    let rows = logged(&app, &token, &id, "delivered", 5).await;
    assert_eq!(rows.len(), 1, "{rows:?}");
    let row = &rows[0];
    assert_eq!(row["eventType"], "lead.created");
    assert_eq!(row["eventId"], first.header("webhook-id"));
    assert_eq!(row["endpointId"], id.as_str());
    assert_eq!(row["attempt"], 1);
    assert_eq!(row["responseStatus"], 204);
    assert!(row["durationMs"].as_i64().expect("ms") >= 0);
    assert!(row["nextAttemptAt"].is_null());

    // Resend: the same event again, the same webhook-id, attempt 2.
    let resent = app
        .send(
            "POST",
            &format!(
                "/api/webhooks/deliveries/{}/resend",
                row["id"].as_str().expect("id")
            ),
            t,
            json!({}),
        )
        .await;
    assert_eq!(resent.status, 200, "{}", resent.body);
    let got = receiver.wait_for(2, 10).await;
    assert_eq!(got[1].header("webhook-id"), first.header("webhook-id"));
    assert_eq!(got[1].body, first.body, "the same payload");
    // The attempt is logged once its answer is read, just after the receiver has it.
    let deadline = Instant::now() + Duration::from_secs(5);
    let rows = loop {
        let rows = log(&app, &token, Some(&id)).await;
        if rows.len() >= 2 || Instant::now() > deadline {
            break rows;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    };
    assert_eq!(rows.len(), 2, "{rows:?}");
    assert_eq!(rows[0]["attempt"], 2, "newest first");

    // Another owner sees none of it and cannot resend it.
    let (other, _) = owner_with_campaign(&app, "stranger@example.in").await;
    assert!(log(&app, &other, None).await.is_empty());
    app.send(
        "POST",
        &format!(
            "/api/webhooks/deliveries/{}/resend",
            row["id"].as_str().expect("id")
        ),
        Some(&other),
        json!({}),
    )
    .await
    .error(404, "delivery_not_found");
    for (method, path) in [
        ("PUT", format!("/api/webhooks/endpoints/{id}")),
        ("DELETE", format!("/api/webhooks/endpoints/{id}")),
        (
            "POST",
            format!("/api/webhooks/endpoints/{id}/rotate-secret"),
        ),
        ("POST", format!("/api/webhooks/endpoints/{id}/test")),
    ] {
        app.send(
            method,
            &path,
            Some(&other),
            json!({"description": "mine now"}),
        )
        .await
        .error(404, "endpoint_not_found");
    }
    app.get(
        &format!("/api/webhooks/endpoints/{id}/secret"),
        Some(&other),
    )
    .await
    .error(404, "endpoint_not_found");
    // Without a session, nothing.
    app.get("/api/webhooks/endpoints", None)
        .await
        .error(401, "missing_token");
}

#[tokio::test]
async fn a_500_is_tried_again_and_a_400_is_not() {
    let app = spawn_app().await;
    let flaky = Receiver::start(&[Then::Status(500)], Then::Status(200)).await;
    let refusing = Receiver::start(&[], Then::Status(400)).await;
    let (token, campaign) = owner_with_campaign(&app, "retries@example.in").await;
    let both = json!(["lead.created"]);
    let flaky_id = add_endpoint(&app, &token, json!({"url": flaky.url, "eventTypes": both})).await
        ["id"]
        .as_str()
        .expect("id")
        .to_string();
    let refusing_id = add_endpoint(
        &app,
        &token,
        json!({"url": refusing.url, "eventTypes": both}),
    )
    .await["id"]
        .as_str()
        .expect("id")
        .to_string();
    lead(&app, &campaign, "v_retry_visitor_01", "asha@example.in").await;

    // 500 first: logged as pending with its next try 5 s later.
    let rows = logged(&app, &token, &flaky_id, "pending", 10).await;
    assert_eq!(rows[0]["attempt"], 1);
    assert_eq!(rows[0]["responseStatus"], 500);
    assert_eq!(rows[0]["responseExcerpt"], "answered 500");
    let next =
        chrono::DateTime::parse_from_rfc3339(rows[0]["nextAttemptAt"].as_str().expect("next"))
            .expect("date");
    let created = chrono::DateTime::parse_from_rfc3339(rows[0]["createdAt"].as_str().expect("at"))
        .expect("date");
    assert_eq!(
        (next - created).num_seconds(),
        5,
        "the first retry is 5 s later"
    );
    // Then 200: delivered on attempt 2, the same event.
    let got = flaky.wait_for(2, 15).await;
    assert_eq!(got[0].header("webhook-id"), got[1].header("webhook-id"));
    let rows = logged(&app, &token, &flaky_id, "delivered", 5).await;
    assert_eq!(rows.len(), 2, "{rows:?}");
    assert_eq!(
        (rows[0]["status"].as_str(), rows[0]["attempt"].as_i64()),
        (Some("delivered"), Some(2))
    );

    // 400: failed, never tried again.
    let rows = log(&app, &token, Some(&refusing_id)).await;
    assert_eq!(rows.len(), 1, "{rows:?}");
    assert_eq!(rows[0]["status"], "failed");
    assert_eq!(rows[0]["responseStatus"], 400);
    assert!(rows[0]["nextAttemptAt"].is_null());
    assert_eq!(refusing.got().len(), 1);
    let d = delivery::Entity::find()
        .filter(delivery::Column::EndpointId.eq(&refusing_id))
        .one(&app.db.conn)
        .await
        .expect("q")
        .expect("delivery");
    assert_eq!((d.status.as_str(), d.next_attempt_at), ("failed", None));
}

/// "Resend" gives a delivery its whole retry schedule again: resent after
/// its last scheduled attempt, a moment's failure is still retried.
#[tokio::test]
async fn a_resent_delivery_is_retried_on_a_fresh_schedule() {
    let app = spawn_app().await;
    // Refused at first (given up at once); after the resend a 500, then 200.
    let receiver =
        Receiver::start(&[Then::Status(400), Then::Status(500)], Then::Status(200)).await;
    let (token, campaign) = owner_with_campaign(&app, "resend-schedule@example.in").await;
    let id = add_endpoint(
        &app,
        &token,
        json!({"url": receiver.url, "eventTypes": ["lead.created"]}),
    )
    .await["id"]
        .as_str()
        .expect("id")
        .to_string();
    lead(&app, &campaign, "v_resend_schedule_1", "resend@example.in").await;
    let rows = logged(&app, &token, &id, "failed", 10).await;
    // As if that had been the last attempt of the schedule (the eighth).
    delivery::Entity::update_many()
        .col_expr(delivery::Column::Attempts, Expr::value(8))
        .filter(delivery::Column::EndpointId.eq(&id))
        .exec(&app.db.conn)
        .await
        .expect("update");
    let resent = app
        .send(
            "POST",
            &format!(
                "/api/webhooks/deliveries/{}/resend",
                rows[0]["id"].as_str().expect("id")
            ),
            Some(&token),
            json!({}),
        )
        .await;
    assert_eq!(resent.status, 200, "{}", resent.body);
    // The resent attempt answers 500: it waits for its first retry, 5 s.
    let rows = logged(&app, &token, &id, "pending", 10).await;
    let row = rows.iter().find(|r| r["status"] == "pending").expect("row");
    assert_eq!(row["attempt"], 9);
    let at =
        |k: &str| chrono::DateTime::parse_from_rfc3339(row[k].as_str().expect(k)).expect("date");
    assert_eq!((at("nextAttemptAt") - at("createdAt")).num_seconds(), 5);
    let rows = logged(&app, &token, &id, "delivered", 15).await;
    assert_eq!(rows[0]["attempt"], 10, "{rows:?}");
    assert_eq!(receiver.got().len(), 3);
}

#[tokio::test]
async fn a_hanging_receiver_holds_only_its_own_deliveries() {
    let app = spawn_app().await;
    let hanging = Receiver::start(&[], Then::Hang).await;
    let quick = Receiver::start(&[], Then::Status(200)).await;
    let (token, campaign) = owner_with_campaign(&app, "slow@example.in").await;
    let types = json!(["lead.created"]);
    add_endpoint(
        &app,
        &token,
        json!({"url": hanging.url, "eventTypes": types}),
    )
    .await;
    add_endpoint(&app, &token, json!({"url": quick.url, "eventTypes": types})).await;
    let started = Instant::now();
    for i in 0..8 {
        lead(
            &app,
            &campaign,
            &format!("v_slow_visitor_{i:02}"),
            &format!("lead{i}@example.in"),
        )
        .await;
    }
    // Every lead reaches the quick receiver while the other hangs (its
    // answer is awaited for 10 s).
    quick.wait_for(8, 8).await;
    assert!(
        started.elapsed() < Duration::from_secs(9),
        "the quick endpoint waited for the hanging one"
    );
    let ids: std::collections::HashSet<String> = quick
        .got()
        .iter()
        .map(|g| g.header("webhook-id").to_string())
        .collect();
    assert_eq!(ids.len(), 8, "eight events, each once");
    // The hanging endpoint has at most 4 deliveries in flight at once.
    hanging.wait_for(4, 5).await;
    tokio::time::sleep(Duration::from_millis(1500)).await;
    assert_eq!(hanging.most_at_once.load(Ordering::SeqCst), 4);
    assert_eq!(hanging.got().len(), 4, "the rest wait for a free slot");
}

#[tokio::test]
async fn a_backlog_for_a_hanging_endpoint_hides_no_other_endpoints_deliveries() {
    let app = spawn_app().await;
    let hanging = Receiver::start(&[], Then::Hang).await;
    let quick = Receiver::start(&[], Then::Status(200)).await;
    let (token, campaign) = owner_with_campaign(&app, "backlog@example.in").await;
    let types = json!(["lead.created"]);
    let a = add_endpoint(
        &app,
        &token,
        json!({"url": hanging.url, "eventTypes": types}),
    )
    .await;
    let owner = endpoint::Entity::find_by_id(a["id"].as_str().expect("id").to_string())
        .one(&app.db.conn)
        .await
        .expect("q")
        .expect("endpoint")
        .owner_id;
    // More queued for the hanging endpoint than the sender reads in one
    // round (as after it was down for a while), all older than what follows.
    let txn = sea_orm::TransactionTrait::begin(&app.db.conn)
        .await
        .expect("begin");
    for i in 0..250 {
        let event = ca_webhooks::Event::LeadCreated(ca_webhooks::events::LeadCreated {
            customer: ca_webhooks::events::CustomerData {
                id: format!("c_backlog_{i}"),
                email: format!("backlog.{i}@example.in"),
                name: None,
                phone: None,
                company: None,
                status: "lead".into(),
                lead_score: 10,
            },
            fields: serde_json::Map::new(),
            campaign: ca_webhooks::events::CampaignRef {
                id: campaign.clone(),
                name: "Diwali exit offer".into(),
            },
            page_url: None,
            conversation_id: None,
        });
        ca_webhooks::enqueue(
            &txn,
            &owner,
            event,
            Utc::now() - chrono::Duration::minutes(5),
        )
        .await
        .expect("enqueue");
    }
    txn.commit().await.expect("commit");
    add_endpoint(&app, &token, json!({"url": quick.url, "eventTypes": types})).await;
    lead(&app, &campaign, "v_after_the_backlog", "fresh@example.in").await;
    // The quick endpoint gets its lead while the hanging one holds its four
    // slots (each waits 10 s for an answer) with 247 more queued behind.
    quick.wait_for(1, 8).await;
    assert_eq!(
        quick.got()[0].json()["data"]["customer"]["email"],
        "fresh@example.in"
    );
}

#[tokio::test]
async fn a_server_killed_before_delivering_delivers_after_restart_with_the_same_id() {
    let db = ca_migrations::testing::TestDb::new().await.expect("db");
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .expect("bind")
        .local_addr()
        .expect("addr")
        .port();
    let base = format!("http://127.0.0.1:{port}");
    let data = std::env::temp_dir().join(format!("ca-it-hook-kill-{}", uuid::Uuid::now_v7()));
    // The receiver takes the first request and never answers it.
    let receiver = Receiver::start(&[Then::Hang], Then::Status(200)).await;
    let mut child = crate::tracking::start_server(&db.url, &data, port).await;
    let client = reqwest::Client::new();
    let reg: Value = client
        .post(format!("{base}/api/auth/register"))
        .json(&json!({"name": "Kill Test", "email": "hook-kill@example.in", "password": "secret1", "phone": "+91 9876543210"}))
        .send()
        .await
        .expect("register")
        .json()
        .await
        .expect("json");
    let token = reg["token"].as_str().expect("token").to_string();
    let post = |path: &str, body: Value, auth: bool| {
        let mut req = client.post(format!("{base}{path}")).json(&body);
        if auth {
            req = req.bearer_auth(&token);
        }
        async move {
            let res = req.send().await.expect("send");
            let status = res.status().as_u16();
            let body: Value = res.json().await.expect("json");
            (status, body)
        }
    };
    let (_, created) = post(
        "/api/campaigns",
        json!({"name": "Kill", "websiteUrl": "https://www.kesar.example.in"}),
        true,
    )
    .await;
    let campaign = created["campaign"]["_id"].as_str().expect("id").to_string();
    let (status, _) = post(
        "/api/webhooks/endpoints",
        json!({"url": receiver.url, "eventTypes": ["lead.created"]}),
        true,
    )
    .await;
    assert_eq!(status, 201);
    let (_, started) = post(
        "/api/widget/conversations",
        json!({"campaignId": campaign, "visitorId": "v_kill_hook_0001"}),
        false,
    )
    .await;
    let conversation = started["conversationId"].as_str().expect("id").to_string();
    let (status, _) = post(
        &format!("/api/widget/conversations/{conversation}/forms"),
        json!({"values": {"email": "killed@example.in"}}),
        false,
    )
    .await;
    assert_eq!(status, 200, "the lead is committed");
    // The delivery is on its way; the server dies before it is answered.
    let got = receiver.wait_for(1, 10).await;
    child.kill().expect("SIGKILL");
    let _ = child.wait();
    let pending = delivery::Entity::find()
        .one(&db.conn)
        .await
        .expect("q")
        .expect("the delivery survives");
    assert_eq!(pending.status, "pending");

    let mut again = crate::tracking::start_server(&db.url, &data, port).await;
    // Once the claim of the killed server lapses (the longest wait for an
    // answer and a margin), the new server sends it again.
    let got_again = receiver.wait_for(2, 40).await;
    again.kill().expect("SIGKILL");
    let _ = again.wait();
    assert_eq!(
        got_again[1].header("webhook-id"),
        got[0].header("webhook-id")
    );
    assert_eq!(got_again[1].body, got[0].body);
    assert_eq!(
        got_again[1].json()["data"]["customer"]["email"],
        "killed@example.in"
    );
    let _ = std::fs::remove_dir_all(data);
}

#[tokio::test]
async fn destinations_inside_the_servers_network_are_refused_in_production() {
    let app = spawn_app_with(|c| c.webhooks_allow_private = false).await;
    let receiver = Receiver::start(&[], Then::Status(200)).await;
    let (token, campaign) = owner_with_campaign(&app, "ssrf@example.in").await;
    let t = Some(token.as_str());
    for url in [
        "https://127.0.0.1/hook",
        "https://10.1.2.3/hook",
        "https://169.254.169.254/latest/meta-data/",
        "https://[::1]/hook",
        "https://localhost:8443/hook",
        "http://127.0.0.1:9/hook",
        receiver.url.as_str(),
    ] {
        let refused = app
            .send(
                "POST",
                "/api/webhooks/endpoints",
                t,
                json!({"url": url, "eventTypes": ["lead.created"]}),
            )
            .await;
        let message = refused.error(400, "validation_failed");
        assert!(message.contains("own network"), "{url}: {message}");
        assert!(refused.body["errors"]["url"].is_array(), "{}", refused.body);
    }
    app.send(
        "POST",
        "/api/webhooks/endpoints",
        t,
        json!({"url": "http://hooks.example.in/lead", "eventTypes": ["lead.created"]}),
    )
    .await
    .error(400, "validation_failed");
    assert_eq!(
        endpoint::Entity::find()
            .count(&app.db.conn)
            .await
            .expect("count"),
        0,
        "refused endpoints store nothing"
    );

    // A name that resolves to this machine is refused when delivering: it
    // is never connected to.
    let added = add_endpoint(
        &app,
        &token,
        json!({"url": "https://hooks.example.in/lead", "eventTypes": ["lead.created"]}),
    )
    .await;
    let id = added["id"].as_str().expect("id").to_string();
    let port = receiver
        .url
        .split(':')
        .nth(2)
        .expect("port")
        .split('/')
        .next()
        .expect("port");
    endpoint::Entity::update_many()
        .col_expr(
            endpoint::Column::Url,
            Expr::value(format!("http://localhost:{port}/hooks/convertassist")),
        )
        .filter(endpoint::Column::Id.eq(&id))
        .exec(&app.db.conn)
        .await
        .expect("as if the name now resolved to this machine");
    lead(&app, &campaign, "v_ssrf_visitor_01", "ssrf-lead@example.in").await;
    let rows = logged(&app, &token, &id, "failed", 10).await;
    assert!(
        rows[0]["responseExcerpt"]
            .as_str()
            .expect("why")
            .contains("own network"),
        "{rows:?}"
    );
    assert!(rows[0]["nextAttemptAt"].is_null(), "not tried again");
    assert!(receiver.got().is_empty(), "nothing reached the address");
}

#[tokio::test]
async fn during_a_rotation_both_secrets_sign() {
    let app = spawn_app().await;
    let receiver = Receiver::start(&[], Then::Status(200)).await;
    let (token, _) = owner_with_campaign(&app, "rotate@example.in").await;
    let t = Some(token.as_str());
    let added = add_endpoint(
        &app,
        &token,
        json!({"url": receiver.url, "eventTypes": ["lead.created", "lead.updated"]}),
    )
    .await;
    let id = added["id"].as_str().expect("id").to_string();
    let old = added["secret"].as_str().expect("secret").to_string();
    let revealed = app
        .get(&format!("/api/webhooks/endpoints/{id}/secret"), t)
        .await;
    assert_eq!(revealed.body["data"]["secret"], old.as_str());

    let rotated = rotate_secret(&app, &token, &id).await;
    let new = rotated["secret"].as_str().expect("secret").to_string();
    assert_ne!(new, old);
    let until = chrono::DateTime::parse_from_rfc3339(
        rotated["previousSecretExpiresAt"].as_str().expect("until"),
    )
    .expect("date");
    let hours = (until.with_timezone(&Utc) - Utc::now()).num_minutes();
    assert!(
        (23 * 60..=24 * 60).contains(&hours),
        "{hours} minutes of overlap"
    );
    assert_eq!(
        app.get(&format!("/api/webhooks/endpoints/{id}/secret"), t)
            .await
            .body["data"]["secret"],
        new.as_str()
    );

    let test = app
        .send(
            "POST",
            &format!("/api/webhooks/endpoints/{id}/test"),
            t,
            json!({}),
        )
        .await;
    assert_eq!(test.status, 200, "{}", test.body);
    let got = receiver.wait_for(1, 10).await;
    assert_eq!(got[0].json()["type"], "webhook.test");
    assert_eq!(got[0].header("webhook-id"), test.body["data"]["eventId"]);
    assert_eq!(got[0].header("webhook-signature").split(' ').count(), 2);
    assert_eq!(verified_by(&new, &got[0]), 1, "the new secret signs");
    assert_eq!(verified_by(&old, &got[0]), 1, "and the old one still does");

    // Once the overlap is over, only the new secret signs.
    endpoint::Entity::update_many()
        .col_expr(
            endpoint::Column::PreviousSecretExpiresAt,
            Expr::value(Some(Utc::now() - chrono::Duration::seconds(1))),
        )
        .filter(endpoint::Column::Id.eq(&id))
        .exec(&app.db.conn)
        .await
        .expect("update");
    app.send(
        "POST",
        &format!("/api/webhooks/endpoints/{id}/test"),
        t,
        json!({}),
    )
    .await;
    let got = receiver.wait_for(2, 10).await;
    assert_eq!(got[1].header("webhook-signature").split(' ').count(), 1);
    assert_eq!(verified_by(&new, &got[1]), 1);
    assert_eq!(verified_by(&old, &got[1]), 0);
}

#[tokio::test]
async fn endpoints_are_checked_when_saved_and_changes_keep_what_is_stored() {
    let app = spawn_app().await;
    let (token, _) = owner_with_campaign(&app, "checks@example.in").await;
    let t = Some(token.as_str());
    for (body, field) in [
        (json!({"eventTypes": ["lead.created"]}), "url"),
        (
            json!({"url": "https://hooks.example.in/x", "eventTypes": []}),
            "eventTypes",
        ),
        (json!({"url": "https://hooks.example.in/x"}), "eventTypes"),
        (
            json!({"url": "https://hooks.example.in/x", "eventTypes": ["webhook.test"]}),
            "eventTypes",
        ),
        (
            json!({"url": "ftp://hooks.example.in/x", "eventTypes": ["lead.created"]}),
            "url",
        ),
        (
            json!({"url": format!("https://hooks.example.in/{}", "x".repeat(2100)), "eventTypes": ["lead.created"]}),
            "url",
        ),
        (
            json!({"url": "https://hooks.example.in/x", "eventTypes": ["lead.created"], "description": "d".repeat(201)}),
            "description",
        ),
        (
            json!({"kind": "zapier", "url": "https://hooks.example.in/x", "eventTypes": ["lead.created"]}),
            "kind",
        ),
        (
            json!({"kind": "mailchimp", "apiKey": "nodatacentre", "listId": "abc123"}),
            "apiKey",
        ),
        (
            json!({"kind": "mailchimp", "apiKey": "abc-us21", "listId": "../../x"}),
            "listId",
        ),
    ] {
        let refused = app
            .send("POST", "/api/webhooks/endpoints", t, body.clone())
            .await;
        refused.error(400, "validation_failed");
        assert!(
            refused.body["errors"][field].is_array(),
            "{body}: {}",
            refused.body
        );
    }
    // An unknown event type is not a type at all.
    app.send(
        "POST",
        "/api/webhooks/endpoints",
        t,
        json!({"url": "https://hooks.example.in/x", "eventTypes": ["lead.deleted"]}),
    )
    .await
    .error(400, "malformed_json");
    assert_eq!(
        endpoint::Entity::find()
            .count(&app.db.conn)
            .await
            .expect("n"),
        0
    );

    let added = add_endpoint(
        &app,
        &token,
        json!({"url": "https://hooks.example.in/crm", "description": "CRM", "eventTypes": ["lead.created", "lead.created", "purchase.attributed"]}),
    )
    .await;
    assert_eq!(
        added["eventTypes"],
        json!(["lead.created", "purchase.attributed"])
    );
    assert_eq!(added["enabled"], true);
    let id = added["id"].as_str().expect("id");
    // A bad change changes nothing.
    app.send(
        "PUT",
        &format!("/api/webhooks/endpoints/{id}"),
        t,
        json!({"url": "ftp://hooks.example.in/x", "description": "changed"}),
    )
    .await
    .error(400, "validation_failed");
    // A partial change keeps the rest.
    let changed = app
        .send(
            "PUT",
            &format!("/api/webhooks/endpoints/{id}"),
            t,
            json!({"enabled": false}),
        )
        .await;
    assert_eq!(changed.status, 200, "{}", changed.body);
    assert_eq!(changed.body["data"]["enabled"], false);
    assert_eq!(changed.body["data"]["description"], "CRM");
    assert_eq!(changed.body["data"]["url"], "https://hooks.example.in/crm");
    assert!(changed.body["data"].get("secret").is_none());
    let deleted = app
        .send(
            "DELETE",
            &format!("/api/webhooks/endpoints/{id}"),
            t,
            json!({}),
        )
        .await;
    assert_eq!(deleted.status, 200, "{}", deleted.body);
    assert!(
        app.get("/api/webhooks/endpoints", t).await.body["data"]
            .as_array()
            .expect("list")
            .is_empty()
    );
    // At most 20 endpoints.
    for i in 0..20 {
        add_endpoint(
            &app,
            &token,
            json!({"url": format!("https://hooks.example.in/{i}"), "eventTypes": ["lead.created"]}),
        )
        .await;
    }
    app.send(
        "POST",
        "/api/webhooks/endpoints",
        t,
        json!({"url": "https://hooks.example.in/21", "eventTypes": ["lead.created"]}),
    )
    .await
    .error(422, "too_many_endpoints");
}

#[tokio::test]
async fn leads_reach_a_mailchimp_audience_through_its_api() {
    let mailchimp = Receiver::start(&[], Then::Status(200)).await;
    let base = mailchimp
        .url
        .trim_end_matches("/hooks/convertassist")
        .to_string();
    let app = spawn_app_with(|c| c.mailchimp_api_url = format!("{base}/{{dc}}")).await;
    let (token, campaign) = owner_with_campaign(&app, "mailchimp@example.in").await;
    let t = Some(token.as_str());
    let added = add_endpoint(
        &app,
        &token,
        json!({"kind": "mailchimp", "apiKey": "0123456789abcdef0123456789abcdef-us21", "listId": "a1b2c3d4e5"}),
    )
    .await;
    assert_eq!(added["kind"], "mailchimp");
    assert_eq!(added["eventTypes"], json!(["lead.created", "lead.updated"]));
    assert!(
        added.get("secret").is_none(),
        "the owner's API key is never shown back"
    );
    assert!(
        !added
            .to_string()
            .contains("0123456789abcdef0123456789abcdef")
    );
    let id = added["id"].as_str().expect("id").to_string();
    // Kept sealed: a copy of the database does not give the owner's key away.
    let stored = endpoint::Entity::find_by_id(id.clone())
        .one(&app.db.conn)
        .await
        .expect("q")
        .expect("endpoint");
    assert!(stored.secret.starts_with("ca1."), "{}", stored.secret);
    assert!(!stored.secret.contains("0123456789abcdef"));

    lead(
        &app,
        &campaign,
        "v_mailchimp_visitor",
        "Meera.Iyer@Example.in",
    )
    .await;
    let got = mailchimp.wait_for(2, 10).await;
    let expected_hash = {
        use md5::Digest as _;
        hex::encode(md5::Md5::digest(b"meera.iyer@example.in"))
    };
    assert_eq!(got[0].method, "PUT");
    assert_eq!(
        got[0].path,
        format!("/us21/3.0/lists/a1b2c3d4e5/members/{expected_hash}"),
        "the key's data centre, the audience and the member's hash"
    );
    let auth = got[0].header("authorization");
    let decoded = base64::engine::general_purpose::STANDARD
        .decode(auth.strip_prefix("Basic ").expect("basic auth"))
        .expect("base64");
    assert_eq!(
        String::from_utf8(decoded).expect("utf8"),
        "convertassist:0123456789abcdef0123456789abcdef-us21"
    );
    let member = got[0].json();
    assert_eq!(member["email_address"], "meera.iyer@example.in");
    assert_eq!(member["status_if_new"], "subscribed");
    assert_eq!(
        member["merge_fields"],
        json!({"FNAME": "Meera", "PHONE": "+91 98765 43210"})
    );
    assert_eq!(got[1].method, "POST");
    assert_eq!(
        got[1].path,
        format!("/us21/3.0/lists/a1b2c3d4e5/members/{expected_hash}/tags")
    );
    assert_eq!(
        got[1].json(),
        json!({"tags": [{"name": "Diwali exit offer", "status": "active"}]})
    );
    logged(&app, &token, &id, "delivered", 5).await;

    // "Send test event" asks Mailchimp about the audience; a wrong key is
    // logged with Mailchimp's answer and not tried again.
    mailchimp.answer_from_now(Then::Status(401));
    app.send(
        "POST",
        &format!("/api/webhooks/endpoints/{id}/test"),
        t,
        json!({}),
    )
    .await;
    let got = mailchimp.wait_for(3, 10).await;
    assert_eq!(
        (got[2].method.as_str(), got[2].path.as_str()),
        ("GET", "/us21/3.0/lists/a1b2c3d4e5")
    );
    let rows = logged(&app, &token, &id, "failed", 5).await;
    assert_eq!(rows[0]["responseStatus"], 401);
    assert_eq!(rows[0]["eventType"], "webhook.test");
    // A Mailchimp push has no signing secret.
    app.get(&format!("/api/webhooks/endpoints/{id}/secret"), t)
        .await
        .error(400, "validation_failed");
}

#[tokio::test]
async fn an_endpoint_failing_for_five_days_is_switched_off_and_its_owner_emailed() {
    let app = spawn_app().await;
    let broken = Receiver::start(&[], Then::Status(503)).await;
    let (token, campaign) = owner_with_campaign(&app, "failing@example.in").await;
    let t = Some(token.as_str());
    let id = add_endpoint(
        &app,
        &token,
        json!({"url": broken.url, "eventTypes": ["lead.created"]}),
    )
    .await["id"]
        .as_str()
        .expect("id")
        .to_string();
    lead(&app, &campaign, "v_failing_visitor_1", "first@example.in").await;
    logged(&app, &token, &id, "pending", 10).await;
    let listed = app.get("/api/webhooks/endpoints", t).await;
    assert!(
        listed.body["data"][0]["failingSince"].is_string(),
        "{}",
        listed.body
    );
    assert_eq!(listed.body["data"][0]["enabled"], true);
    assert_eq!(app.outbox_count("failing@example.in").await, 0);

    // As if it had been failing for five days.
    endpoint::Entity::update_many()
        .col_expr(
            endpoint::Column::FailingSince,
            Expr::value(Some(
                Utc::now() - chrono::Duration::days(5) - chrono::Duration::minutes(1),
            )),
        )
        .filter(endpoint::Column::Id.eq(&id))
        .exec(&app.db.conn)
        .await
        .expect("update");
    lead(&app, &campaign, "v_failing_visitor_2", "second@example.in").await;
    let deadline = Instant::now() + Duration::from_secs(10);
    let off = loop {
        let e = endpoint::Entity::find_by_id(id.clone())
            .one(&app.db.conn)
            .await
            .expect("q")
            .expect("endpoint");
        if !e.enabled {
            break e;
        }
        assert!(Instant::now() < deadline, "not switched off");
        tokio::time::sleep(Duration::from_millis(100)).await;
    };
    assert!(
        off.disabled_reason
            .as_deref()
            .expect("reason")
            .contains("503"),
        "{off:?}"
    );
    let mails = ca_auth::mailer::outbox(&app.db.conn, Some("failing@example.in"), 10)
        .await
        .expect("outbox");
    assert_eq!(mails.len(), 1);
    assert_eq!(mails[0].subject, "Your webhook endpoint was switched off");
    assert!(mails[0].body.contains(&broken.url), "{}", mails[0].body);
    // Switched off, it gets no new events; switched back on, it does.
    let before = broken.got().len();
    lead(&app, &campaign, "v_failing_visitor_3", "third@example.in").await;
    tokio::time::sleep(Duration::from_millis(1500)).await;
    assert_eq!(broken.got().len(), before);
    broken.answer_from_now(Then::Status(200));
    let on = app
        .send(
            "PUT",
            &format!("/api/webhooks/endpoints/{id}"),
            t,
            json!({"enabled": true}),
        )
        .await;
    assert_eq!(on.body["data"]["enabled"], true, "{}", on.body);
    assert!(on.body["data"]["disabledReason"].is_null());
    lead(&app, &campaign, "v_failing_visitor_4", "fourth@example.in").await;
    let got = broken.wait_for(before + 1, 10).await;
    assert_eq!(
        got.last().expect("got").json()["data"]["customer"]["email"],
        "fourth@example.in"
    );
}

#[tokio::test]
async fn conversations_purchases_and_lead_changes_are_sent_to_who_asked() {
    let app = spawn_app_with(|c| c.conversation_idle_minutes = 1).await;
    let receiver = Receiver::start(&[], Then::Status(200)).await;
    let (token, campaign) = owner_with_campaign(&app, "events@example.in").await;
    let t = Some(token.as_str());
    add_endpoint(
        &app,
        &token,
        json!({"url": receiver.url, "eventTypes": ["lead.updated", "conversation.completed", "purchase.attributed"]}),
    )
    .await;
    // lead.created is not asked for: not sent.
    let conversation = lead(
        &app,
        &campaign,
        "v_events_visitor_1",
        "events-lead@example.in",
    )
    .await;
    // The visitor closes the popup: the conversation is complete.
    let dismissed = app
        .post(
            &format!("/api/widget/conversations/{conversation}/dismiss"),
            json!({}),
        )
        .await;
    assert!(dismissed.status.is_success(), "{}", dismissed.body);
    // The owner changes the customer's status.
    let customers = app.get("/api/customers/user", t).await;
    assert_eq!(customers.status, 200, "{}", customers.body);
    let customer = customers.body["customers"][0]["_id"]
        .as_str()
        .expect("id")
        .to_string();
    let changed = app
        .send(
            "PUT",
            &format!("/api/customers/{customer}"),
            t,
            json!({"status": "prospect"}),
        )
        .await;
    assert_eq!(changed.status, 200, "{}", changed.body);
    // The site reports a purchase by the same visitor.
    let bought = app
        .client
        .post(app.url("/api/widget/purchases"))
        .header("origin", "https://www.kesar.example.in")
        .json(&json!({"campaignId": campaign, "visitorId": "v_events_visitor_1", "orderId": "KS-1042", "value": 4999, "currency": "INR"}))
        .send()
        .await
        .expect("send");
    let bought = Reply::from(bought).await;
    assert!(bought.status.is_success(), "{}", bought.body);

    let got = receiver.wait_for(4, 10).await;
    tokio::time::sleep(Duration::from_millis(1000)).await;
    let got = if receiver.got().len() > got.len() {
        receiver.got()
    } else {
        got
    };
    let by_type: HashMap<String, Value> = got
        .iter()
        .map(|g| {
            (
                g.json()["type"].as_str().expect("type").to_string(),
                g.json(),
            )
        })
        .collect();
    assert_eq!(got.len(), 4, "{:?}", by_type.keys());
    assert!(!by_type.contains_key("lead.created"));
    let completed = &by_type["conversation.completed"]["data"];
    assert_eq!(completed["conversationId"], conversation.as_str());
    assert_eq!(completed["outcome"], "conversion");
    assert_eq!(
        completed["collectedData"]["email"],
        "events-lead@example.in"
    );
    assert!(
        completed["transcript"]
            .as_array()
            .expect("lines")
            .iter()
            .any(|l| l["role"] == "assistant")
    );
    // The owner's change, then the purchase that made the lead a customer.
    let mut updates: Vec<(String, String)> = got
        .iter()
        .map(|g| g.json())
        .filter(|e| e["type"] == "lead.updated")
        .map(|e| {
            (
                e["data"]["previousStatus"]
                    .as_str()
                    .expect("previous")
                    .to_string(),
                e["data"]["customer"]["status"]
                    .as_str()
                    .expect("status")
                    .to_string(),
            )
        })
        .collect();
    updates.sort();
    assert_eq!(
        updates,
        [
            ("lead".to_string(), "prospect".to_string()),
            ("prospect".to_string(), "customer".to_string())
        ]
    );
    let purchase = &by_type["purchase.attributed"]["data"];
    assert_eq!(purchase["orderId"], "KS-1042");
    assert_eq!(purchase["value"], 4999.0);
    assert_eq!(purchase["campaign"]["id"], campaign.as_str());
}

#[test]
fn the_api_document_describes_every_event_as_a_webhook() {
    let doc: Value = serde_json::from_str(
        &ca_server::openapi::to_pretty_json(&ca_server::openapi_document()).expect("json"),
    )
    .expect("parse");
    assert!(doc["openapi"].as_str().expect("version").starts_with("3.1"));
    for (kind, schema) in [
        ("lead.created", "LeadCreated"),
        ("lead.updated", "LeadUpdated"),
        ("conversation.completed", "ConversationCompleted"),
        ("purchase.attributed", "PurchaseAttributed"),
        ("campaign.limit_reached", "CampaignLimitReached"),
        ("webhook.test", "TestEvent"),
    ] {
        let body =
            &doc["webhooks"][kind]["post"]["requestBody"]["content"]["application/json"]["schema"];
        assert_eq!(body["properties"]["type"]["const"], kind);
        assert_eq!(
            body["properties"]["data"]["$ref"],
            format!("#/components/schemas/{schema}")
        );
        assert!(doc["components"]["schemas"][schema].is_object(), "{schema}");
    }
}

/// A `lead.created` event as the form's transaction reports it.
fn lead_event(i: usize) -> ca_webhooks::Event {
    use ca_webhooks::events::{CampaignRef, CustomerData, LeadCreated};
    ca_webhooks::Event::LeadCreated(LeadCreated {
        customer: CustomerData {
            id: format!("c_fan_{i}"),
            email: format!("fan.{i}@example.in"),
            name: Some("Meera Iyer".into()),
            phone: None,
            company: None,
            status: "lead".into(),
            lead_score: 10,
        },
        fields: serde_json::Map::new(),
        campaign: CampaignRef {
            id: "camp_fan".into(),
            name: "Diwali exit offer".into(),
        },
        page_url: None,
        conversation_id: None,
    })
}

#[tokio::test]
async fn the_request_path_stores_one_event_row_and_each_wanting_endpoint_gets_it_once() {
    use ca_webhooks::entities::event;
    let app = spawn_app().await;
    let receiver = Receiver::start(&[], Then::Status(200)).await;
    let (token, _) = app.register("fan@example.in", "secret1").await;
    let (_, bystander) = app.register("quiet@example.in", "secret1").await;
    let owner = app.get("/api/auth/me", Some(&token)).await.body["user"]["id"]
        .as_str()
        .expect("id")
        .to_string();
    let bystander = bystander["id"].as_str().expect("id").to_string();
    let mut wanting = Vec::new();
    for (types, enabled) in [
        (json!(["lead.created"]), true),
        (json!(["lead.updated", "lead.created"]), true),
        (json!(["purchase.attributed"]), true),
        (json!(["lead.created"]), false),
    ] {
        let e = add_endpoint(
            &app,
            &token,
            json!({"url": receiver.url, "eventTypes": types, "enabled": enabled}),
        )
        .await;
        if enabled && types.to_string().contains("lead.created") {
            wanting.push(e["id"].as_str().expect("id").to_string());
        }
    }
    wanting.sort();

    // In the form's transaction: one row, no delivery yet; nothing at all
    // for an owner without an endpoint that wants it.
    let conn = &app.db.conn;
    let txn = ca_core::db::begin_write(conn).await.expect("begin");
    let id = ca_webhooks::enqueue(&*txn, &owner, lead_event(0), Utc::now())
        .await
        .expect("enqueue")
        .expect("stored for an owner with an endpoint that wants it");
    let row = event::Entity::find_by_id(id.clone())
        .one(&*txn)
        .await
        .expect("read")
        .expect("row");
    assert!(!row.fanned_out);
    assert!(row.payload.contains(&id), "{}", row.payload);
    assert_eq!(
        delivery::Entity::find()
            .filter(delivery::Column::EventId.eq(&id))
            .count(&*txn)
            .await
            .expect("count"),
        0
    );
    assert_eq!(
        ca_webhooks::enqueue(&*txn, &bystander, lead_event(1), Utc::now())
            .await
            .expect("enqueue"),
        None
    );
    // Not wanted by any endpoint of this owner: nothing stored either.
    let limit =
        ca_webhooks::Event::CampaignLimitReached(ca_webhooks::events::CampaignLimitReached {
            visitors: 1000,
            limit: 1000,
            stop_at: 1100,
            reset_date: Utc::now(),
        });
    assert_eq!(
        ca_webhooks::enqueue(&*txn, &owner, limit, Utc::now())
            .await
            .expect("enqueue"),
        None
    );
    for i in 2..=60 {
        ca_webhooks::enqueue(&*txn, &owner, lead_event(i), Utc::now())
            .await
            .expect("enqueue")
            .expect("stored");
    }
    txn.commit().await.expect("commit");

    // Two more rounds at once beside the server's own worker, as on several
    // servers: each event gets each wanting endpoint exactly once.
    let (a, b) = tokio::join!(
        ca_webhooks::events::fan_out(conn, Utc::now()),
        ca_webhooks::events::fan_out(conn, Utc::now())
    );
    a.expect("fan out");
    b.expect("fan out");
    let deadline = Instant::now() + Duration::from_secs(20);
    loop {
        let left = event::Entity::find()
            .filter(event::Column::FannedOut.eq(false))
            .count(conn)
            .await
            .expect("count");
        if left == 0 {
            break;
        }
        assert!(Instant::now() < deadline, "{left} events never fanned out");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    assert_eq!(event::Entity::find().count(conn).await.expect("count"), 60);
    let deliveries = delivery::Entity::find().all(conn).await.expect("read");
    assert_eq!(deliveries.len(), 120, "two wanting endpoints × 60 events");
    let mut per_event: HashMap<String, Vec<String>> = HashMap::new();
    for d in deliveries {
        assert_eq!(d.owner_id, owner);
        per_event.entry(d.event_id).or_default().push(d.endpoint_id);
    }
    assert_eq!(per_event.len(), 60);
    for endpoints in per_event.values_mut() {
        endpoints.sort();
        assert_eq!(endpoints, &wanting);
    }
    // And they are sent.
    receiver.wait_for(120, 30).await;
}
