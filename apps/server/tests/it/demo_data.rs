//! The demo owner's sample month (`ca-server demo` with CA_DEMO_DATA, what
//! `cargo xtask run` does): made on a new database only, through the
//! product's own steps, and read back through the owner's API as the
//! dashboard reads it.

use std::collections::BTreeSet;
use std::process::Command;

use chrono::{DateTime, Duration, Utc};
use serde_json::Value;

use crate::helpers::{SECRET, TestApp, spawn_app};

const OWNER: &str = "owner@demo.convertassist.local";

fn demo(app: &TestApp, data: &std::path::Path, payu: bool) -> String {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_ca-server"));
    cmd.arg("demo")
        .env("CA_DATABASE_URL", &app.db.url)
        .env("CA_DATA_DIR", data)
        .env("CA_JWT_SECRET", SECRET)
        .env("CA_PUBLIC_URL", &app.base)
        .env("CA_DEMO_DATA", "true")
        .env("CA_LOG", "warn")
        .env_remove("CA_PAYU_KEY")
        .env_remove("CA_PAYU_SALT")
        .env_remove("CA_LLM_BASE_URL")
        .env_remove("CA_SMTP_URL");
    if payu {
        cmd.env("CA_PAYU_KEY", "test-key")
            .env("CA_PAYU_SALT", "test-salt")
            .env("CA_PAYU_MODE", "test");
    }
    let out = cmd.output().expect("run ca-server demo");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

fn owner_password(stdout: &str) -> String {
    stdout
        .lines()
        .find_map(|l| l.trim().strip_prefix("owner:"))
        .and_then(|l| l.split(" / ").nth(1))
        .expect("the owner's credentials are printed")
        .trim()
        .to_string()
}

fn data_dir() -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("ca-demo-{}", uuid::Uuid::now_v7()));
    std::fs::create_dir_all(&dir).expect("dir");
    dir
}

