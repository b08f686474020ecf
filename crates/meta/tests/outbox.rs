#![allow(clippy::expect_used, clippy::unwrap_used)]
//! The outbox against a local stand-in of the Graph API that behaves as
//! Meta does: it checks the access token (code 190 when it is not the
//! valid one), refuses a whole request when any one event in it is invalid
//! (code 100), and can be told to fail, throttle or hang. Batches, retry
//! with backoff on 5xx and throttling, the split that isolates a bad event,
//! the pause on a rejected token, nothing lost on restart, and the token
//! kept out of every stored error and log line.

use std::collections::HashSet;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};

use actix_web::{App, HttpResponse, HttpServer, web};
use ca_meta::{Delivery, MetaConfig, Outbox, OutgoingEvent, UserData};
use ca_migrations::testing::TestDb;
use chrono::{Duration, Utc};
use sea_orm::sea_query::Expr;
use sea_orm::{ColumnTrait, EntityTrait, QueryFilter};
use serde_json::{Map, Value, json};

const TOKEN: &str = "EAAtoken-secret-1234567890";

struct Graph {
    /// Statuses to answer before anything else, in order.
    answers: Mutex<Vec<u16>>,
    /// Every request: its URI and body.
    seen: Mutex<Vec<(String, Value)>>,
    /// The token Meta accepts.
    valid_token: Mutex<String>,
    /// Event ids Meta finds invalid.
    bad: Mutex<HashSet<String>>,
    /// Event ids Meta accepted.
    accepted: Mutex<Vec<String>>,
    /// Never answer (for timeouts).
    hang: AtomicBool,
}

impl Graph {
    fn new() -> Arc<Self> {
        Arc::new(Self {
            answers: Mutex::new(Vec::new()),
            seen: Mutex::new(Vec::new()),
            valid_token: Mutex::new(TOKEN.into()),
            bad: Mutex::new(HashSet::new()),
            accepted: Mutex::new(Vec::new()),
            hang: AtomicBool::new(false),
        })
    }

    fn requests(&self) -> usize {
        self.seen.lock().unwrap().len()
    }
}

fn error(status: u16, e: Value) -> HttpResponse {
    HttpResponse::build(actix_web::http::StatusCode::from_u16(status).unwrap())
        .json(json!({ "error": e }))
}

async fn answer(graph: Arc<Graph>, uri: String, body: Value) -> HttpResponse {
    graph.seen.lock().unwrap().push((uri, body.clone()));
    if graph.hang.load(Ordering::SeqCst) {
        tokio::time::sleep(std::time::Duration::from_secs(30)).await;
    }
    let forced = {
        let mut answers = graph.answers.lock().unwrap();
        (!answers.is_empty()).then(|| answers.remove(0))
    };
    match forced {
        Some(503) => {
            return error(
                503,
                json!({"message": "Service temporarily unavailable", "type": "OAuthException", "code": 2, "is_transient": true}),
            );
        }
        Some(429) => {
            return error(
                429,
                json!({"message": "Application request limit reached", "type": "OAuthException", "code": 4, "is_transient": true}),
            );
        }
        Some(400) => {
            return error(
                400,
                json!({"message": "Invalid parameter", "type": "OAuthException", "code": 100, "is_transient": false, "fbtrace_id": "forced"}),
            );
        }
        Some(status) => return error(status, json!({"message": "nope"})),
        None => {}
    }
    if body["access_token"].as_str() != Some(graph.valid_token.lock().unwrap().as_str()) {
        return error(
            400,
            json!({"message": "Error validating access token: The session has been invalidated because the user changed their password.", "type": "OAuthException", "code": 190, "error_subcode": 460, "fbtrace_id": "tok"}),
        );
    }
    let ids: Vec<String> = body["data"]
        .as_array()
        .map(|a| {
            a.iter()
                .map(|e| e["event_id"].as_str().unwrap_or_default().to_string())
                .collect()
        })
        .unwrap_or_default();
    let bad = graph.bad.lock().unwrap().clone();
    if ids.iter().any(|id| bad.contains(id)) {
        // Meta refuses the whole request for one invalid event.
        return error(
            400,
            json!({"message": "Invalid parameter", "type": "OAuthException", "code": 100, "error_subcode": 2804003, "is_transient": false,
                   "error_user_title": "Event Timestamp Too Old", "error_user_msg": "The timestamp for this event is too far in the past.", "fbtrace_id": "AxYz"}),
        );
    }
    let n = ids.len();
    graph.accepted.lock().unwrap().extend(ids);
    HttpResponse::Ok().json(json!({"events_received": n, "messages": [], "fbtrace_id": "ok"}))
}

