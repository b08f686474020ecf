#![allow(clippy::expect_used, clippy::unwrap_used)]
//! `cargo bench -p ca-server --bench assistant`
//!
//! 1. The builtin assistant's reply latency (p50/p95) over a 10,000-character
//!    knowledge base, in process.
//! 2. The server's added latency to first token: time to the first `token`
//!    event through `POST /api/widget/conversations/{id}/messages` (SSE) with a
//!    model server that always waits a fixed time, minus the time to first
//!    token when the same model server is called directly.
//!
//! Prints a table; asserts nothing about time.

use std::net::TcpListener;
use std::time::{Duration, Instant};

use ca_conversations::assistant::builtin::{Knowledge, reply};
use ca_conversations::testing::{Script, fake_server};
use futures_util::StreamExt;
use serde_json::{Value, json};

const MODEL_DELAY: Duration = Duration::from_millis(50);

/// A 10,000-character knowledge base of an Indian online shop.
fn knowledge_base() -> String {
    let topics = [
        (
            "Shipping",
            "We ship across India. Delivery takes 3-5 business days to metro cities and 5-8 days elsewhere. Shipping is free above ₹999; below that a flat ₹79 applies.",
        ),
        (
            "Cash on delivery",
            "COD is available on orders up to ₹10,000 for a ₹49 handling fee. Pay by cash or UPI to the courier.",
        ),
        (
            "Returns",
            "Return unused products within 7 days of delivery. Refunds reach your original payment method within 5-7 working days.",
        ),
        (
            "Exchanges",
            "Exchange for another size or colour within 10 days; we pick up the item from your door at no cost.",
        ),
        (
            "Silk sarees",
            "Banarasi and Kanjeevaram silk sarees cost ₹4,999 to ₹18,000 and come with a silk mark certificate.",
        ),
        (
            "Cotton sarees",
            "Handloom cotton sarees start at ₹1,299; they can be hand washed in cold water.",
        ),
        (
            "Kurtas",
            "Block-printed cotton kurtas cost ₹899 to ₹2,499 in sizes XS to 3XL.",
        ),
        (
            "Gift cards",
            "Gift cards from ₹500 to ₹20,000 are valid for a year and delivered by email.",
        ),
        (
            "Payment",
            "We accept UPI, credit and debit cards, net banking, EMI on cards above ₹3,000, and wallets.",
        ),
        (
            "Tailoring",
            "Blouse stitching costs ₹650 and takes 7 extra days; send your measurements after ordering.",
        ),
    ];
    let mut kb = String::new();
    let mut i = 0;
    while kb.chars().count() < 10_000 {
        let (title, text) = topics[i % topics.len()];
        kb.push_str(&format!("{title} ({}): {text}\n\n", i / topics.len() + 1));
        i += 1;
    }
    kb.chars().take(10_000).collect()
}

fn percentile(sorted: &[Duration], p: f64) -> Duration {
    let idx = ((sorted.len() as f64 - 1.0) * p).round() as usize;
    sorted[idx]
}

fn report(name: &str, mut samples: Vec<Duration>) -> (Duration, Duration) {
    samples.sort();
    let (p50, p95) = (percentile(&samples, 0.5), percentile(&samples, 0.95));
    println!(
        "{name:<48} n={:<5} p50={:>9.3} ms  p95={:>9.3} ms",
        samples.len(),
        p50.as_secs_f64() * 1000.0,
        p95.as_secs_f64() * 1000.0
    );
    (p50, p95)
}

fn builtin_latency() {
    let kb = knowledge_base();
    let info = "Kesar Handlooms, Jaipur. Call +91 98290 12345 or email care@kesarhandlooms.in.";
    let questions = [
        "Do you have cash on delivery?",
        "How many days does delivery take to Pune?",
        "Can I return a saree?",
        "What does a silk saree cost?",
        "Is there any discount?",
        "Do you sell refrigerators?",
        "Can I talk to a human?",
        "hello",
        "How do I wash cotton?",
        "Do you do blouse stitching and how long does it take?",
    ];
    let knowledge = Knowledge {
        knowledge_base: &kb,
        business_info: info,
    };
    for q in questions {
        std::hint::black_box(reply(&knowledge, q));
    }
    let samples: Vec<Duration> = (0..2000)
        .map(|i| {
            let q = questions[i % questions.len()];
            let t = Instant::now();
            std::hint::black_box(reply(&knowledge, q));
            t.elapsed()
        })
        .collect();
    println!("knowledge base: {} characters", kb.chars().count());
    report("builtin reply (10,000-char knowledge base)", samples);
}

