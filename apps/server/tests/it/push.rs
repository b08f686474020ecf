//! Browser push notifications against a local stand-in push service that
//! does what a real one and the browser do together: it checks the VAPID
//! token against the server's public key, decrypts each message with the
//! subscription's private key and keeps what it read. A new lead is one
//! notification that opens the customer; leads within a minute come
//! together; a successful payment is told of; a browser whose subscription
//! ended (410) is removed; 429 is tried again; subscriptions are checked.

use std::collections::VecDeque;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use ca_push::entities::{event, subscription};
use chrono::Utc;
use p256::elliptic_curve::sec1::ToEncodedPoint;
use sea_orm::sea_query::Expr;
use sea_orm::{ColumnTrait, EntityTrait, PaginatorTrait, QueryFilter};
use serde_json::{Value, json};

use crate::helpers::{TestApp, spawn_app, spawn_app_with};
use crate::payments::buy;
use crate::webhooks::{lead, owner_with_campaign};

/// A browser: its key pair and auth secret, as the Push API makes them.
struct Browser {
    key: p256::SecretKey,
    auth: [u8; 16],
}

impl Browser {
    fn new() -> Self {
        let mut auth = [0u8; 16];
        rand::RngCore::fill_bytes(&mut rand::thread_rng(), &mut auth);
        Self {
            key: p256::SecretKey::random(&mut rand::rngs::OsRng),
            auth,
        }
    }

    fn p256dh(&self) -> String {
        URL_SAFE_NO_PAD.encode(self.key.public_key().to_encoded_point(false).as_bytes())
    }

    fn auth(&self) -> String {
        URL_SAFE_NO_PAD.encode(self.auth)
    }
}

/// A browser subscribed at the stand-in: its path, private key and auth secret.
type Subscribed = (String, p256::SecretKey, [u8; 16]);

/// One message the stand-in got, read.
#[derive(Debug, Clone)]
struct Pushed {
    path: String,
    /// The decrypted payload.
    payload: Value,
    ttl: String,
}

/// A local push service: answers from its script, then 201; checks every
/// request like a push service and decrypts it like the browser.
#[derive(Clone)]
struct PushServiceStandIn {
    base: String,
    server_key: String,
    browsers: Arc<Mutex<Vec<Subscribed>>>,
    got: Arc<Mutex<Vec<Pushed>>>,
    /// What a real push service or browser would have refused.
    problems: Arc<Mutex<Vec<String>>>,
    script: Arc<Mutex<VecDeque<u16>>>,
}

impl PushServiceStandIn {
    async fn start(server_key: &str, script: &[u16]) -> Self {
        use actix_web::{App, HttpRequest, HttpResponse, HttpServer, web};
        let listener = std::net::TcpListener::bind("127.0.0.1:0").expect("bind");
        let base = format!("http://{}", listener.local_addr().expect("addr"));
        let s = PushServiceStandIn {
            base,
            server_key: server_key.to_string(),
            browsers: Arc::default(),
            got: Arc::default(),
            problems: Arc::default(),
            script: Arc::new(Mutex::new(script.iter().copied().collect())),
        };
        let shared = s.clone();
        let server = HttpServer::new(move || {
            let s = shared.clone();
            App::new().default_service(web::to(move |req: HttpRequest, body: web::Bytes| {
                let s = s.clone();
                async move {
                    let status = match s.check_and_read(&req, &body) {
                        Ok(status) => status,
                        Err(problem) => {
                            s.problems.lock().expect("lock").push(problem);
                            400
                        }
                    };
                    HttpResponse::build(
                        actix_web::http::StatusCode::from_u16(status).expect("code"),
                    )
                    .finish()
                }
            }))
        })
        .listen(listener)
        .expect("listen")
        .workers(1)
        .disable_signals()
        .run();
        tokio::spawn(server);
        s
    }

    /// A subscription of `browser` at this push service.
    fn subscribe(&self, browser: &Browser, name: &str) -> Value {
        let path = format!("/push/{name}");
        self.browsers
            .lock()
            .expect("lock")
            .push((path.clone(), browser.key.clone(), browser.auth));
        json!({
            "endpoint": format!("{}{path}", self.base),
            "expirationTime": null,
            "keys": {"p256dh": browser.p256dh(), "auth": browser.auth()}
        })
    }

