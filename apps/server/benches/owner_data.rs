#![allow(clippy::expect_used, clippy::unwrap_used)]
//! `cargo bench -p ca-server --bench owner_data` (SQLite), or with
//! `CA_TEST_POSTGRES_URL=postgres://…` for PostgreSQL; `scripts/owner-data-bench.sh`
//! runs both.
//!
//! Seeds one owner with `CA_BENCH_CUSTOMERS` customers (default 1,000,000)
//! and `CA_BENCH_CONVERSATIONS` conversations (default 100,000), then through
//! the real HTTP server measures p50/p95 of the Customers list call (default
//! view, a search, a status filter, each sort, a deep page), the
//! conversation lists, and the customers CSV export's rows/s with the
//! process's resident memory while it streams. Prints a table; asserts
//! nothing about time.

use std::net::TcpListener;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use ca_conversations::entities::conversation;
use ca_customers::entities::customer;
use chrono::Utc;
use futures_util::StreamExt;
use sea_orm::{EntityTrait, Set, TransactionTrait};
use serde_json::{Value, json};

const SAMPLES: usize = 20;
const FIRST: [&str; 12] = [
    "Aarav", "Meera", "Rohan", "Priya", "Kabir", "Ananya", "Vikram", "Isha", "Arjun", "Diya",
    "Karan", "Neha",
];
const LAST: [&str; 10] = [
    "Sharma", "Iyer", "Mehta", "Kumar", "Reddy", "Gupta", "Nair", "Singh", "Das", "Patel",
];
const STATUSES: [&str; 4] = ["lead", "prospect", "customer", "churned"];

fn env_count(name: &str, default: usize) -> usize {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

/// Resident memory of this process (server and client), in MiB.
fn rss_mib() -> f64 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("VmRSS:"))
                .and_then(|l| l.split_whitespace().nth(1))
                .and_then(|kb| kb.parse::<f64>().ok())
        })
        .map_or(0.0, |kb| kb / 1024.0)
}

fn pct(sorted: &[Duration], p: f64) -> f64 {
    sorted[((sorted.len() as f64 - 1.0) * p).round() as usize].as_secs_f64() * 1000.0
}

async fn seed(db: &sea_orm::DatabaseConnection, owner: &str, campaign: &str, n: usize, m: usize) {
    let now = Utc::now();
    let batch = 1000;
    let mut i = 0;
    while i < n {
        let rows: Vec<customer::ActiveModel> = (i..(i + batch).min(n))
            .map(|k| {
                let first = FIRST[k % FIRST.len()];
                let last = LAST[(k / 7) % LAST.len()];
                customer::ActiveModel {
                    id: Set(uuid::Uuid::now_v7().to_string()),
                    owner_id: Set(owner.to_string()),
                    email: Set(format!(
                        "{}.{}{k}@example.in",
                        first.to_lowercase(),
                        last.to_lowercase()
                    )),
                    name: Set(Some(format!("{first} {last}"))),
                    phone: Set((k % 3 == 0).then(|| format!("+9198{k:08}"))),
                    company: Set((k % 5 == 0).then(|| format!("{last} Traders"))),
                    notes: Set(None),
                    conversion_status: Set(STATUSES[(k * 7 / 3) % 4].to_string()),
                    lead_score: Set(((k * 37) % 101) as i32),
                    total_conversations: Set(((k * 13) % 9 + 1) as i64),
                    total_messages: Set(((k * 11) % 30) as i64),
                    total_page_views: Set(((k * 17) % 40) as i64),
                    total_session_seconds: Set(0),
                    sessions: Set(0),
                    total_purchases: Set((k % 11 == 0) as i64),
                    revenue_paise: Set(if k % 11 == 0 { 149_900 } else { 0 }),
                    source_campaign_id: Set(Some(campaign.to_string())),
                    source_campaign: Set(Some("Bench campaign".into())),
                    collected_data: Set("{}".into()),
                    visitor_id: Set(None),
                    last_conversation_date: Set(Some(
                        now - chrono::Duration::seconds(((k * 7919) % 31_536_000) as i64),
                    )),
                    created_at: Set(
                        now - chrono::Duration::seconds(((k * 104_729) % 31_536_000) as i64)
                    ),
                    updated_at: Set(now),
                }
            })
            .collect();
        let txn = db.begin().await.expect("txn");
        customer::Entity::insert_many(rows)
            .exec(&txn)
            .await
            .expect("customers");
        txn.commit().await.expect("commit");
        i += batch;
    }
    let mut i = 0;
    while i < m {
        let rows: Vec<conversation::ActiveModel> = (i..(i + batch).min(m))
            .map(|k| {
                let at = now - chrono::Duration::seconds(((k * 7919) % 31_536_000) as i64);
                let outcome = ["none", "conversion", "dismissal"][k % 3];
                conversation::ActiveModel {
                    id: Set(uuid::Uuid::now_v7().to_string()),
                    conversation_id: Set(format!("conv_bench{k:019}")),
                    campaign_id: Set(campaign.to_string()),
                    owner_id: Set(owner.to_string()),
                    visitor_id: Set(format!("v_bench_{k}")),
                    session_id: Set(None),
                    status: Set(if k % 4 == 0 { "active" } else { "completed" }.into()),
                    outcome: Set(outcome.into()),
                    ai_enabled: Set(true),
                    total_messages: Set(5),
                    visitor_messages: Set(2),
                    forms_offered: Set("[]".into()),
                    last_form_at: Set(None),
                    collected_data: Set(if outcome == "conversion" {
                        format!("{{\"email\":\"visitor{k}@example.in\"}}")
                    } else {
                        "{}".into()
                    }),
                    collected_text: Set(if outcome == "conversion" {
                        format!("visitor{k}@example.in")
                    } else {
                        String::new()
                    }),
                    user_context: Set("{\"deviceType\":\"mobile\"}".into()),
                    last_message: Set(format!(
                        "Shipping takes 3-5 days to {}. Anything else?",
                        ["Pune", "Jaipur", "Kochi", "Delhi"][k % 4]
                    )),
                    created_at: Set(at),
                    last_activity_at: Set(at),
                    completed_at: Set(None),
                    variant_id: Set(None),
                }
            })
            .collect();
        let txn = db.begin().await.expect("txn");
        conversation::Entity::insert_many(rows)
            .exec(&txn)
            .await
            .expect("conversations");
        txn.commit().await.expect("commit");
        i += batch;
    }
}