/// What the owner's screens show: the campaign figures of the dashboard,
/// customers per status, conversations per outcome.
async fn figures(app: &TestApp, t: &str) -> Value {
    let campaigns = app.get("/api/campaigns", Some(t)).await;
    assert_eq!(campaigns.status, 200, "{}", campaigns.body);
    let mut statuses = serde_json::Map::new();
    for status in ["lead", "prospect", "customer", "churned"] {
        let r = app
            .get(&format!("/api/customers/user?status={status}"), Some(t))
            .await;
        statuses.insert(status.into(), r.body["pagination"]["total"].clone());
    }
    let month = app
        .get("/api/conversations/analytics?period=30d", Some(t))
        .await;
    assert_eq!(month.status, 200, "{}", month.body);
    serde_json::json!({
        "campaigns": campaigns.body["campaigns"],
        "customers": statuses,
        "conversations": {
            "total": month.body["totalConversations"],
            "conversions": month.body["conversions"],
            "dismissals": month.body["dismissals"],
            "active": month.body["active"],
        },
    })
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_demo_owner_gets_a_month_of_activity_once() {
    let app = spawn_app().await;
    let data = data_dir();
    let out = demo(&app, &data, false);
    assert!(out.contains("the owner has demo data"), "{out}");
    let login = app.login(OWNER, &owner_password(&out)).await;
    assert_eq!(login.status, 200, "{}", login.body);
    let token = login.body["token"].as_str().expect("token").to_string();
    let t = Some(token.as_str());

    let first = figures(&app, &token).await;
    // One live campaign, clearly demo data, on a reserved example domain.
    let campaigns = first["campaigns"].as_array().expect("campaigns");
    assert_eq!(campaigns.len(), 1);
    let c = &campaigns[0];
    assert!(c["name"].as_str().expect("name").starts_with("Demo: "));
    assert_eq!(c["websiteUrl"], "https://demo-shop.example.com");
    assert_eq!(c["isActive"], true);
    let kb = c["settings"]["aiSettings"]["knowledgeBase"]
        .as_str()
        .expect("knowledge base");
    assert!(kb.contains("₹") && kb.contains("Returns"), "{kb}");
    // Every visitor saw the popup; 60 left their email; the purchases of 16
    // of them count as the campaign's revenue.
    assert_eq!(c["analytics"]["impressions"], 78);
    assert_eq!(c["analytics"]["conversions"], 60);
    let revenue = c["analytics"]["revenue"].as_f64().expect("revenue");
    assert!(revenue > 10_000.0, "{revenue}");
    // About 60 customers across the four statuses.
    assert_eq!(
        first["customers"],
        serde_json::json!({"lead": 24, "prospect": 12, "customer": 16, "churned": 8})
    );
    // Converted, dismissed and still active conversations.
    assert_eq!(
        first["conversations"],
        serde_json::json!({"total": 78, "conversions": 60, "dismissals": 12, "active": 6})
    );

    // Customers have page views, session time and example.com emails; the
    // buyers have their purchases.
    let list = app.get("/api/customers/user?limit=100", t).await;
    let rows = list.body["customers"].as_array().expect("rows");
    assert_eq!(rows.len(), 60);
    for row in rows {
        assert!(
            row["email"]
                .as_str()
                .is_some_and(|e| e.ends_with("@example.com")),
            "{row}"
        );
        assert!(row["totalPageViews"].as_i64().unwrap_or(0) >= 3, "{row}");
        assert!(
            row["averageSessionDuration"].as_i64().unwrap_or(0) > 0,
            "{row}"
        );
    }
    let buyers: Vec<&Value> = rows
        .iter()
        .filter(|r| r["conversionStatus"] == "customer")
        .collect();
    assert!(
        buyers
            .iter()
            .all(|r| r["totalPurchases"] == 1 && r["totalRevenue"].as_f64().unwrap_or(0.0) > 0.0),
        "{buyers:?}"
    );

    // Spread over the last 30 days: every period has something, the week
    // less than the month, and the conversations fall on many days.
    let week = app.get("/api/conversations/analytics?period=7d", t).await;
    let day = app.get("/api/conversations/analytics?period=1d", t).await;
    let w = week.body["totalConversations"].as_i64().expect("week");
    let d = day.body["totalConversations"].as_i64().expect("day");
    assert!(d > 0 && d < w && w < 78, "day {d}, week {w}");
    let conversations = app.get("/api/conversations/user?limit=100", t).await;
    let dates: Vec<DateTime<Utc>> = conversations.body["conversations"]
        .as_array()
        .expect("conversations")
        .iter()
        .map(|c| {
            c["createdAt"]
                .as_str()
                .expect("createdAt")
                .parse()
                .expect("date")
        })
        .collect();
    assert_eq!(dates.len(), 78);
    let now = Utc::now();
    assert!(
        dates
            .iter()
            .all(|d| *d > now - Duration::days(30) && *d <= now)
    );
    let days: BTreeSet<String> = dates
        .iter()
        .map(|d| d.format("%Y-%m-%d").to_string())
        .collect();
    assert!(days.len() >= 25, "{days:?}");
    // Some conversations are long.
    let long = conversations.body["conversations"]
        .as_array()
        .expect("conversations")
        .iter()
        .filter(|c| c["analytics"]["totalMessages"].as_i64().unwrap_or(0) >= 12)
        .count();
    assert!(long >= 10, "{long} long conversations");

    // A paid Basic subscription with its invoice.
    let sub = app.get("/api/billing/subscription", t).await;
    assert_eq!(sub.body["data"]["status"], "active", "{}", sub.body);
    let me = app.get("/api/auth/me", t).await;
    assert_eq!(me.body["user"]["planId"], "basic");
    let history = app.get("/api/payment/history", t).await;
    let payments = history.body["data"].as_array().expect("history");
    assert_eq!(payments.len(), 1, "{}", history.body);
    assert_eq!(payments[0]["status"], "success");
    let txnid = payments[0]["txnid"].as_str().expect("txnid");
    let invoice = app.get(&format!("/api/payment/invoice/{txnid}"), t).await;
    assert_eq!(invoice.status, 200, "{}", invoice.body);

    // Nobody is emailed about the made-up leads.
    let mailer = ca_auth::Mailer::new(None, "ConvertAssist <noreply@example.com>").expect("mailer");
    let sent = ca_customers::notifications::send_due(&app.db.conn, &mailer, &app.base, Utc::now())
        .await
        .expect("send due");
    assert_eq!(sent, 0);
    assert_eq!(app.outbox_count(OWNER).await, 0);

    // A second start changes nothing.
    let again = demo(&app, &data, false);
    assert!(again.contains("created earlier"), "{again}");
    assert_eq!(figures(&app, &token).await, first);
    let _ = std::fs::remove_dir_all(&data);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn no_demo_data_while_real_payments_are_configured() {
    let app = spawn_app().await;
    let data = data_dir();
    let out = demo(&app, &data, true);
    assert!(out.contains("no demo data"), "{out}");
    let login = app.login(OWNER, &owner_password(&out)).await;
    let token = login.body["token"].as_str().expect("token").to_string();
    let campaigns = app.get("/api/campaigns", Some(&token)).await;
    assert_eq!(campaigns.body["campaigns"], serde_json::json!([]));
    let customers = app.get("/api/customers/user", Some(&token)).await;
    assert_eq!(customers.body["pagination"]["total"], 0);
    let _ = std::fs::remove_dir_all(&data);
}