    /// What a push service checks, then the browser's decryption. Answers
    /// the status to send, or what was wrong.
    fn check_and_read(&self, req: &actix_web::HttpRequest, body: &[u8]) -> Result<u16, String> {
        macro_rules! ensure {
            ($cond:expr, $($why:tt)+) => {
                if !$cond {
                    return Err(format!($($why)+));
                }
            };
        }
        let header = |name: &str| {
            req.headers()
                .get(name)
                .and_then(|v| v.to_str().ok())
                .unwrap_or_default()
                .to_string()
        };
        ensure!(req.method() == "POST", "method {}", req.method());
        ensure!(
            header("content-encoding") == "aes128gcm",
            "Content-Encoding {:?}",
            header("content-encoding")
        );
        let ttl = header("ttl");
        ensure!(ttl.parse::<u32>().is_ok(), "TTL header {ttl:?}");
        // RFC 8292: `vapid t=<JWT>, k=<the server's public key>`.
        let authorization = header("authorization");
        let (token, key) = authorization
            .strip_prefix("vapid t=")
            .and_then(|rest| rest.split_once(", k="))
            .ok_or_else(|| format!("not a vapid authorization: {authorization:?}"))?;
        ensure!(
            key == self.server_key,
            "k= is not the key browsers subscribed with"
        );
        let point = URL_SAFE_NO_PAD.decode(key).map_err(|e| e.to_string())?;
        ensure!(point.len() == 65, "k= is not 65 bytes");
        let decoding = jsonwebtoken::DecodingKey::from_ec_components(
            &URL_SAFE_NO_PAD.encode(&point[1..33]),
            &URL_SAFE_NO_PAD.encode(&point[33..65]),
        )
        .map_err(|e| e.to_string())?;
        let mut validation = jsonwebtoken::Validation::new(jsonwebtoken::Algorithm::ES256);
        validation.set_audience(&[self.base.as_str()]);
        let claims = jsonwebtoken::decode::<Value>(token, &decoding, &validation)
            .map_err(|e| format!("the VAPID token does not verify for this push service: {e}"))?
            .claims;
        let exp = claims["exp"].as_i64().unwrap_or_default();
        let now = Utc::now().timestamp();
        ensure!(
            exp > now && exp <= now + 24 * 3600,
            "exp not within a day: {claims}"
        );
        ensure!(
            claims["sub"]
                .as_str()
                .is_some_and(|s| s.starts_with("mailto:") || s.starts_with("https:")),
            "sub is not a contact: {claims}"
        );
        let path = req.uri().path().to_string();
        let (key, auth) = self
            .browsers
            .lock()
            .expect("lock")
            .iter()
            .find(|(p, _, _)| *p == path)
            .map(|(_, k, a)| (k.clone(), *a))
            .ok_or_else(|| format!("no browser subscribed at {path}"))?;
        let plain = ca_push::crypto::decrypt(body, &key, &auth)
            .map_err(|e| format!("the browser cannot decrypt it: {e}"))?;
        self.got.lock().expect("lock").push(Pushed {
            path,
            payload: serde_json::from_slice(&plain).map_err(|e| format!("not JSON: {e}"))?,
            ttl,
        });
        Ok(self.script.lock().expect("lock").pop_front().unwrap_or(201))
    }

    fn got(&self) -> Vec<Pushed> {
        let problems = self.problems.lock().expect("lock").clone();
        assert!(
            problems.is_empty(),
            "the push service refused: {problems:?}"
        );
        self.got.lock().expect("lock").clone()
    }

