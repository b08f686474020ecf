#![allow(clippy::expect_used, clippy::unwrap_used)]
//! `cargo bench -p ca-server --bench webhooks` (SQLite), or with
//! `CA_TEST_POSTGRES_URL=postgres://…` for PostgreSQL.
//!
//! Starts the server on a fresh database with one campaign and a local
//! webhook receiver that answers 200 at once, then:
//!
//! 1. submits `CA_BENCH_LEADS` leads (default 2,000) through the widget's
//!    form, `CA_BENCH_CLIENTS` at a time (default 8), with no endpoint;
//! 2. adds an endpoint for `lead.created` pointing at the receiver and
//!    submits as many again while the delivery worker is not running yet:
//!    the difference in the form's latency from round 1 is what writing the
//!    webhook event in the form's transaction costs a visitor (the delivery
//!    happens after the answer). Rounds 1 and 2 are run twice, alternating,
//!    so a database that grows does not favour either;
//! 3. starts the worker and submits as many again while it delivers (the
//!    server, the worker, the receiver and the load share the machine's
//!    cores), then measures how fast the worker delivers what was queued:
//!    deliveries per second from the first queued event to the last one
//!    received.
//!
//! Prints a table; asserts nothing about time.

use std::net::TcpListener;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use ca_webhooks::events::{CampaignRef, CustomerData, Event, LeadCreated};
use serde_json::{Value, json};

mod common;
use common::{SITE, env_or, pct};

/// A receiver that counts what it is sent and answers 200 at once.
fn receiver() -> (
    String,
    Arc<AtomicUsize>,
    Arc<std::sync::Mutex<Option<Instant>>>,
) {
    use actix_web::{App, HttpResponse, HttpServer, web};
    let got = Arc::new(AtomicUsize::new(0));
    let last = Arc::new(std::sync::Mutex::new(None));
    let listener = TcpListener::bind("127.0.0.1:0").expect("bind");
    let url = format!("http://{}/hook", listener.local_addr().expect("addr"));
    let (g, l) = (got.clone(), last.clone());
    let server = HttpServer::new(move || {
        let (g, l) = (g.clone(), l.clone());
        App::new().route(
            "/hook",
            web::post().to(move |_body: web::Bytes| {
                let (g, l) = (g.clone(), l.clone());
                async move {
                    g.fetch_add(1, Ordering::SeqCst);
                    *l.lock().unwrap() = Some(Instant::now());
                    HttpResponse::Ok().finish()
                }
            }),
        )
    })
    .workers(1)
    .listen(listener)
    .expect("listen")
    .run();
    tokio::spawn(server);
    (url, got, last)
}

/// Submits `n` leads, `clients` at a time; the form call's latencies.
async fn leads(base: &str, campaign: &str, round: &str, n: usize, clients: usize) -> Vec<Duration> {
    let client = reqwest::Client::builder()
        .pool_max_idle_per_host(clients)
        .build()
        .expect("client");
    let next = Arc::new(AtomicUsize::new(0));
    let mut tasks = Vec::new();
    for _ in 0..clients {
        let (client, next) = (client.clone(), next.clone());
        let (base, campaign, round) = (base.to_string(), campaign.to_string(), round.to_string());
        tasks.push(tokio::spawn(async move {
            let mut samples = Vec::new();
            loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                if i >= n {
                    break;
                }
                let started: Value = client
                    .post(format!("{base}/api/widget/conversations"))
                    .header("origin", SITE)
                    .json(&json!({"campaignId": campaign, "visitorId": format!("v_{round}_{i:06}"),
                                  "userContext": {"deviceType": "desktop", "currentUrl": format!("{SITE}/sarees/silk")}}))
                    .send()
                    .await
                    .expect("start")
                    .json()
                    .await
                    .expect("json");
                let Some(id) = started["conversationId"].as_str().map(str::to_string) else {
                    panic!("starting a conversation: {started}");
                };
                let t = Instant::now();
                let res = client
                    .post(format!("{base}/api/widget/conversations/{id}/forms"))
                    .header("origin", SITE)
                    .json(&json!({"formId": "newsletter",
                                  "values": {"email": format!("buyer.{round}.{i}@example.in"), "name": "Meera Iyer"}}))
                    .send()
                    .await
                    .expect("form");
                let status = res.status();
                let body = res.text().await.unwrap_or_default();
                assert!(status.is_success(), "form: {status} {body}");
                samples.push(t.elapsed());
            }
            samples
        }));
    }
    let mut all = Vec::new();
    for t in tasks {
        all.extend(t.await.expect("join"));
    }
    all.sort();
    all
}