async fn measure(client: &reqwest::Client, base: &str, token: &str, path: &str) -> (f64, f64, u64) {
    let mut samples = Vec::with_capacity(SAMPLES);
    let mut total = 0;
    for _ in 0..SAMPLES {
        let t = Instant::now();
        let res = client
            .get(format!("{base}{path}"))
            .bearer_auth(token)
            .send()
            .await
            .expect("send");
        assert!(res.status().is_success(), "{path}: {}", res.status());
        let body: Value = res.json().await.expect("json");
        samples.push(t.elapsed());
        total = body["pagination"]["total"].as_u64().unwrap_or(0);
    }
    samples.sort();
    (pct(&samples, 0.5), pct(&samples, 0.95), total)
}

#[tokio::main]
async fn main() {
    let customers = env_count("CA_BENCH_CUSTOMERS", 1_000_000);
    let conversations = env_count("CA_BENCH_CONVERSATIONS", 100_000);
    let db = ca_migrations::testing::TestDb::new().await.expect("db");
    let backend = if db.url.starts_with("postgres") {
        "PostgreSQL"
    } else {
        "SQLite"
    };
    let listener = TcpListener::bind("127.0.0.1:0").expect("bind");
    let base = format!("http://{}", listener.local_addr().expect("addr"));
    let data = std::env::temp_dir().join(format!("ca-owner-bench-{}", uuid::Uuid::now_v7()));
    let config = ca_core::Config {
        database_url: db.url.clone(),
        bind: base.trim_start_matches("http://").to_string(),
        public_url: Some(base.clone()),
        data_dir: data.clone(),
        jwt_secret: Some("bench-secret-bench-secret-bench-secret-000000".into()),
        static_dir: data.join("none"),
        log: "warn".into(),
        ..ca_core::Config::default()
    };
    let state = ca_server::prepare(config).await.expect("prepare");
    tokio::spawn(ca_server::serve(state, listener).expect("serve"));
    let client = reqwest::Client::new();
    let reg: Value = client
        .post(format!("{base}/api/auth/register"))
        .json(&json!({"name": "Bench Owner", "email": "bench@example.in", "password": "secret1", "phone": "+91 9876543210"}))
        .send().await.expect("register").json().await.expect("json");
    let token = reg["token"].as_str().expect("token").to_string();
    let owner = reg["user"]["id"].as_str().expect("owner").to_string();
    let created: Value = client
        .post(format!("{base}/api/campaigns"))
        .bearer_auth(&token)
        .json(&json!({"name": "Bench campaign", "websiteUrl": "https://kesar.example.in"}))
        .send()
        .await
        .expect("campaign")
        .json()
        .await
        .expect("json");
    let campaign = created["campaign"]["_id"].as_str().expect("id").to_string();

    let t = Instant::now();
    seed(&db.conn, &owner, &campaign, customers, conversations).await;
    if backend == "PostgreSQL" {
        // What autovacuum does soon after a bulk load; measuring before it
        // has would time heap visits that a running install does not make.
        use sea_orm::ConnectionTrait;
        db.conn
            .execute_unprepared("VACUUM ANALYZE customers, conversations, customer_counts")
            .await
            .expect("vacuum");
    }
    println!(
        "backend: {backend}; seeded {customers} customers and {conversations} conversations for one owner in {:.1} s; {SAMPLES} sequential requests per call",
        t.elapsed().as_secs_f64()
    );
    println!(
        "{:<58} {:>9} {:>9} {:>9}",
        "call", "p50 ms", "p95 ms", "matches"
    );
    let calls = [
        (
            "customers: default (last active, desc)",
            "/api/customers/user",
        ),
        (
            "customers: search \"mehta\"",
            "/api/customers/user?search=mehta",
        ),
        (
            "customers: search \"no-such-person\" (no match)",
            "/api/customers/user?search=no-such-person",
        ),
        (
            "customers: status prospect",
            "/api/customers/user?status=prospect",
        ),
        (
            "customers: sort lead score",
            "/api/customers/user?sortBy=leadScore",
        ),
        (
            "customers: sort conversations",
            "/api/customers/user?sortBy=totalConversations",
        ),
        (
            "customers: sort last active, ascending",
            "/api/customers/user?sortOrder=asc",
        ),
        (
            "customers: status + sort lead score",
            "/api/customers/user?status=customer&sortBy=leadScore",
        ),
        (
            "customers: page 5,000 (offset 99,980)",
            "/api/customers/user?page=5000",
        ),
        (
            "customers: analytics overview (30d)",
            "/api/customers/analytics/overview?period=30d",
        ),
        ("conversations: default (10)", "/api/conversations/user"),
        (
            "conversations: outcome conversion",
            "/api/conversations/user?outcome=conversion",
        ),
        (
            "conversations: search \"kochi\"",
            "/api/conversations/user?search=kochi",
        ),
    ];
    for (name, path) in calls {
        let (p50, p95, total) = measure(&client, &base, &token, path).await;
        println!("{name:<58} {p50:>9.1} {p95:>9.1} {total:>9}");
    }

    // The export: rows/s and resident memory while it streams.
    let before = rss_mib();
    let peak = Arc::new(AtomicU64::new(before.to_bits()));
    let done = Arc::new(std::sync::atomic::AtomicBool::new(false));
    let sampler = {
        let peak = peak.clone();
        let done = done.clone();
        tokio::spawn(async move {
            while !done.load(Ordering::Relaxed) {
                let now = rss_mib();
                if now > f64::from_bits(peak.load(Ordering::Relaxed)) {
                    peak.store(now.to_bits(), Ordering::Relaxed);
                }
                tokio::time::sleep(Duration::from_millis(20)).await;
            }
        })
    };
    let t = Instant::now();
    let res = client
        .get(format!("{base}/api/customers/export/data?format=csv"))
        .bearer_auth(&token)
        .send()
        .await
        .expect("export");
    let mut stream = res.bytes_stream();
    let mut lines = 0u64;
    let mut bytes = 0u64;
    while let Some(chunk) = stream.next().await {
        let chunk = chunk.expect("chunk");
        bytes += chunk.len() as u64;
        lines += chunk.iter().filter(|b| **b == b'\n').count() as u64;
    }
    let secs = t.elapsed().as_secs_f64();
    done.store(true, Ordering::Relaxed);
    sampler.await.expect("sampler");
    let rows = lines.saturating_sub(1);
    println!(
        "customers export: {rows} rows, {:.1} MiB in {secs:.1} s = {:.0} rows/s; process RSS {before:.0} MiB before, peak {:.0} MiB while streaming",
        bytes as f64 / 1_048_576.0,
        rows as f64 / secs,
        f64::from_bits(peak.load(Ordering::Relaxed))
    );
    assert_eq!(rows as usize, customers, "every customer exported once");
    let _ = std::fs::remove_dir_all(data);
}