    async fn wait_for(&self, n: usize, secs: u64) -> Vec<Pushed> {
        let deadline = Instant::now() + Duration::from_secs(secs);
        loop {
            let got = self.got();
            if got.len() >= n {
                return got;
            }
            assert!(
                Instant::now() < deadline,
                "the push service got {} of {n} messages in {secs} s: {got:?}",
                got.len()
            );
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    }

    /// Nothing more arrives for a while.
    async fn quiet(&self, n: usize) {
        tokio::time::sleep(Duration::from_millis(1500)).await;
        assert_eq!(self.got().len(), n, "{:?}", self.got());
    }
}

async fn server_key(app: &TestApp, token: &str) -> String {
    let key = app.get("/api/push/vapid-public-key", Some(token)).await;
    assert_eq!(key.status, 200, "{}", key.body);
    let key = key.body["publicKey"]
        .as_str()
        .expect("publicKey")
        .to_string();
    let bytes = URL_SAFE_NO_PAD.decode(&key).expect("base64url");
    assert_eq!(
        (bytes.len(), bytes[0]),
        (65, 4),
        "an uncompressed P-256 key"
    );
    key
}

async fn subscribe(app: &TestApp, token: &str, subscription: &Value) -> Value {
    let saved = app
        .send(
            "POST",
            "/api/push/subscriptions",
            Some(token),
            subscription.clone(),
        )
        .await;
    assert_eq!(saved.status, 201, "{}", saved.body);
    saved.body["data"].clone()
}

async fn browsers(app: &TestApp, token: &str) -> Vec<Value> {
    let list = app.get("/api/push/subscriptions", Some(token)).await;
    assert_eq!(list.status, 200, "{}", list.body);
    list.body["data"].as_array().expect("data").clone()
}

/// Pretends a minute has passed since the owner's leads were last told of.
async fn a_minute_later(app: &TestApp) {
    event::Entity::update_many()
        .col_expr(
            event::Column::NotifiedAt,
            Expr::value(Some(Utc::now() - chrono::Duration::seconds(61))),
        )
        .filter(event::Column::NotifiedAt.is_not_null())
        .exec(&app.db.conn)
        .await
        .expect("update");
}

#[tokio::test]
async fn a_new_lead_is_one_encrypted_notification_that_opens_the_customer() {
    let app = spawn_app().await;
    let (token, campaign) = owner_with_campaign(&app, "push-owner@example.in").await;
    let key = server_key(&app, &token).await;
    let service = PushServiceStandIn::start(&key, &[]).await;
    let laptop = Browser::new();
    let phone = Browser::new();
    subscribe(&app, &token, &service.subscribe(&laptop, "laptop")).await;
    subscribe(&app, &token, &service.subscribe(&phone, "phone")).await;
    // Another owner's browser hears nothing of this owner's leads.
    let (other, _) = app.register("other-owner@example.in", "secret1").await;
    subscribe(&app, &other, &service.subscribe(&Browser::new(), "other")).await;

    lead(&app, &campaign, "v_push_visitor_01", "Meera@Example.IN").await;
    let got = service.wait_for(2, 10).await;
    service.quiet(2).await;
    let customers = app.get("/api/customers/user", Some(&token)).await;
    let customer_id = customers.body["customers"][0]["_id"]
        .as_str()
        .expect("customer id")
        .to_string();
    let mut paths: Vec<&str> = got.iter().map(|p| p.path.as_str()).collect();
    paths.sort_unstable();
    assert_eq!(paths, ["/push/laptop", "/push/phone"]);
    for p in &got {
        assert_eq!(
            p.payload,
            json!({
                "title": "New lead",
                "body": "Meera Iyer (meera@example.in) left their details",
                "url": format!("/customers?customer={customer_id}"),
            })
        );
        assert_eq!(p.ttl, "86400");
    }
}

#[tokio::test]
async fn leads_arriving_within_a_minute_come_together() {
    let app = spawn_app().await;
    let (token, campaign) = owner_with_campaign(&app, "push-group@example.in").await;
    let service = PushServiceStandIn::start(&server_key(&app, &token).await, &[]).await;
    subscribe(&app, &token, &service.subscribe(&Browser::new(), "laptop")).await;

    lead(&app, &campaign, "v_push_group_01", "first@example.in").await;
    service.wait_for(1, 10).await;
    // Three more within the minute: held, not one notification each.
    lead(&app, &campaign, "v_push_group_02", "second@example.in").await;
    lead(&app, &campaign, "v_push_group_03", "third@example.in").await;
    lead(&app, &campaign, "v_push_group_04", "fourth@example.in").await;
    service.quiet(1).await;
    a_minute_later(&app).await;
    let got = service.wait_for(2, 10).await;
    service.quiet(2).await;
    assert_eq!(got[0].payload["title"], "New lead");
    assert_eq!(
        got[1].payload,
        json!({
            "title": "3 new leads",
            "body": "Meera Iyer, Meera Iyer and 1 more",
            "url": "/customers",
        })
    );
}

#[tokio::test]
async fn a_successful_payment_is_told_of_and_opens_its_invoice() {
    let app = spawn_app().await;
    let (token, _) = app
        .register("push-payer@example.in", "correct horse 1")
        .await;
    let service = PushServiceStandIn::start(&server_key(&app, &token).await, &[]).await;
    subscribe(&app, &token, &service.subscribe(&Browser::new(), "laptop")).await;
    let txnid = buy(&app, &token, "basic", "monthly").await;
    let got = service.wait_for(1, 10).await;
    service.quiet(1).await;
    assert_eq!(
        got[0].payload,
        json!({
            "title": "Payment received",
            "body": "₹999 for the Basic plan. Your invoice is ready.",
            "url": format!("/billing/invoice/{txnid}"),
        })
    );
}

#[tokio::test]
async fn a_browser_whose_subscription_ended_is_removed_and_busy_services_are_tried_again() {
    let app = spawn_app().await;
    let (token, campaign) = owner_with_campaign(&app, "push-gone@example.in").await;
    let key = server_key(&app, &token).await;
    // The first message: the push service is busy (429), then takes it.
    let busy = PushServiceStandIn::start(&key, &[429]).await;
    subscribe(&app, &token, &busy.subscribe(&Browser::new(), "busy")).await;
    // The browser unsubscribed on its own: the push service answers 410.
    let ended = PushServiceStandIn::start(&key, &[410]).await;
    let gone = subscribe(&app, &token, &ended.subscribe(&Browser::new(), "gone")).await;
    assert_eq!(browsers(&app, &token).await.len(), 2);

    lead(&app, &campaign, "v_push_gone_01", "gone@example.in").await;
    ended.wait_for(1, 10).await;
    let deadline = Instant::now() + Duration::from_secs(10);
    while browsers(&app, &token).await.len() != 1 {
        assert!(
            Instant::now() < deadline,
            "the ended subscription was not removed"
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    let left = browsers(&app, &token).await;
    assert_ne!(left[0]["id"], gone["id"]);
    // 429, then the same message again after the pause (5 s).
    let got = busy.wait_for(2, 15).await;
    assert_eq!(got[0].payload, got[1].payload);
    assert_eq!(got[1].payload["title"], "New lead");
    ended.quiet(1).await;
}

#[tokio::test]
async fn subscriptions_are_checked_stored_per_browser_and_removed() {
    let app = spawn_app_with(|c| c.webhooks_allow_private = false).await;
    let (token, _) = app.register("push-check@example.in", "secret1").await;
    let t = Some(token.as_str());
    let browser = Browser::new();
    let good = json!({
        "endpoint": "https://fcm.googleapis.com/fcm/send/dGVzdA:APA91b",
        "keys": {"p256dh": browser.p256dh(), "auth": browser.auth()}
    });
    // No session, no access.
    let anonymous = app
        .send("POST", "/api/push/subscriptions", None, good.clone())
        .await;
    assert_eq!(anonymous.status, 401);
    assert_eq!(
        app.get("/api/push/vapid-public-key", None).await.status,
        401
    );

    for (body, field) in [
        (
            json!({"endpoint": "http://fcm.googleapis.com/fcm/send/x", "keys": good["keys"]}),
            "endpoint",
        ),
        (
            json!({"endpoint": "https://127.0.0.1:9/push", "keys": good["keys"]}),
            "endpoint",
        ),
        (
            json!({"endpoint": "https://169.254.169.254/latest", "keys": good["keys"]}),
            "endpoint",
        ),
        (json!({"keys": good["keys"]}), "endpoint"),
        (
            json!({"endpoint": good["endpoint"], "keys": {"p256dh": "BAAA", "auth": browser.auth()}}),
            "keys.p256dh",
        ),
        (
            json!({"endpoint": good["endpoint"], "keys": {"p256dh": browser.p256dh(), "auth": "c2hvcnQ"}}),
            "keys.auth",
        ),
        (
            json!({"endpoint": good["endpoint"], "keys": {"p256dh": "++not/base64url==", "auth": browser.auth()}}),
            "keys.p256dh",
        ),
    ] {
        let refused = app
            .send("POST", "/api/push/subscriptions", t, body.clone())
            .await;
        assert_eq!(refused.status, 400, "{body}: {}", refused.body);
        assert_eq!(refused.body["code"], "validation_failed");
        assert!(
            refused.body["errors"][field].is_array(),
            "{body}: {}",
            refused.body
        );
    }
    // Nothing was stored by the refused ones.
    let conn = &app.db.conn;
    assert_eq!(
        subscription::Entity::find()
            .count(conn)
            .await
            .expect("count"),
        0
    );

    let saved = subscribe(&app, &token, &good).await;
    assert_eq!(saved["endpoint"], good["endpoint"]);
    // The same browser again is the same subscription, with its new keys.
    let again = Browser::new();
    let renewed = subscribe(
        &app,
        &token,
        &json!({"endpoint": good["endpoint"], "keys": {"p256dh": again.p256dh(), "auth": again.auth()}}),
    )
    .await;
    assert_eq!(renewed["id"], saved["id"]);
    let stored = subscription::Entity::find()
        .one(conn)
        .await
        .expect("find")
        .expect("stored");
    assert_eq!(stored.p256dh, again.p256dh());
    assert_eq!(browsers(&app, &token).await.len(), 1);

    // Another owner cannot remove it.
    let (other, _) = app.register("push-other@example.in", "secret1").await;
    let endpoint = good["endpoint"].as_str().expect("endpoint");
    let path = format!("/api/push/subscriptions?endpoint={}", url_escape(endpoint));
    let not_theirs = app.send("DELETE", &path, Some(&other), json!({})).await;
    assert_eq!(not_theirs.status, 404, "{}", not_theirs.body);
    assert_eq!(browsers(&app, &token).await.len(), 1);
    let removed = app.send("DELETE", &path, t, json!({})).await;
    assert_eq!(removed.status, 200, "{}", removed.body);
    assert!(browsers(&app, &token).await.is_empty());
    assert_eq!(app.send("DELETE", &path, t, json!({})).await.status, 404);
}

fn url_escape(s: &str) -> String {
    s.bytes()
        .map(|b| match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'_' | b'.' | b'~' => {
                (b as char).to_string()
            }
            _ => format!("%{b:02X}"),
        })
        .collect()
}
