#![allow(clippy::expect_used, clippy::unwrap_used)]
//! `cargo bench -p ca-server --bench chat_start` (SQLite), or with
//! `CA_TEST_POSTGRES_URL=postgres://…` for PostgreSQL.
//!
//! A burst of visitors opening the chat: `CA_BENCH_CLIENTS` at a time
//! (default 16) call `POST /api/widget/conversations` for
//! `CA_BENCH_SECONDS` (default 10) on one campaign of an owner on a trial
//! (a plan with a monthly AI-conversation allowance, so the allowance is
//! checked on every start). Each visitor is new. Prints starts per second
//! and the latency spread; asserts nothing about time.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use serde_json::{Value, json};

mod common;
use common::{SITE, env_or, pct};

#[tokio::main]
async fn main() {
    let clients = env_or("CA_BENCH_CLIENTS", 16);
    let seconds = env_or("CA_BENCH_SECONDS", 10) as u64;
    let bench = common::Bench::start(false).await;
    let (backend, base) = (bench.backend, bench.base.clone());
    let client = reqwest::Client::new();
    let reg: Value = client
        .post(format!("{base}/api/auth/register"))
        .json(&json!({"name": "Bench Owner", "email": "chats@example.in", "password": "secret1", "phone": "+91 9876543210"}))
        .send().await.expect("register").json().await.expect("json");
    let token = reg["token"].as_str().expect("token").to_string();
    let created: Value = client
        .post(format!("{base}/api/campaigns"))
        .bearer_auth(&token)
        .json(&json!({"name": "Diwali exit offer", "websiteUrl": SITE}))
        .send()
        .await
        .expect("campaign")
        .json()
        .await
        .expect("json");
    let campaign = created["campaign"]["_id"].as_str().expect("id").to_string();

    let http = reqwest::Client::builder()
        .pool_max_idle_per_host(clients)
        .build()
        .expect("client");
    let next = Arc::new(AtomicUsize::new(0));
    let errors = Arc::new(AtomicUsize::new(0));
    let until = Instant::now() + Duration::from_secs(seconds);
    let started = Instant::now();
    let mut tasks = Vec::new();
    for _ in 0..clients {
        let (http, next, errors) = (http.clone(), next.clone(), errors.clone());
        let (base, campaign) = (base.clone(), campaign.clone());
        tasks.push(tokio::spawn(async move {
            let mut samples = Vec::new();
            while Instant::now() < until {
                let i = next.fetch_add(1, Ordering::Relaxed);
                let t = Instant::now();
                let res = http
                    .post(format!("{base}/api/widget/conversations"))
                    .header("origin", SITE)
                    .json(&json!({"campaignId": campaign, "visitorId": format!("v_chat_{i:08}"),
                                  "userContext": {"deviceType": "mobile", "currentUrl": format!("{SITE}/sarees/silk")}}))
                    .send()
                    .await;
                match res {
                    Ok(r) if r.status().as_u16() == 201 => {
                        let _ = r.bytes().await;
                        samples.push(t.elapsed());
                    }
                    Ok(r) => {
                        if errors.fetch_add(1, Ordering::Relaxed) == 0 {
                            eprintln!("first refusal: {} {}", r.status(), r.text().await.unwrap_or_default());
                        }
                    }
                    Err(e) => {
                        if errors.fetch_add(1, Ordering::Relaxed) == 0 {
                            eprintln!("first error: {e}");
                        }
                    }
                }
            }
            samples
        }));
    }
    let mut all = Vec::new();
    for t in tasks {
        all.extend(t.await.expect("join"));
    }
    let took = started.elapsed().as_secs_f64();
    all.sort();
    println!(
        "backend: {backend}; {clients} concurrent visitors for {seconds} s, server and load on one machine"
    );
    println!(
        "chat starts: {} answered 201 ({:.0}/s), {} errors; p50 {:.2} ms, p99 {:.2} ms, max {:.2} ms",
        all.len(),
        all.len() as f64 / took,
        errors.load(Ordering::Relaxed),
        pct(&all, 0.5),
        pct(&all, 0.99),
        pct(&all, 1.0)
    );
    if let Some(stats) = bench.state.conversations.start_stats() {
        let (stored, batches) = (
            stats.stored.load(Ordering::Relaxed),
            stats.batches.load(Ordering::Relaxed),
        );
        println!(
            "written in {batches} transactions: {:.1} starts per transaction",
            stored as f64 / batches.max(1) as f64
        );
    }
    bench.finish().await;
}