#[tokio::main]
async fn main() {
    let n = env_or("CA_BENCH_LEADS", 2_000);
    let clients = env_or("CA_BENCH_CLIENTS", 8);
    let mut bench = common::Bench::start(false).await;
    let (conn, backend, base) = (bench.db.conn.clone(), bench.backend, bench.base.clone());
    let client = reqwest::Client::new();
    let reg: Value = client
        .post(format!("{base}/api/auth/register"))
        .json(&json!({"name": "Bench Owner", "email": "hooks@example.in", "password": "secret1", "phone": "+91 9876543210"}))
        .send().await.expect("register").json().await.expect("json");
    let token = reg["token"].as_str().expect("token").to_string();
    let mut trial = ca_auth::trial::settings(&conn).await.expect("trial");
    trial.trial_visitor_limit = ((3 * n) / 100 * 100 + 100) as i64;
    ca_auth::trial::save(&conn, trial)
        .await
        .expect("save trial");
    let created: Value = client
        .post(format!("{base}/api/campaigns"))
        .bearer_auth(&token)
        .json(&json!({
            "name": "Diwali exit offer",
            "websiteUrl": SITE,
            "settings": {"forms": {"conversionForms": [{
                "id": "newsletter", "name": "Saree lookbook", "type": "lead_magnet",
                "title": "Get our lookbook", "buttonText": "Send it",
                "successMessage": "The lookbook is on its way!",
                "isDefault": true, "active": true,
                "fields": [
                    {"name": "name", "label": "Name", "type": "text", "required": false},
                    {"name": "email", "label": "Email", "type": "email", "required": true}
                ]
            }]}}
        }))
        .send()
        .await
        .expect("campaign")
        .json()
        .await
        .expect("json");
    let campaign = created["campaign"]["_id"].as_str().expect("id").to_string();

    let (url, got, last) = receiver();
    let endpoint = |enabled: bool| json!({"url": url, "description": "bench", "eventTypes": ["lead.created"], "enabled": enabled});
    let added: Value = client
        .post(format!("{base}/api/webhooks/endpoints"))
        .bearer_auth(&token)
        .json(&endpoint(false))
        .send()
        .await
        .expect("endpoint")
        .json()
        .await
        .expect("json");
    let endpoint_id = added["data"]["id"]
        .as_str()
        .unwrap_or_else(|| panic!("endpoint: {added}"))
        .to_string();
    let switch = |enabled: bool| {
        let (client, base, token, body) = (
            client.clone(),
            base.clone(),
            token.clone(),
            endpoint(enabled),
        );
        let id = endpoint_id.clone();
        async move {
            let res = client
                .put(format!("{base}/api/webhooks/endpoints/{id}"))
                .bearer_auth(&token)
                .json(&body)
                .send()
                .await
                .expect("switch");
            assert!(res.status().is_success(), "switch: {}", res.status());
        }
    };
    let (mut without, mut queued) = (Vec::new(), Vec::new());
    for round in 0..2 {
        switch(false).await;
        without.extend(leads(&base, &campaign, &format!("plain{round}"), n / 2, clients).await);
        switch(true).await;
        queued.extend(leads(&base, &campaign, &format!("queued{round}"), n / 2, clients).await);
    }
    without.sort();
    queued.sort();
    let waiting = got.load(Ordering::SeqCst);
    assert_eq!(waiting, 0, "nothing is delivered before the worker starts");

    bench.start_workers();
    let backlog_before = {
        let deadline = Instant::now() + Duration::from_secs(600);
        while got.load(Ordering::SeqCst) < queued.len() && Instant::now() < deadline {
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
        got.load(Ordering::SeqCst)
    };
    let queued_from = Instant::now();
    let with = leads(&base, &campaign, "hooked", n, clients).await;
    let deadline = Instant::now() + Duration::from_secs(600);
    while got.load(Ordering::SeqCst) < backlog_before + n && Instant::now() < deadline {
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    let delivered = got.load(Ordering::SeqCst) - backlog_before;
    let took = last
        .lock()
        .unwrap()
        .map(|t| t - queued_from)
        .unwrap_or_default();

    // A backlog: `n` events queued at once (as after the receiver was down),
    // then the time the worker needs to deliver them all.
    let owner = reg["user"]["id"].as_str().expect("owner").to_string();
    let txn = ca_core::db::begin_write(&conn).await.expect("begin");
    for i in 0..n {
        let event = Event::LeadCreated(LeadCreated {
            customer: CustomerData {
                id: format!("c_backlog_{i}"),
                email: format!("backlog.{i}@example.in"),
                name: Some("Meera Iyer".into()),
                phone: None,
                company: None,
                status: "lead".into(),
                lead_score: 10,
            },
            fields: serde_json::Map::new(),
            campaign: CampaignRef {
                id: campaign.clone(),
                name: "Diwali exit offer".into(),
            },
            page_url: None,
            conversation_id: None,
        });
        ca_webhooks::events::enqueue(&txn, &owner, event, chrono::Utc::now())
            .await
            .expect("enqueue");
    }
    let before = got.load(Ordering::SeqCst);
    txn.commit().await.expect("commit");
    let backlog_from = Instant::now();
    while got.load(Ordering::SeqCst) < before + n
        && backlog_from.elapsed() < Duration::from_secs(600)
    {
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    let drained = got.load(Ordering::SeqCst) - before;
    let drain = backlog_from.elapsed();

    println!(
        "backend: {backend}; {n} leads per round, {clients} concurrent visitors, server, receiver and load on one machine"
    );
    println!(
        "{:<44} {:>9} {:>9} {:>9}",
        "widget form submission", "p50 ms", "p99 ms", "max ms"
    );
    for (name, s) in [
        ("no webhook endpoint", &without),
        ("lead.created queued (worker not running)", &queued),
        ("lead.created, worker delivering meanwhile", &with),
    ] {
        println!(
            "{name:<44} {:>9.2} {:>9.2} {:>9.2}",
            pct(s, 0.5),
            pct(s, 0.99),
            pct(s, 1.0)
        );
    }
    println!(
        "writing the event costs the form: p50 {:+.2} ms, p99 {:+.2} ms",
        pct(&queued, 0.5) - pct(&without, 0.5),
        pct(&queued, 0.99) - pct(&without, 0.99),
    );
    println!(
        "delivered {delivered} of {n} in {:.2} s from the first queued lead: {:.0} deliveries/s (while the leads were still arriving)",
        took.as_secs_f64(),
        delivered as f64 / took.as_secs_f64().max(0.001)
    );
    println!(
        "backlog of {n} queued events: {drained} delivered in {:.2} s, {:.0} deliveries/s to one endpoint",
        drain.as_secs_f64(),
        drained as f64 / drain.as_secs_f64().max(0.001)
    );
    bench.finish().await;
}