/// Time until the first body chunk containing `needle` arrives.
async fn time_to(res: reqwest::Response, needle: &str, started: Instant) -> Duration {
    let mut body = res.bytes_stream();
    let mut seen = String::new();
    while let Some(chunk) = body.next().await {
        seen.push_str(&String::from_utf8_lossy(&chunk.expect("chunk")));
        if seen.contains(needle) {
            return started.elapsed();
        }
    }
    panic!("never saw {needle:?} in {seen:?}");
}

async fn added_latency() {
    let (model, _requests) = fake_server(Script::Delayed(
        MODEL_DELAY,
        vec!["Namaste! ", "COD is available."],
    ))
    .await;
    let db = ca_migrations::testing::TestDb::new().await.expect("db");
    let listener = TcpListener::bind("127.0.0.1:0").expect("bind");
    let base = format!("http://{}", listener.local_addr().expect("addr"));
    let data = std::env::temp_dir().join(format!("ca-bench-{}", uuid::Uuid::now_v7()));
    let config = ca_core::Config {
        database_url: db.url.clone(),
        bind: base.trim_start_matches("http://").to_string(),
        public_url: Some(base.clone()),
        data_dir: data.clone(),
        jwt_secret: Some("bench-secret-bench-secret-bench-secret-0000".into()),
        static_dir: data.join("none"),
        llm_base_url: Some(model.clone()),
        widget_ip_per_minute: 1_000_000,
        widget_campaign_per_minute: 1_000_000,
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
    let created: Value = client
        .post(format!("{base}/api/campaigns"))
        .bearer_auth(&token)
        .json(&json!({"name": "Bench", "websiteUrl": "https://kesar.example.in", "settings": {"aiSettings": {"knowledgeBase": knowledge_base()}}}))
        .send().await.expect("campaign").json().await.expect("json");
    let campaign = created["campaign"]["_id"].as_str().expect("id").to_string();

    let mut direct = Vec::new();
    let mut through = Vec::new();
    let mut conversation = String::new();
    for i in 0..150 {
        if i % 30 == 0 {
            let started: Value = client
                .post(format!("{base}/api/widget/conversations"))
                .json(
                    &json!({"campaignId": campaign, "visitorId": format!("bench-visitor-{i:04}")}),
                )
                .send()
                .await
                .expect("start")
                .json()
                .await
                .expect("json");
            conversation = started["conversationId"].as_str().expect("id").to_string();
        }
        let t = Instant::now();
        let res = client
            .post(format!("{model}/v1/chat/completions"))
            .json(&json!({"model": "m", "stream": true, "messages": [{"role": "user", "content": "COD?"}]}))
            .send().await.expect("model");
        direct.push(time_to(res, "\"content\"", t).await);

        let t = Instant::now();
        let res = client
            .post(format!(
                "{base}/api/widget/conversations/{conversation}/messages"
            ))
            .header("accept", "text/event-stream")
            .json(&json!({"message": "Do you have cash on delivery?"}))
            .send()
            .await
            .expect("message");
        through.push(time_to(res, "event: token", t).await);
    }
    // Skip the warm-up.
    let (d50, d95) = report(
        "model server called directly: first token",
        direct.split_off(10),
    );
    let (s50, s95) = report(
        "through the server (SSE): first token",
        through.split_off(10),
    );
    println!(
        "{:<48} p50={:>9.3} ms  p95={:>9.3} ms   (model waits {} ms)",
        "server's added latency to first token",
        (s50.as_secs_f64() - d50.as_secs_f64()) * 1000.0,
        (s95.as_secs_f64() - d95.as_secs_f64()) * 1000.0,
        MODEL_DELAY.as_millis()
    );
    let _ = std::fs::remove_dir_all(data);
}

fn main() {
    builtin_latency();
    let rt = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .expect("runtime");
    rt.block_on(added_latency());
}
