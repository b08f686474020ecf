#![allow(clippy::expect_used, clippy::unwrap_used)]
//! `cargo bench -p ca-server --bench widget_load` (SQLite), or with
//! `CA_TEST_POSTGRES_URL=postgres://…` for PostgreSQL; `scripts/load.sh` runs both.
//!
//! Starts the server on a fresh database with one campaign and, for a few
//! seconds each with 32 concurrent clients, measures requests/s and latency
//! percentiles of `/healthz` (the baseline), the widget's public configuration
//! call for a running campaign (`If-None-Match` revalidations and full
//! answers), a switched-off campaign and a campaign whose owner has used up
//! the month's visitors (`CA_BENCH_VISITORS` of them, default 100,000, on a
//! plan that allows as many), page views, impressions and engaged-time
//! reports (accepted by the batched writer), then how long the writer takes to store what was
//! accepted. Prints a table; asserts nothing about time.

use std::net::TcpListener;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use ca_campaigns::entities::{campaign, monthly_visitor};
use sea_orm::{ColumnTrait, EntityTrait, PaginatorTrait, QueryFilter, Set};
use serde_json::{Value, json};

/// Concurrent clients: `CA_BENCH_CLIENTS`, default 32. Events are answered
/// once journalled (or, with `CA_EVENT_JOURNAL=false` on PostgreSQL, once their batch is committed,
/// where more concurrent visitors make bigger batches).
fn clients() -> usize {
    std::env::var("CA_BENCH_CLIENTS")
        .ok()
        .and_then(|v| v.parse().ok())
        .filter(|n| *n > 0)
        .unwrap_or(32)
}
/// Seconds per call: `CA_BENCH_SECONDS`, default 4. A longer run shows
/// whether events are stored as fast as they are answered (with a journal,
/// a backlog the store thread cannot clear shows as a long drain at the end,
/// and past its limit as busy answers).
fn run_for() -> Duration {
    Duration::from_secs(
        std::env::var("CA_BENCH_SECONDS")
            .ok()
            .and_then(|v| v.parse().ok())
            .filter(|n| *n > 0)
            .unwrap_or(4),
    )
}