async fn serve(graph: Arc<Graph>) -> String {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").expect("bind");
    let url = format!("http://{}", listener.local_addr().expect("addr"));
    let server = HttpServer::new(move || {
        let graph = graph.clone();
        App::new()
            .app_data(web::JsonConfig::default().limit(32 << 20))
            .route(
                "/{version}/{pixel}/events",
                web::post().to(move |req: actix_web::HttpRequest, body: web::Json<Value>| {
                    answer(graph.clone(), req.uri().to_string(), body.into_inner())
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

fn config(url: &str) -> MetaConfig {
    MetaConfig {
        pixel_id: Some("1234567890123456".into()),
        access_token: Some(TOKEN.into()),
        graph_url: url.into(),
        api_version: "v21.0".into(),
        test_event_code: Some("TEST42".into()),
        timeout: std::time::Duration::from_secs(30),
    }
}

fn event(id: &str) -> OutgoingEvent {
    OutgoingEvent {
        event_id: id.into(),
        event_name: "Lead".into(),
        event_time: Utc::now(),
        event_source_url: Some("https://app.example.in/register".into()),
        user_data: UserData {
            email: Some(" Meera.Iyer@Example.IN ".into()),
            phone: Some("98765 43210".into()),
            first_name: Some("Meera".into()),
            country: Some("IN".into()),
            client_ip_address: Some("203.0.113.9".into()),
            client_user_agent: Some("Mozilla/5.0".into()),
            fbp: Some("fb.1.1700000000.123".into()),
            ..UserData::default()
        },
        custom_data: Map::new(),
        delivery: Delivery::Live,
    }
}

async fn rows(db: &TestDb) -> Vec<ca_meta::entity::Model> {
    let mut rows = ca_meta::entity::Entity::find()
        .all(&db.conn)
        .await
        .expect("rows");
    rows.sort_by(|a, b| a.event_id.cmp(&b.event_id));
    rows
}

async fn statuses(db: &TestDb) -> Vec<(String, String, i32)> {
    rows(db)
        .await
        .into_iter()
        .map(|e| (e.event_id, e.status, e.attempts))
        .collect()
}

#[tokio::test]
async fn events_are_sent_in_a_batch_hashed_and_retried_on_server_errors() {
    let db = TestDb::new().await.expect("db");
    let graph = Graph::new();
    *graph.answers.lock().unwrap() = vec![503, 429];
    let url = serve(graph.clone()).await;
    let outbox = Outbox::new(db.conn.clone(), config(&url));
    for id in ["lead-a", "lead-b", "lead-a"] {
        outbox.enqueue(&db.conn, &event(id)).await.expect("enqueue");
    }
    let now = Utc::now();
    assert_eq!(
        outbox.send_due(now).await.expect("send"),
        0,
        "503: retried later"
    );
    assert_eq!(
        statuses(&db).await,
        vec![
            ("lead-a".into(), "pending".into(), 1),
            ("lead-b".into(), "pending".into(), 1)
        ]
    );
    // Not due again before the backoff.
    assert_eq!(
        outbox
            .send_due(now + Duration::seconds(1))
            .await
            .expect("send"),
        0
    );
    assert_eq!(graph.requests(), 1);
    assert_eq!(
        outbox
            .send_due(now + Duration::seconds(3))
            .await
            .expect("send"),
        0,
        "429: retried"
    );
    let pending = rows(&db).await;
    assert!(
        pending[0]
            .last_error
            .as_deref()
            .unwrap()
            .contains("Application request limit reached"),
        "{:?}",
        pending[0].last_error
    );
    // After a restart (a new outbox on the same database) they are still there and go out.
    let restarted = Outbox::new(db.conn.clone(), config(&url));
    assert_eq!(
        restarted
            .send_due(now + Duration::seconds(60))
            .await
            .expect("send"),
        2
    );
    assert_eq!(
        statuses(&db).await,
        vec![
            ("lead-a".into(), "sent".into(), 2),
            ("lead-b".into(), "sent".into(), 2)
        ]
    );
    let seen = graph.seen.lock().unwrap().clone();
    assert_eq!(seen.len(), 3);
    let (uri, body) = &seen[2];
    // The token travels in the body, never in the address.
    assert_eq!(uri, "/v21.0/1234567890123456/events");
    assert_eq!(body["access_token"], TOKEN);
    assert_eq!(body["test_event_code"], "TEST42");
    let data = body["data"].as_array().expect("data");
    assert_eq!(data.len(), 2);
    let e = &data[0];
    assert_eq!(e["action_source"], "website");
    assert_eq!(e["event_name"], "Lead");
    // Hashed as Meta's own normaliser does; IP, agent and fbp as they are.
    assert_eq!(
        e["user_data"]["em"][0],
        "eb430734f00d2bba7875e9a0df11c95c3271530d6c223b60cea69066c2007f6d"
    );
    assert_eq!(
        e["user_data"]["ph"][0],
        "92b5072176e723878b5e06ff3ca61898e4eb74e8c46642a0f2db800b17364ab0"
    );
    assert_eq!(
        e["user_data"]["country"][0],
        "582967534d0f909d196b97f9e6921342777aea87b46fa52df165389db1fb8ccf",
        "sha256 of `in`"
    );
    assert_eq!(e["user_data"]["client_ip_address"], "203.0.113.9");
    assert_eq!(e["user_data"]["fbp"], "fb.1.1700000000.123");
    // Nothing left to send.
    assert_eq!(
        restarted
            .send_due(now + Duration::hours(2))
            .await
            .expect("send"),
        0
    );
    assert_eq!(graph.requests(), 3);
}

#[tokio::test]
async fn a_refused_event_is_not_retried_and_unconfigured_events_are_sent_once_configured() {
    let db = TestDb::new().await.expect("db");
    let graph = Graph::new();
    *graph.answers.lock().unwrap() = vec![400];
    let url = serve(graph.clone()).await;
    let outbox = Outbox::new(db.conn.clone(), config(&url));
    outbox
        .enqueue(&db.conn, &event("bad"))
        .await
        .expect("enqueue");
    let now = Utc::now();
    outbox.send_due(now).await.expect("send");
    outbox
        .send_due(now + Duration::hours(1))
        .await
        .expect("send");
    assert_eq!(
        statuses(&db).await,
        vec![("bad".into(), "failed".into(), 1)]
    );
    assert_eq!(graph.requests(), 1);

    let unconfigured = Outbox::new(
        db.conn.clone(),
        MetaConfig {
            pixel_id: None,
            access_token: None,
            ..config(&url)
        },
    );
    unconfigured
        .enqueue(&db.conn, &event("kept"))
        .await
        .expect("enqueue");
    assert_eq!(unconfigured.send_due(now).await.expect("send"), 0);
    let recent = unconfigured.recent(10).await.expect("recent");
    let kept = recent.iter().find(|e| e.event_id == "kept").expect("kept");
    assert_eq!(kept.status, "not_forwarded");
    assert_eq!(graph.requests(), 1);
    // Once a pixel and token are configured, the kept event goes.
    assert_eq!(outbox.send_due(now).await.expect("send"), 1);
    assert!(graph.accepted.lock().unwrap().contains(&"kept".to_string()));
}

/// Meta refuses a request for one invalid event: the batch is split and
/// the halves sent again until the one bad event is alone; the 999 good
/// ones go, the bad one fails with Meta's reason.
#[tokio::test]
async fn one_bad_event_among_999_good_ones_is_isolated() {
    let db = TestDb::new().await.expect("db");
    let graph = Graph::new();
    graph.bad.lock().unwrap().insert("lead-0613".into());
    let url = serve(graph.clone()).await;
    let outbox = Outbox::new(db.conn.clone(), config(&url));
    for i in 0..1000 {
        outbox
            .enqueue(&db.conn, &event(&format!("lead-{i:04}")))
            .await
            .expect("enqueue");
    }
    let sent = outbox.send_due(Utc::now()).await.expect("send");
    assert_eq!(sent, 999);
    let accepted: HashSet<String> = graph.accepted.lock().unwrap().iter().cloned().collect();
    assert_eq!(accepted.len(), 999);
    assert_eq!(
        graph.accepted.lock().unwrap().len(),
        999,
        "no event sent twice"
    );
    assert!(!accepted.contains("lead-0613"));
    // One request, then two per halving down to one event: about 2·log₂(1000).
    assert!(graph.requests() <= 21, "{} requests", graph.requests());
    let all = rows(&db).await;
    assert_eq!(all.iter().filter(|e| e.status == "sent").count(), 999);
    let bad = all.iter().find(|e| e.event_id == "lead-0613").expect("bad");
    assert_eq!(bad.status, "failed");
    let reason = bad.last_error.as_deref().expect("reason");
    assert!(reason.contains("Invalid parameter"), "{reason}");
    assert!(reason.contains("code 100"), "{reason}");
    assert!(reason.contains("subcode 2804003"), "{reason}");
    assert!(reason.contains("too far in the past"), "{reason}");
    let view = outbox.view(&Default::default()).await.expect("view");
    assert_eq!((view.sent, view.failed, view.pending), (999, 1, 0));
    assert!(view.paused.is_none());
}

/// A revoked token pauses sending: nothing is marked failed, nothing more
/// is sent with that token, staff see why, and the events go once the
/// token is replaced. Staff can re-queue failed events.
#[tokio::test]
async fn a_rejected_token_pauses_and_loses_nothing() {
    let db = TestDb::new().await.expect("db");
    let graph = Graph::new();
    *graph.valid_token.lock().unwrap() = "EAAnew-token".into();
    let url = serve(graph.clone()).await;
    let revoked = Outbox::new(db.conn.clone(), config(&url));
    for id in ["lead-1", "lead-2", "lead-3"] {
        revoked
            .enqueue(&db.conn, &event(id))
            .await
            .expect("enqueue");
    }
    let now = Utc::now();
    assert_eq!(revoked.send_due(now).await.expect("send"), 0);
    assert_eq!(graph.requests(), 1);
    assert_eq!(
        statuses(&db).await,
        vec![
            ("lead-1".into(), "pending".into(), 0),
            ("lead-2".into(), "pending".into(), 0),
            ("lead-3".into(), "pending".into(), 0)
        ]
    );
    let view = revoked.view(&Default::default()).await.expect("view");
    let paused = view.paused.expect("paused");
    assert!(
        paused.reason.starts_with("Meta token rejected"),
        "{}",
        paused.reason
    );
    assert!(paused.reason.contains("code 190"), "{}", paused.reason);
    assert_eq!((view.pending, view.failed), (3, 0));
    // Paused: no more requests with the rejected token.
    assert_eq!(
        revoked
            .send_due(now + Duration::minutes(5))
            .await
            .expect("send"),
        0
    );
    assert_eq!(graph.requests(), 1);
    // Staff retry: the pause is lifted, the token is still rejected, paused again.
    let out = revoked.requeue_failed(now).await.expect("requeue");
    assert_eq!(out.requeued, 0);
    assert!(revoked.pause().await.expect("pause").is_none());
    assert_eq!(revoked.send_due(now).await.expect("send"), 0);
    assert_eq!(graph.requests(), 2);
    assert!(revoked.pause().await.expect("pause").is_some());
    // A new token (a restart with a new configuration): sending resumes.
    let replaced = Outbox::new(
        db.conn.clone(),
        MetaConfig {
            access_token: Some("EAAnew-token".into()),
            ..config(&url)
        },
    );
    assert_eq!(replaced.send_due(now).await.expect("send"), 3);
    assert!(replaced.pause().await.expect("pause").is_none());
    // A refused event can be re-queued by staff once the cause is fixed.
    graph.bad.lock().unwrap().insert("lead-4".into());
    replaced
        .enqueue(&db.conn, &event("lead-4"))
        .await
        .expect("enqueue");
    replaced.send_due(Utc::now()).await.expect("send");
    assert_eq!(rows(&db).await[3].status, "failed");
    graph.bad.lock().unwrap().clear();
    let later = Utc::now();
    let out = replaced.requeue_failed(later).await.expect("requeue");
    assert_eq!((out.requeued, out.too_old), (1, 0));
    assert_eq!(replaced.send_due(later).await.expect("send"), 1);
    assert_eq!(rows(&db).await[3].status, "sent");
}

/// A buffer the log lines are written to.
#[derive(Clone, Default)]
struct Captured(Arc<Mutex<Vec<u8>>>);

impl std::io::Write for Captured {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0.lock().unwrap().extend_from_slice(buf);
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

impl<'a> tracing_subscriber::fmt::MakeWriter<'a> for Captured {
    type Writer = Captured;
    fn make_writer(&'a self) -> Self::Writer {
        self.clone()
    }
}

/// A connection error, a timeout and an error answer quoting the token:
/// neither the stored error nor any log line contains the token.
#[tokio::test]
async fn the_token_never_reaches_a_stored_error_or_a_log_line() {
    let logs = Captured::default();
    let subscriber = tracing_subscriber::fmt()
        .with_writer(logs.clone())
        .with_max_level(tracing::Level::TRACE)
        .with_ansi(false)
        .finish();
    let _guard = tracing::subscriber::set_default(subscriber);
    let db = TestDb::new().await.expect("db");
    let now = Utc::now();

    // Nothing listens there.
    let closed = {
        let l = std::net::TcpListener::bind("127.0.0.1:0").expect("bind");
        format!("http://{}", l.local_addr().expect("addr"))
    };
    let mut errors: Vec<String> = Vec::new();
    let refused = Outbox::new(db.conn.clone(), config(&closed));
    refused
        .enqueue(&db.conn, &event("refused"))
        .await
        .expect("enqueue");
    assert_eq!(refused.send_due(Utc::now()).await.expect("send"), 0);
    errors.extend(rows(&db).await.into_iter().filter_map(|e| e.last_error));

    // A Graph API that never answers.
    let graph = Graph::new();
    graph.hang.store(true, Ordering::SeqCst);
    let url = serve(graph.clone()).await;
    let slow = Outbox::new(
        db.conn.clone(),
        MetaConfig {
            timeout: std::time::Duration::from_millis(500),
            ..config(&url)
        },
    );
    assert_eq!(
        slow.send_due(now + Duration::minutes(1))
            .await
            .expect("send"),
        0
    );
    errors.extend(rows(&db).await.into_iter().filter_map(|e| e.last_error));

    // An error answer that quotes the token back.
    let echo = {
        let listener = std::net::TcpListener::bind("127.0.0.1:0").expect("bind");
        let url = format!("http://{}", listener.local_addr().expect("addr"));
        let server = HttpServer::new(|| {
            App::new().route(
                "/{v}/{p}/events",
                web::post().to(|| async {
                    error(
                        400,
                        json!({"message": format!("Malformed access token {TOKEN}"), "type": "OAuthException", "code": 100}),
                    )
                }),
            )
        })
        .listen(listener)
        .expect("listen")
        .workers(1)
        .run();
        tokio::spawn(server);
        url
    };
    let quoted = Outbox::new(db.conn.clone(), config(&echo));
    ca_meta::entity::Entity::update_many()
        .col_expr(
            ca_meta::entity::Column::NextAttemptAt,
            Expr::value(now - Duration::minutes(1)),
        )
        .filter(ca_meta::entity::Column::Status.eq("pending"))
        .exec(&db.conn)
        .await
        .expect("due");
    quoted.send_due(now).await.expect("send");
    errors.extend(rows(&db).await.into_iter().filter_map(|e| e.last_error));

    assert!(
        errors
            .iter()
            .any(|e| e.starts_with("sending failed") && e.contains("connect")),
        "{errors:?}"
    );
    assert!(
        errors
            .iter()
            .any(|e| e.starts_with("sending failed") && e.contains("timed out")),
        "{errors:?}"
    );
    assert!(
        errors.iter().any(|e| e.contains("Malformed access token")),
        "{errors:?}"
    );
    for e in &errors {
        assert!(!e.contains(TOKEN), "stored error holds the token: {e}");
    }
    let view = serde_json::to_string(&quoted.view(&Default::default()).await.expect("view"))
        .expect("json");
    assert!(!view.contains(TOKEN), "the staff view holds the token");
    let logs = String::from_utf8(logs.0.lock().unwrap().clone()).expect("utf8");
    assert!(logs.contains("Meta"), "logs were captured: {logs}");
    assert!(!logs.contains(TOKEN), "a log line holds the token: {logs}");
}

/// An event whose stored JSON cannot be read is marked failed with that
/// reason; it is not reported as sent and does not stop the others.
#[tokio::test]
async fn an_unreadable_event_fails_with_its_reason() {
    let db = TestDb::new().await.expect("db");
    let graph = Graph::new();
    let url = serve(graph.clone()).await;
    let outbox = Outbox::new(db.conn.clone(), config(&url));
    for id in ["lead-ok", "lead-broken"] {
        outbox.enqueue(&db.conn, &event(id)).await.expect("enqueue");
    }
    ca_meta::entity::Entity::update_many()
        .col_expr(
            ca_meta::entity::Column::Payload,
            Expr::value("{\"event_name\": \"Lead\", trunc"),
        )
        .filter(ca_meta::entity::Column::EventId.eq("lead-broken"))
        .exec(&db.conn)
        .await
        .expect("break");
    assert_eq!(outbox.send_due(Utc::now()).await.expect("send"), 1);
    let all = rows(&db).await;
    let broken = all.iter().find(|e| e.event_id == "lead-broken").unwrap();
    assert_eq!(broken.status, "failed");
    assert!(
        broken
            .last_error
            .as_deref()
            .unwrap()
            .starts_with("the stored event could not be read"),
        "{:?}",
        broken.last_error
    );
    assert_eq!(*graph.accepted.lock().unwrap(), vec!["lead-ok".to_string()]);
}

/// A purchase that moved no money is never sent; a test payment's purchase
/// goes only to Meta's Test Events, and only while a test event code is set.
#[tokio::test]
async fn test_and_simulated_purchases_never_reach_the_live_dataset() {
    let db = TestDb::new().await.expect("db");
    let graph = Graph::new();
    let url = serve(graph.clone()).await;
    let live = Outbox::new(
        db.conn.clone(),
        MetaConfig {
            test_event_code: None,
            ..config(&url)
        },
    );
    let mut simulated = event("purchase-sim");
    simulated.delivery = Delivery::Never("No money moved (simulator or demo payment)");
    let mut test = event("purchase-test");
    test.delivery = Delivery::TestOnly;
    for e in [&simulated, &test, &event("purchase-live")] {
        live.enqueue(&db.conn, e).await.expect("enqueue");
    }
    let now = Utc::now();
    assert_eq!(live.send_due(now).await.expect("send"), 1);
    assert_eq!(
        statuses(&db).await,
        vec![
            ("purchase-live".into(), "sent".into(), 0),
            ("purchase-sim".into(), "skipped".into(), 0),
            ("purchase-test".into(), "not_forwarded".into(), 0)
        ]
    );
    let seen = graph.seen.lock().unwrap().clone();
    assert_eq!(seen.len(), 1);
    assert!(seen[0].1.get("test_event_code").is_none());
    // With a test event code, the test purchase goes, carrying the code.
    let testing = Outbox::new(db.conn.clone(), config(&url));
    assert_eq!(testing.send_due(now).await.expect("send"), 1);
    let seen = graph.seen.lock().unwrap().clone();
    assert_eq!(seen.len(), 2);
    assert_eq!(seen[1].1["test_event_code"], "TEST42");
    assert_eq!(seen[1].1["data"][0]["event_id"], "purchase-test");
    let view = testing.view(&Default::default()).await.expect("view");
    assert_eq!((view.sent, view.skipped), (2, 1));
    assert!(
        rows(&db)
            .await
            .iter()
            .any(|e| e.event_id == "purchase-test" && e.test_event)
    );
}
