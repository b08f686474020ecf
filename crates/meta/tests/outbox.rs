#![allow(clippy::expect_used, clippy::unwrap_used)]
//! The outbox against a local stand-in of the Graph API: batches, retry with
//! backoff on 5xx and throttling, no retry on 4xx, nothing lost on restart,
//! and stored-not-forwarded without a pixel.

use std::sync::{Arc, Mutex};

use actix_web::{App, HttpResponse, HttpServer, web};
use ca_meta::{MetaConfig, Outbox, OutgoingEvent, UserData};
use ca_migrations::testing::TestDb;
use chrono::{Duration, Utc};
use sea_orm::EntityTrait;
use serde_json::{Map, Value, json};

struct Stub {
    /// Statuses to answer, in order; then 200.
    answers: Mutex<Vec<u16>>,
    seen: Mutex<Vec<(String, Value)>>,
}

async fn graph(stub: Arc<Stub>) -> String {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").expect("bind");
    let url = format!("http://{}", listener.local_addr().expect("addr"));
    let server = HttpServer::new(move || {
        let stub = stub.clone();
        App::new().route(
            "/{version}/{pixel}/events",
            web::post().to(move |req: actix_web::HttpRequest, body: web::Json<Value>| {
                let stub = stub.clone();
                async move {
                    stub.seen
                        .lock()
                        .unwrap()
                        .push((req.uri().to_string(), body.into_inner()));
                    let mut answers = stub.answers.lock().unwrap();
                    let status = if answers.is_empty() {
                        200
                    } else {
                        answers.remove(0)
                    };
                    let code = actix_web::http::StatusCode::from_u16(status).unwrap();
                    if status == 200 {
                        HttpResponse::build(code)
                            .json(json!({"events_received": 1, "fbtrace_id": "x"}))
                    } else {
                        HttpResponse::build(code)
                            .json(json!({"error": {"message": "nope", "code": 100}}))
                    }
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

fn config(url: &str) -> MetaConfig {
    MetaConfig {
        pixel_id: Some("123456".into()),
        access_token: Some("TOKEN".into()),
        graph_url: url.into(),
        api_version: "v21.0".into(),
        test_event_code: Some("TEST42".into()),
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
            client_ip_address: Some("203.0.113.9".into()),
            client_user_agent: Some("Mozilla/5.0".into()),
            fbp: Some("fb.1.1700000000.123".into()),
            ..UserData::default()
        },
        custom_data: Map::new(),
    }
}

async fn statuses(db: &TestDb) -> Vec<(String, String, i32)> {
    let mut rows: Vec<(String, String, i32)> = ca_meta::entity::Entity::find()
        .all(&db.conn)
        .await
        .expect("rows")
        .into_iter()
        .map(|e| (e.event_id, e.status, e.attempts))
        .collect();
    rows.sort();
    rows
}

#[tokio::test]
async fn events_are_sent_in_a_batch_hashed_and_retried_on_server_errors() {
    let db = TestDb::new().await.expect("db");
    let stub = Arc::new(Stub {
        answers: Mutex::new(vec![503, 429]),
        seen: Mutex::new(Vec::new()),
    });
    let url = graph(stub.clone()).await;
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
    assert_eq!(stub.seen.lock().unwrap().len(), 1);
    assert_eq!(
        outbox
            .send_due(now + Duration::seconds(3))
            .await
            .expect("send"),
        0,
        "429: retried"
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
    let seen = stub.seen.lock().unwrap().clone();
    assert_eq!(seen.len(), 3);
    let (uri, body) = &seen[2];
    assert!(
        uri.starts_with("/v21.0/123456/events?access_token=TOKEN"),
        "{uri}"
    );
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
    assert_eq!(seen.len(), 3);
}

#[tokio::test]
async fn a_refused_batch_is_not_retried_and_unconfigured_events_stay_stored() {
    let db = TestDb::new().await.expect("db");
    let stub = Arc::new(Stub {
        answers: Mutex::new(vec![400]),
        seen: Mutex::new(Vec::new()),
    });
    let url = graph(stub.clone()).await;
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
    assert_eq!(stub.seen.lock().unwrap().len(), 1);

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
    assert_eq!(stub.seen.lock().unwrap().len(), 1);
}