fn visitors() -> usize {
    std::env::var("CA_BENCH_VISITORS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(100_000)
}
const SITE: &str = "https://kesar.example.in";

#[derive(Clone, Copy)]
enum Call {
    Health,
    Config { revalidate: bool },
    Event(&'static str),
}

async fn run(base: &str, campaign: &str, etag: &str, call: Call) -> (f64, Vec<Duration>, usize) {
    let client = reqwest::Client::builder()
        .pool_max_idle_per_host(clients())
        .build()
        .expect("client");
    let counter = Arc::new(AtomicUsize::new(0));
    let limit = run_for();
    let started = Instant::now();
    let mut tasks = Vec::new();
    for worker in 0..clients() {
        let client = client.clone();
        let base = base.to_string();
        let campaign = campaign.to_string();
        let etag = etag.to_string();
        let counter = counter.clone();
        tasks.push(tokio::spawn(async move {
            let mut samples = Vec::new();
            let mut errors = 0usize;
            while started.elapsed() < limit {
                let n = counter.fetch_add(1, Ordering::Relaxed);
                let t = Instant::now();
                let req = match call {
                    Call::Health => client.get(format!("{base}/healthz")),
                    Call::Config { revalidate } => {
                        let r = client.get(format!("{base}/api/widget/campaigns/{campaign}/config"));
                        if revalidate { r.header("if-none-match", &etag) } else { r }
                    }
                    Call::Event(kind) => client
                        .post(format!("{base}/api/widget/events"))
                        .header("origin", SITE)
                        .header("content-type", "text/plain")
                        .body({
                            let mut body = json!({"campaignId": campaign, "visitorId": format!("v_load_{worker:02}_{n:08}"), "type": kind});
                            if kind == "engagement" {
                                body["seconds"] = json!(15);
                                body["newSession"] = json!(n.is_multiple_of(4));
                            }
                            body.to_string()
                        }),
                };
                match req.send().await {
                    Ok(res) if res.status().is_success() || res.status() == 304 => {
                        let _ = res.bytes().await;
                        samples.push(t.elapsed());
                    }
                    _ => errors += 1,
                }
            }
            (samples, errors)
        }));
    }
    let mut all = Vec::new();
    let mut errors = 0;
    for t in tasks {
        let (s, e) = t.await.expect("join");
        all.extend(s);
        errors += e;
    }
    let secs = started.elapsed().as_secs_f64();
    all.sort();
    (all.len() as f64 / secs, all, errors)
}

fn pct(sorted: &[Duration], p: f64) -> f64 {
    if sorted.is_empty() {
        return 0.0;
    }
    sorted[((sorted.len() as f64 - 1.0) * p).round() as usize].as_secs_f64() * 1000.0
}

#[tokio::main]
async fn main() {
    let db = ca_migrations::testing::TestDb::new().await.expect("db");
    let backend = if db.url.starts_with("postgres") {
        "PostgreSQL"
    } else {
        "SQLite"
    };
    let listener = TcpListener::bind("127.0.0.1:0").expect("bind");
    let base = format!("http://{}", listener.local_addr().expect("addr"));
    let data = std::env::temp_dir().join(format!("ca-load-{}", uuid::Uuid::now_v7()));
    let config = ca_core::Config {
        database_url: db.url.clone(),
        bind: base.trim_start_matches("http://").to_string(),
        public_url: Some(base.clone()),
        data_dir: data.clone(),
        jwt_secret: Some("load-secret-load-secret-load-secret-00000000".into()),
        static_dir: data.join("none"),
        widget_events_ip_per_minute: u32::MAX,
        widget_events_campaign_per_minute: u32::MAX,
        // Every simulated visitor comes from this machine's address.
        widget_new_visitors_per_address: u32::MAX,
        log: "warn".into(),
        // `CA_EVENT_JOURNAL=false` measures PostgreSQL's group commit.
        event_journal: std::env::var("CA_EVENT_JOURNAL").map_or(true, |v| v != "false"),
        ..ca_core::Config::default()
    };
    let state = ca_server::prepare(config).await.expect("prepare");
    let writer = state.tracking.writer().clone();
    tokio::spawn(ca_server::serve(state, listener).expect("serve"));
    let client = reqwest::Client::new();
    let reg: Value = client
        .post(format!("{base}/api/auth/register"))
        .json(&json!({"name": "Load Owner", "email": "load@example.in", "password": "secret1", "phone": "+91 9876543210"}))
        .send().await.expect("register").json().await.expect("json");
    let token = reg["token"].as_str().expect("token").to_string();
    // Room for the three campaigns, and a visitor allowance the bench fills.
    let mut trial = ca_auth::trial::settings(&db.conn).await.expect("trial");
    trial.trial_campaign_limit = 5;
    trial.trial_visitor_limit = (visitors().max(100) / 100 * 100) as i64;
    let limit = trial.trial_visitor_limit as usize;
    ca_auth::trial::save(&db.conn, trial)
        .await
        .expect("save trial");
    let campaign = |token: String, name: &'static str| {
        let client = client.clone();
        let base = base.clone();
        async move {
            let created: Value = client
                .post(format!("{base}/api/campaigns"))
                .bearer_auth(&token)
                .json(&json!({"name": name, "websiteUrl": SITE}))
                .send()
                .await
                .expect("campaign")
                .json()
                .await
                .expect("json");
            created["campaign"]["_id"].as_str().expect("id").to_string()
        }
    };
    let id = campaign(token.clone(), "Load").await;
    let off = campaign(token.clone(), "Switched off").await;
    let toggled = client
        .patch(format!("{base}/api/campaigns/{off}/toggle"))
        .bearer_auth(&token)
        .json(&json!({}))
        .send()
        .await
        .expect("toggle");
    assert!(
        toggled.status().is_success(),
        "toggle: {}",
        toggled.status()
    );
    // A second owner whose visitors of the month are used up.
    let full: Value = client
        .post(format!("{base}/api/auth/register"))
        .json(&json!({"name": "Full Owner", "email": "full@example.in", "password": "secret1", "phone": "+91 9876543211"}))
        .send().await.expect("register").json().await.expect("json");
    let full_owner = full["user"]["id"].as_str().expect("owner").to_string();
    let used_up = campaign(
        full["token"].as_str().expect("token").to_string(),
        "Used up",
    )
    .await;
    let now = chrono::Utc::now();
    // Past the limit the popup keeps showing for a grace share more.
    let stop = usize::try_from(ca_billing::usage::visitor_stop(limit as i64)).expect("limit");
    let rows: Vec<monthly_visitor::ActiveModel> = (0..stop)
        .map(|i| monthly_visitor::ActiveModel {
            owner_id: Set(full_owner.clone()),
            period: Set(ca_campaigns::counters::period_of(now)),
            visitor_id: Set(format!("v_full_{i:08}")),
            first_seen_at: Set(now),
        })
        .collect();
    for chunk in rows.chunks(1000) {
        monthly_visitor::Entity::insert_many(chunk.to_vec())
            .exec_without_returning(&db.conn)
            .await
            .expect("visitors");
    }
    let config = |id: &str| {
        let client = client.clone();
        let url = format!("{base}/api/widget/campaigns/{id}/config");
        async move {
            let res = client.get(url).send().await.expect("config");
            let etag = res.headers()["etag"].to_str().expect("etag").to_string();
            let body: Value = res.json().await.expect("json");
            (etag, body)
        }
    };
    let (etag, body) = config(&id).await;
    assert_eq!(body["active"], true, "{body}");
    let (off_etag, body) = config(&off).await;
    assert_eq!(body["reason"], "inactive", "{body}");
    let (full_etag, body) = config(&used_up).await;
    assert_eq!(body["reason"], "visitor_limit", "{body}");

    println!(
        "backend: {backend}; {} concurrent clients, {} s per call, server and load generator on one machine; the used-up owner has {stop} visitors this month (limit {limit} and its grace)",
        clients(),
        run_for().as_secs()
    );
    println!(
        "{:<44} {:>10} {:>9} {:>9} {:>9} {:>7}",
        "call", "req/s", "p50 ms", "p99 ms", "max ms", "errors"
    );
    let calls: [(&str, &str, &str, Call); 8] = [
        ("GET /healthz (baseline)", &id, &etag, Call::Health),
        (
            "GET config active, If-None-Match (304)",
            &id,
            &etag,
            Call::Config { revalidate: true },
        ),
        (
            "GET config active (200, full body)",
            &id,
            &etag,
            Call::Config { revalidate: false },
        ),
        (
            "GET config inactive (200)",
            &off,
            &off_etag,
            Call::Config { revalidate: false },
        ),
        (
            "GET config visitor limit reached (200)",
            &used_up,
            &full_etag,
            Call::Config { revalidate: false },
        ),
        (
            "POST events pageview (accepted)",
            &id,
            &etag,
            Call::Event("pageview"),
        ),
        (
            "POST events impression (accepted)",
            &id,
            &etag,
            Call::Event("impression"),
        ),
        (
            "POST events engagement (accepted)",
            &id,
            &etag,
            Call::Event("engagement"),
        ),
    ];
    let mut accepted = [0usize; 2];
    for (name, campaign, etag, call) in calls {
        let (rps, samples, errors) = run(&base, campaign, etag, call).await;
        match call {
            Call::Event("pageview") => accepted[0] = samples.len(),
            Call::Event("impression") => accepted[1] = samples.len(),
            _ => {}
        }
        println!(
            "{name:<44} {rps:>10.0} {:>9.2} {:>9.2} {:>9.2} {errors:>7}",
            pct(&samples, 0.5),
            pct(&samples, 0.99),
            pct(&samples, 1.0)
        );
    }
    let t = Instant::now();
    writer.flush().await;
    let drained = t.elapsed();
    let visitors = monthly_visitor::Entity::find()
        .filter(monthly_visitor::Column::OwnerId.ne(full_owner.as_str()))
        .count(&db.conn)
        .await
        .expect("count");
    let impressions = campaign::Entity::find_by_id(id)
        .one(&db.conn)
        .await
        .expect("q")
        .expect("c")
        .impressions;
    println!(
        "stored: {visitors} monthly visitors of {} page views, {impressions} impressions of {}; last batch written {:.0} ms after the load stopped",
        accepted[0],
        accepted[1],
        drained.as_secs_f64() * 1000.0
    );
    let _ = std::fs::remove_dir_all(data);
}
