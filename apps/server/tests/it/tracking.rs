//! The widget's visitor-side calls: public configuration, events through the
//! batched writer, leads, purchases and attribution.

use std::time::Duration;

use ca_campaigns::entities::{campaign, monthly_visitor};
use ca_customers::entities::customer;
use ca_tracking::entities::campaign_touch;
use ca_tracking::event::{Event, Kind};
use chrono::{TimeZone, Utc};
use sea_orm::sea_query::Expr;
use sea_orm::{ColumnTrait, EntityTrait, PaginatorTrait, QueryFilter};
use serde_json::{Value, json};

use crate::helpers::{Reply, TestApp, spawn_app_with};

const SITE: &str = "https://www.kesar.example.in";

/// An owner and a campaign on the site, on a server started by the test itself.
async fn load_campaign(client: &reqwest::Client, base: &str, email: &str) -> String {
    let reg: Value = client
        .post(format!("{base}/api/auth/register"))
        .json(&json!({"name": "Load Test", "email": email, "password": "secret1", "phone": "+91 9876543210"}))
        .send()
        .await
        .expect("register")
        .json()
        .await
        .expect("json");
    let token = reg["token"].as_str().expect("token");
    let created: Value = client
        .post(format!("{base}/api/campaigns"))
        .bearer_auth(token)
        .json(&json!({"name": "Load", "websiteUrl": SITE}))
        .send()
        .await
        .expect("create")
        .json()
        .await
        .expect("json");
    created["campaign"]["_id"].as_str().expect("id").to_string()
}

async fn owner_and_campaign(app: &TestApp, email: &str) -> (String, String) {
    let (token, _) = app.register(email, "secret1").await;
    let created = app
        .send(
            "POST",
            "/api/campaigns",
            Some(&token),
            json!({
                "name": "Kesar exit offer",
                "websiteUrl": format!("{SITE}/shop"),
                "settings": {
                    "aiSettings": {"initialMessage": "Namaste!", "knowledgeBase": "SECRET-KB COD is available.", "businessInfo": "SECRET-INFO", "customInstructions": "SECRET-INSTR"},
                    "popup": {"design": {"headerTitle": "Wait!"}}
                }
            }),
        )
        .await;
    assert_eq!(created.status, 201, "{}", created.body);
    (
        token,
        created.body["campaign"]["_id"]
            .as_str()
            .expect("id")
            .to_string(),
    )
}

async fn post_from(app: &TestApp, path: &str, origin: Option<&str>, body: Value) -> Reply {
    let mut req = app
        .client
        .post(app.url(path))
        .header("content-type", "text/plain;charset=UTF-8")
        .body(body.to_string());
    if let Some(o) = origin {
        req = req.header("origin", o);
    }
    Reply::from(req.send().await.expect("send")).await
}

/// Sends a widget event and waits until what it was answered is stored.
async fn event(app: &TestApp, campaign: &str, visitor: &str, kind: &str) -> Reply {
    let reply = post_from(
        app,
        "/api/widget/events",
        Some("https://kesar.example.in"),
        json!({"campaignId": campaign, "visitorId": visitor, "type": kind}),
    )
    .await;
    app.events.flush().await;
    reply
}

/// Waits until `check` holds (the batched writer flushes within a second).
async fn eventually<F, Fut>(mut check: F)
where
    F: FnMut() -> Fut,
    Fut: std::future::Future<Output = bool>,
{
    for _ in 0..60 {
        if check().await {
            return;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    panic!("condition not reached within 6 s");
}

async fn first_view(app: &TestApp, token: &str, id: &str) -> Value {
    app.get(&format!("/api/campaigns/{id}/analytics"), Some(token))
        .await
        .body["analytics"]["firstPageViewAt"]
        .clone()
}

async fn impressions(app: &TestApp, id: &str) -> i64 {
    campaign::Entity::find_by_id(id.to_string())
        .one(&app.db.conn)
        .await
        .expect("query")
        .expect("campaign")
        .impressions
}

/// The campaign's owner id.
async fn owner_of(app: &TestApp, id: &str) -> String {
    campaign::Entity::find_by_id(id.to_string())
        .one(&app.db.conn)
        .await
        .expect("query")
        .expect("campaign")
        .owner_id
}

/// Sends `n` impressions at once from the campaign's site, each from its own
/// visitor; each task gives the status it was answered (0: no answer).
fn send_impressions(
    client: &reqwest::Client,
    base: &str,
    campaign: &str,
    n: usize,
    tag: &str,
) -> Vec<tokio::task::JoinHandle<u16>> {
    (0..n)
        .map(|i| {
            let client = client.clone();
            let url = format!("{base}/api/widget/events");
            let body = json!({"campaignId": campaign, "visitorId": format!("v_{tag}_{i:06}"), "type": "impression"});
            tokio::spawn(async move {
                client
                    .post(url)
                    .header("origin", SITE)
                    .header("content-type", "text/plain")
                    .body(body.to_string())
                    .send()
                    .await
                    .map(|r| r.status().as_u16())
                    .unwrap_or(0)
            })
        })
        .collect()
}

/// Another connection's write transaction holding the database: SQLite's one
/// write lock, or on PostgreSQL a lock on the campaigns table in `pg_mode`.
/// Dropping or rolling back the transaction releases it.
async fn hold_write_lock(
    url: &str,
    pg_mode: &str,
) -> (sea_orm::DatabaseConnection, ca_core::db::WriteTxn) {
    use sea_orm::ConnectionTrait;
    let holder = ca_core::db::connect(url).await.expect("holder");
    let lock = ca_core::db::begin_write(&holder).await.expect("begin");
    let sql = if ca_core::db::is_postgres(&holder) {
        format!("LOCK TABLE campaigns IN {pg_mode} MODE")
    } else {
        // BEGIN IMMEDIATE holds the lock; a write makes sure of it.
        "CREATE TABLE lock_holder (x INTEGER)".to_string()
    };
    lock.execute_unprepared(&sql).await.expect("lock");
    (holder, lock)
}

#[tokio::test]
async fn the_public_configuration_is_cacheable_and_keeps_secrets() {
    let app = spawn_app_with(|c| c.widget_config_cache_secs = 0).await;
    let (token, id) = owner_and_campaign(&app, "config@example.in").await;
    let path = format!("/api/widget/campaigns/{id}/config");
    let res = app
        .client
        .get(app.url(&path))
        .header("origin", "https://anywhere.example.com")
        .send()
        .await
        .expect("send");
    assert_eq!(res.status(), 200);
    let etag = res.headers()["etag"].to_str().expect("etag").to_string();
    assert_eq!(res.headers()["cache-control"], "public, max-age=60");
    assert_eq!(res.headers()["access-control-allow-origin"], "*");
    let text = res.text().await.expect("body");
    for secret in ["SECRET-KB", "SECRET-INFO", "SECRET-INSTR", "knowledgeBase"] {
        assert!(!text.contains(secret), "{secret} leaked: {text}");
    }
    let body: Value = serde_json::from_str(&text).expect("json");
    assert_eq!(body["active"], true);
    assert_eq!(body["campaign"]["greeting"], "Namaste!");
    assert_eq!(body["campaign"]["popup"]["design"]["headerTitle"], "Wait!");
    assert_eq!(body["campaign"]["exitIntent"]["delay"], 1000);
    assert_eq!(body["campaign"]["emailCapture"]["id"], "email-capture");

    let again = app
        .client
        .get(app.url(&path))
        .header("if-none-match", &etag)
        .send()
        .await
        .expect("send");
    assert_eq!(again.status(), 304);

    let toggled = app
        .send(
            "PATCH",
            &format!("/api/campaigns/{id}/toggle"),
            Some(&token),
            json!({}),
        )
        .await;
    assert_eq!(toggled.status, 200);
    let off = app.get(&path, None).await;
    assert_eq!(
        off.body,
        json!({"success": true, "active": false, "reason": "inactive"})
    );
    assert_ne!(off.headers["etag"].to_str().expect("etag"), etag);
    app.get("/api/widget/campaigns/nope/config", None)
        .await
        .error(404, "campaign_not_found");
}

/// Many visitors loading a campaign's widget at once get one configuration
/// built from the database, not one each: first when nothing is in memory
/// (the others wait for that build), and again when the kept one has aged
/// (the others get the kept one meanwhile).
#[tokio::test]
async fn concurrent_configuration_loads_build_it_once() {
    const BUILDS: &str = "convertassist_widget_config_builds_total";
    let app = spawn_app_with(|c| c.widget_config_cache_secs = 3).await;
    let (_, id) = owner_and_campaign(&app, "config-once@example.in").await;
    let path = format!("/api/widget/campaigns/{id}/config");
    let load_all = || {
        futures_util::future::join_all((0..40).map(|_| async {
            let res = app.client.get(app.url(&path)).send().await.expect("send");
            let status = res.status().as_u16();
            let body: Value = res.json().await.expect("json");
            (status, body["active"].as_bool())
        }))
    };
    let before = app.metric(BUILDS).await;
    let first = load_all().await;
    assert!(first.iter().all(|r| *r == (200, Some(true))), "{first:?}");
    assert_eq!(app.metric(BUILDS).await - before, 1.0, "first loads");

    tokio::time::sleep(Duration::from_millis(3100)).await;
    let aged = load_all().await;
    assert!(aged.iter().all(|r| *r == (200, Some(true))), "{aged:?}");
    assert_eq!(
        app.metric(BUILDS).await - before,
        2.0,
        "loads after it aged"
    );
}

#[tokio::test]
async fn the_visitor_limit_and_a_lapsed_plan_switch_the_widget_off() {
    let app = spawn_app_with(|c| c.widget_config_cache_secs = 0).await;
    let (_, id) = owner_and_campaign(&app, "limits@example.in").await;
    let path = format!("/api/widget/campaigns/{id}/config");
    let owner = owner_of(&app, &id).await;
    // The trial allows 1,000 visitors a month; the popup keeps showing for
    // a grace of 10 % more and stops at 1,100.
    let now = Utc::now();
    let visitors = |range: std::ops::Range<i32>| -> Vec<monthly_visitor::ActiveModel> {
        range
            .map(|i| monthly_visitor::ActiveModel {
                owner_id: sea_orm::Set(owner.clone()),
                period: sea_orm::Set(ca_campaigns::counters::period_of(now)),
                visitor_id: sea_orm::Set(format!("visitor-{i:05}")),
                first_seen_at: sea_orm::Set(now),
            })
            .collect()
    };
    for chunk in visitors(0..1000).chunks(200) {
        monthly_visitor::Entity::insert_many(chunk.to_vec())
            .exec(&app.db.conn)
            .await
            .expect("insert");
    }
    assert_eq!(app.get(&path, None).await.body["active"], true, "grace");
    monthly_visitor::Entity::insert_many(visitors(1000..1099))
        .exec(&app.db.conn)
        .await
        .expect("insert");
    assert_eq!(app.get(&path, None).await.body["active"], true, "1,099");
    monthly_visitor::Entity::insert_many(visitors(1099..1100))
        .exec(&app.db.conn)
        .await
        .expect("insert");
    assert_eq!(app.get(&path, None).await.body["reason"], "visitor_limit");
    monthly_visitor::Entity::delete_many()
        .exec(&app.db.conn)
        .await
        .expect("delete");
    assert_eq!(app.get(&path, None).await.body["active"], true);
    crate::billing::end_trial(&app, "limits@example.in").await;
    assert_eq!(app.get(&path, None).await.body["reason"], "plan_inactive");
}

#[tokio::test]
async fn events_come_only_from_the_campaigns_site_and_are_written_in_batches() {
    let app = spawn_app_with(|_| {}).await;
    let (_, id) = owner_and_campaign(&app, "events@example.in").await;
    let body = json!({"campaignId": id, "visitorId": "v_visitor_one", "type": "pageview"});
    post_from(&app, "/api/widget/events", None, body.clone())
        .await
        .error(403, "origin_not_allowed");
    post_from(
        &app,
        "/api/widget/events",
        Some("https://evil.example.com"),
        body.clone(),
    )
    .await
    .error(403, "origin_not_allowed");
    post_from(
        &app,
        "/api/widget/events",
        Some("https://kesar.example.in.evil.com"),
        body.clone(),
    )
    .await
    .error(403, "origin_not_allowed");
    for origin in [
        "https://kesar.example.in",
        "https://blog.kesar.example.in",
        &app.base,
    ] {
        let ok = post_from(&app, "/api/widget/events", Some(origin), body.clone()).await;
        assert_eq!(ok.status, 202, "{origin}: {}", ok.body);
        // This server's own page is the owner's Preview: answered, not counted.
        assert_eq!(ok.body["counted"], origin != app.base, "{origin}");
    }
    let previewed = json!({"campaignId": id, "visitorId": "v_previewer", "type": "impression"});
    let preview = post_from(&app, "/api/widget/events", Some(&app.base), previewed).await;
    assert_eq!(preview.status, 202);
    assert_eq!(preview.body["counted"], false);
    let bad = event(&app, &id, "v_visitor_one", "click").await;
    bad.error(400, "validation_failed");
    assert!(bad.body["errors"]["type"].is_array());
    event(&app, &id, "x", "pageview")
        .await
        .error(400, "validation_failed");
    post_from(
        &app,
        "/api/widget/events",
        Some(SITE),
        json!("not an object"),
    )
    .await
    .error(400, "malformed_json");

    assert_eq!(
        event(&app, &id, "v_visitor_two", "pageview").await.status,
        202
    );
    for _ in 0..3 {
        assert_eq!(
            event(&app, &id, "v_visitor_two", "impression").await.status,
            202
        );
    }
    let conn = app.db.conn.clone();
    eventually(|| {
        let conn = conn.clone();
        async move {
            monthly_visitor::Entity::find()
                .count(&conn)
                .await
                .expect("count")
                == 2
        }
    })
    .await;
    eventually(|| async { impressions(&app, &id).await == 3 }).await;
    let touch = campaign_touch::Entity::find()
        .one(&app.db.conn)
        .await
        .expect("q")
        .expect("a touch for the impression");
    assert_eq!(touch.visitor_id, "v_visitor_two");
    // Usage shows the month's unique visitors.
    let (token, _) = (app.login("events@example.in", "secret1").await, ());
    let token = token.body["token"].as_str().expect("token").to_string();
    let usage = app.get("/api/billing/usage", Some(&token)).await;
    assert_eq!(
        usage.body["data"]["visitors"]["current"], 2,
        "{}",
        usage.body
    );
    let (fresh_token, fresh) = owner_and_campaign(&app, "first-view@example.in").await;
    let preview_view = json!({"campaignId": fresh, "visitorId": "v_previewer", "type": "pageview"});
    post_from(&app, "/api/widget/events", Some(&app.base), preview_view).await;
    assert_eq!(
        first_view(&app, &fresh_token, &fresh).await,
        Value::Null,
        "the Preview installs nothing"
    );
    assert_eq!(
        event(&app, &fresh, "v_first_view", "pageview").await.status,
        202
    );
    assert!(
        first_view(&app, &fresh_token, &fresh).await.is_string(),
        "the site's first page view is marked"
    );
}

#[tokio::test]
async fn monthly_visitors_start_again_each_month() {
    let app = spawn_app_with(|_| {}).await;
    let (_, id) = owner_and_campaign(&app, "months@example.in").await;
    let owner = owner_of(&app, &id).await;
    let at = |d: u32, h: u32| {
        Utc.with_ymd_and_hms(
            2026,
            if d > 30 { 12 } else { 11 },
            if d > 30 { d - 30 } else { d },
            h,
            0,
            0,
        )
        .single()
        .expect("date")
    };
    let ev = |visitor: &str, when| Event {
        kind: Kind::PageView,
        owner_id: owner.clone(),
        campaign_id: id.clone(),
        visitor_id: visitor.to_string(),
        at: when,
        counts_visitor: true,
        arm: None,
    };
    // Nov 30 23:00 and Dec 1 00:00 (day 31 here) are different months.
    ca_tracking::writer::write(
        &app.db.conn,
        &[
            ev("v_alpha_0001", at(30, 23)),
            ev("v_alpha_0001", at(30, 23)),
            ev("v_beta_00001", at(30, 22)),
        ],
    )
    .await
    .expect("write");
    ca_tracking::writer::write(&app.db.conn, &[ev("v_alpha_0001", at(31, 0))])
        .await
        .expect("write");
    let user = ca_auth::entities::user::Entity::find_by_id(owner.clone())
        .one(&app.db.conn)
        .await
        .expect("q")
        .expect("owner");
    let nov = ca_billing::usage::usage(
        &app.db.conn,
        &user,
        ca_campaigns::counters::used(&app.db.conn, &user.id, at(30, 23))
            .await
            .expect("used"),
        at(30, 23),
    )
    .await
    .expect("usage");
    let dec = ca_billing::usage::usage(
        &app.db.conn,
        &user,
        ca_campaigns::counters::used(&app.db.conn, &user.id, at(31, 1))
            .await
            .expect("used"),
        at(31, 1),
    )
    .await
    .expect("usage");
    assert_eq!(nov.visitors.current, 2);
    assert_eq!(dec.visitors.current, 1);
    assert_eq!(
        dec.visitors.reset_date.to_rfc3339(),
        "2027-01-01T00:00:00+00:00"
    );
}

async fn start_conversation(app: &TestApp, campaign: &str, visitor: &str) -> String {
    let r = app
        .post(
            "/api/widget/conversations",
            json!({"campaignId": campaign, "visitorId": visitor}),
        )
        .await;
    assert_eq!(r.status, 201, "{}", r.body);
    r.body["conversationId"].as_str().expect("id").to_string()
}

async fn submit_email(app: &TestApp, conversation: &str, email: &str, name: Option<&str>) -> Reply {
    let mut values = json!({"email": email});
    if let Some(n) = name {
        values["name"] = json!(n);
    }
    app.post(
        &format!("/api/widget/conversations/{conversation}/forms"),
        json!({"values": values}),
    )
    .await
}

/// A campaign renamed after its first leads stays one campaign in Top
/// Performing Campaigns, under its name now: it was split in two rows (the
/// old name's leads and the new name's), which could push it, or another
/// campaign, out of the top five.
#[tokio::test]
async fn a_renamed_campaign_is_one_entry_under_its_new_name() {
    let app = spawn_app_with(|_| {}).await;
    let (token, id) = owner_and_campaign(&app, "renamed@example.in").await;
    let t = Some(token.as_str());
    for (i, email) in ["asha@example.in", "ravi@example.in"].iter().enumerate() {
        let c = start_conversation(&app, &id, &format!("v_before_rename_{i}")).await;
        assert_eq!(submit_email(&app, &c, email, None).await.status, 200);
    }
    let mut renamed = app.get(&format!("/api/campaigns/{id}"), t).await.body["campaign"].clone();
    renamed["name"] = json!("Kesar Diwali offer");
    let saved = app
        .send("PUT", &format!("/api/campaigns/{id}"), t, renamed)
        .await;
    assert_eq!(saved.status, 200, "{}", saved.body);
    let c = start_conversation(&app, &id, "v_after_rename").await;
    assert_eq!(
        submit_email(&app, &c, "meera@example.in", None)
            .await
            .status,
        200
    );

    let o = app.get("/api/customers/analytics/overview", t).await;
    assert_eq!(o.status, 200, "{}", o.body);
    assert_eq!(
        o.body["topCampaigns"],
        json!([{"_id": id, "campaignName": "Kesar Diwali offer", "customers": 3}])
    );
}

/// A form the owner fills in on their own Preview page is answered like any
/// other (the popup thanks them) but makes no lead: no customer, no
/// conversion, no lead email. The same form from the campaign's website is
/// a lead.
#[tokio::test]
async fn a_form_sent_from_the_owners_preview_makes_no_lead() {
    let app = spawn_app_with(|_| {}).await;
    let (token, id) = owner_and_campaign(&app, "preview-lead@example.in").await;
    let t = Some(token.as_str());
    let submit = |conversation: String, origin: String, email: &'static str| {
        let app = &app;
        async move {
            let res = app
                .client
                .post(app.url(&format!("/api/widget/conversations/{conversation}/forms")))
                .header("origin", origin)
                .json(&json!({"values": {"email": email, "name": "Owner Testing"}}))
                .send()
                .await
                .expect("send");
            Reply::from(res).await
        }
    };
    let tried = start_conversation(&app, &id, "v_owner_preview").await;
    let r = submit(tried, app.base.clone(), "owner.testing@example.in").await;
    assert_eq!(r.status, 200, "{}", r.body);
    let campaign = app.get(&format!("/api/campaigns/{id}/analytics"), t).await;
    assert_eq!(
        campaign.body["analytics"]["conversions"], 0,
        "{}",
        campaign.body
    );
    let customers = app.get("/api/customers/user", t).await;
    assert_eq!(
        customers.body["pagination"]["total"], 0,
        "{}",
        customers.body
    );

    let real = start_conversation(&app, &id, "v_real_visitor").await;
    let r = submit(real, SITE.to_string(), "meera@example.in").await;
    assert_eq!(r.status, 200, "{}", r.body);
    let campaign = app.get(&format!("/api/campaigns/{id}/analytics"), t).await;
    assert_eq!(
        campaign.body["analytics"]["conversions"], 1,
        "{}",
        campaign.body
    );
    let customers = app.get("/api/customers/user", t).await;
    assert_eq!(
        customers.body["pagination"]["total"], 1,
        "{}",
        customers.body
    );
}

#[tokio::test]
async fn a_submitted_email_makes_one_customer_and_one_conversion_per_conversation() {
    let app = spawn_app_with(|_| {}).await;
    let (_, id) = owner_and_campaign(&app, "leads@example.in").await;
    let c1 = start_conversation(&app, &id, "v_lead_visitor").await;
    app.post(
        &format!("/api/widget/conversations/{c1}/messages"),
        json!({"message": "Do you have COD?"}),
    )
    .await;
    assert_eq!(
        submit_email(&app, &c1, "Meera@Example.in", None)
            .await
            .status,
        200
    );
    assert_eq!(
        submit_email(&app, &c1, "meera@example.in", Some("Meera Iyer"))
            .await
            .status,
        200
    );
    let c2 = start_conversation(&app, &id, "v_lead_visitor").await;
    assert_eq!(
        submit_email(&app, &c2, "meera@example.in", None)
            .await
            .status,
        200
    );

    let camp = campaign::Entity::find_by_id(id.clone())
        .one(&app.db.conn)
        .await
        .expect("q")
        .expect("c");
    assert_eq!(camp.conversions, 2, "one per converting conversation");
    let customers = customer::Entity::find().all(&app.db.conn).await.expect("q");
    assert_eq!(customers.len(), 1, "unique per owner and email");
    let m = &customers[0];
    assert_eq!(m.email, "meera@example.in");
    // The popup's email field collects only the email; other fields are ignored.
    assert_eq!(m.name, None);
    assert_eq!(m.conversion_status, "lead");
    assert_eq!(m.source_campaign.as_deref(), Some("Kesar exit offer"));
    assert_eq!(m.total_conversations, 2);
    assert_eq!(m.visitor_id.as_deref(), Some("v_lead_visitor"));
    assert_eq!(m.lead_score, 20 + 2, "email and one message");
    let outcome = |c: String| {
        let conn = app.db.conn.clone();
        async move {
            ca_conversations::entities::conversation::Entity::find()
                .filter(ca_conversations::entities::conversation::Column::ConversationId.eq(c))
                .one(&conn)
                .await
                .expect("q")
                .expect("conv")
                .outcome
        }
    };
    assert_eq!(outcome(c1.clone()).await, "conversion");
    // Dismissing after converting keeps the conversion.
    app.post(
        &format!("/api/widget/conversations/{c1}/dismiss"),
        json!({}),
    )
    .await;
    assert_eq!(outcome(c1).await, "conversion");
    // Later page views of the visitor count on the customer.
    for _ in 0..2 {
        assert_eq!(
            event(&app, &id, "v_lead_visitor", "pageview").await.status,
            202
        );
    }
    assert_eq!(
        event(&app, &id, "v_someone_else", "pageview").await.status,
        202
    );
    let conn = app.db.conn.clone();
    eventually(|| {
        let conn = conn.clone();
        async move {
            customer::Entity::find()
                .one(&conn)
                .await
                .expect("q")
                .is_some_and(|c| c.total_page_views == 2 && c.lead_score == 20 + 2 + 2)
        }
    })
    .await;
    // Another owner's customer with the same email is another row.
    let (_, other) = owner_and_campaign(&app, "leads2@example.in").await;
    let c3 = start_conversation(&app, &other, "v_lead_visitor").await;
    submit_email(&app, &c3, "meera@example.in", None).await;
    assert_eq!(
        customer::Entity::find()
            .count(&app.db.conn)
            .await
            .expect("count"),
        2
    );
    // Deleting the campaign keeps its customers, with the campaign's name.
    let token = app.login("leads@example.in", "secret1").await.body["token"]
        .as_str()
        .expect("t")
        .to_string();
    app.send(
        "DELETE",
        &format!("/api/campaigns/{id}"),
        Some(&token),
        json!({}),
    )
    .await;
    let kept = customer::Entity::find()
        .filter(customer::Column::Email.eq("meera@example.in"))
        .filter(customer::Column::OwnerId.eq(camp.owner_id))
        .one(&app.db.conn)
        .await
        .expect("q")
        .expect("customer kept");
    assert_eq!(kept.source_campaign.as_deref(), Some("Kesar exit offer"));
    assert_eq!(kept.source_campaign_id, None);
}

async fn purchase(
    app: &TestApp,
    campaign: &str,
    visitor: &str,
    order: &str,
    value: Value,
) -> Reply {
    post_from(
        app,
        "/api/widget/purchases",
        Some("https://kesar.example.in"),
        json!({"campaignId": campaign, "visitorId": visitor, "value": value, "currency": "INR", "orderId": order}),
    )
    .await
}

#[tokio::test]
async fn purchases_are_attributed_within_the_window_and_counted_once() {
    let app = spawn_app_with(|_| {}).await;
    let (_, id) = owner_and_campaign(&app, "revenue@example.in").await;
    let revenue = |app: &TestApp| {
        let conn = app.db.conn.clone();
        let id = id.clone();
        async move {
            campaign::Entity::find_by_id(id)
                .one(&conn)
                .await
                .expect("q")
                .expect("c")
                .revenue_paise
        }
    };
    // A visitor who never met the campaign: recorded, not attributed.
    let stranger = purchase(&app, &id, "v_stranger_01", "ORD-1", json!(999)).await;
    assert_eq!(stranger.status, 200, "{}", stranger.body);
    assert_eq!(stranger.body["attributedCampaignId"], Value::Null);

    // A visitor who converted: attributed once, even when reported twice.
    let c = start_conversation(&app, &id, "v_buyer_0001").await;
    submit_email(&app, &c, "buyer@example.in", None).await;
    let first = purchase(&app, &id, "v_buyer_0001", "ORD-2", json!(1499.5)).await;
    assert_eq!(
        first.body["attributedCampaignId"],
        id.as_str(),
        "{}",
        first.body
    );
    assert_eq!(first.body["duplicate"], false);
    let again = purchase(&app, &id, "v_buyer_0001", "ORD-2", json!(1499.5)).await;
    assert_eq!(again.body["duplicate"], true);
    assert_eq!(revenue(&app).await, 149_950);
    let buyer = customer::Entity::find()
        .one(&app.db.conn)
        .await
        .expect("q")
        .expect("customer");
    assert_eq!(buyer.conversion_status, "customer");
    assert_eq!(buyer.total_purchases, 1);
    assert_eq!(buyer.revenue_paise, 149_950);

    // Interaction older than the 30-day window: not attributed.
    campaign_touch::Entity::update_many()
        .col_expr(
            campaign_touch::Column::LastAt,
            Expr::value(Utc::now() - chrono::Duration::days(31)),
        )
        .exec(&app.db.conn)
        .await
        .expect("age");
    let late = purchase(&app, &id, "v_buyer_0001", "ORD-3", json!("500")).await;
    assert_eq!(late.body["attributedCampaignId"], Value::Null);
    assert_eq!(revenue(&app).await, 149_950);

    // Bad input is refused and changes nothing.
    let bad = post_from(
        &app,
        "/api/widget/purchases",
        Some("https://kesar.example.in"),
        json!({"campaignId": id, "visitorId": "v_buyer_0001", "value": -3, "currency": "USD", "orderId": ""}),
    )
    .await;
    bad.error(400, "validation_failed");
    for field in ["value", "currency", "orderId"] {
        assert!(
            bad.body["errors"][field].is_array(),
            "{field}: {}",
            bad.body
        );
    }
    purchase(&app, &id, "v_buyer_0001", "ORD-4", json!(10.123))
        .await
        .error(400, "validation_failed");
    post_from(
        &app,
        "/api/widget/purchases",
        Some("https://elsewhere.example.com"),
        json!({"campaignId": id, "visitorId": "v_buyer_0001", "value": 10, "orderId": "ORD-5"}),
    )
    .await
    .error(403, "origin_not_allowed");
    assert_eq!(revenue(&app).await, 149_950);
    assert_eq!(
        ca_tracking::entities::purchase::Entity::find()
            .count(&app.db.conn)
            .await
            .expect("c"),
        3
    );
}

#[tokio::test]
async fn events_are_limited_per_ip() {
    let app = spawn_app_with(|c| c.widget_events_ip_per_minute = 3).await;
    let (_, id) = owner_and_campaign(&app, "flood-events@example.in").await;
    for _ in 0..3 {
        assert_eq!(
            event(&app, &id, "v_flooder_01", "pageview").await.status,
            202
        );
    }
    let limited = event(&app, &id, "v_flooder_01", "pageview").await;
    limited.error(429, "rate_limited");
    assert!(limited.headers.contains_key("retry-after"));
}

#[tokio::test]
async fn a_graceful_stop_under_event_load_loses_nothing() {
    let db = ca_migrations::testing::TestDb::new().await.expect("db");
    let listener = std::net::TcpListener::bind("127.0.0.1:0").expect("bind");
    let base = format!("http://{}", listener.local_addr().expect("addr"));
    let data = std::env::temp_dir().join(format!("ca-it-stop-{}", uuid::Uuid::now_v7()));
    let config = ca_core::Config {
        database_url: db.url.clone(),
        bind: base.trim_start_matches("http://").into(),
        public_url: Some(base.clone()),
        data_dir: data.clone(),
        jwt_secret: Some(crate::helpers::SECRET.into()),
        static_dir: data.join("none"),
        widget_events_ip_per_minute: 100_000,
        ..ca_core::Config::default()
    };
    let state = ca_server::prepare(config).await.expect("prepare");
    let writer = state.tracking.writer().clone();
    let server = ca_server::serve(state, listener).expect("serve");
    let handle = server.handle();
    let running = tokio::spawn(server);
    let client = reqwest::Client::new();
    let id = load_campaign(&client, &base, "stop@example.in").await;

    let sent = send_impressions(&client, &base, &id, 400, "load");
    let mut accepted = 0;
    for s in sent {
        if s.await.expect("join") == 202 {
            accepted += 1;
        }
    }
    // Stop at once; every event answered 202 is already stored.
    handle.stop(true).await;
    let _ = running.await;
    writer.flush().await;
    let stored = campaign::Entity::find_by_id(id)
        .one(&db.conn)
        .await
        .expect("q")
        .expect("c")
        .impressions;
    assert_eq!(accepted, 400);
    assert_eq!(stored, 400, "every accepted event is written");
    let _ = std::fs::remove_dir_all(data);
}

#[tokio::test]
async fn widget_files_are_cached_compressed_and_open_to_every_site() {
    let dir = std::env::temp_dir().join(format!("ca-widget-{}", uuid::Uuid::now_v7()));
    std::fs::create_dir_all(dir.join("chunks")).expect("dir");
    let loader = format!("(function(){{{}}})();", "var a=1;".repeat(400));
    std::fs::write(dir.join("ca-widget.js"), &loader).expect("write");
    std::fs::write(
        dir.join("chunks/popup-0123456789.js"),
        "export function open(){}".repeat(100),
    )
    .expect("write");
    let widget_dir = dir.clone();
    let app = spawn_app_with(move |c| c.widget_dir = widget_dir).await;

    let res = app
        .client
        .get(app.url("/widget/ca-widget.js"))
        .header("accept-encoding", "gzip, br")
        .header("origin", "https://kesar.example.in")
        .send()
        .await
        .expect("send");
    assert_eq!(res.status(), 200);
    let h = res.headers().clone();
    assert_eq!(h["cache-control"], "public, max-age=300");
    assert_eq!(h["access-control-allow-origin"], "*");
    assert!(
        h["content-type"]
            .to_str()
            .expect("type")
            .contains("javascript")
    );
    let encoding = h["content-encoding"].to_str().expect("encoding");
    assert!(encoding == "br" || encoding == "gzip", "{encoding}");
    let etag = h["etag"].to_str().expect("etag").to_string();
    let again = app
        .client
        .get(app.url("/widget/ca-widget.js"))
        .header("if-none-match", &etag)
        .send()
        .await
        .expect("send");
    assert_eq!(again.status(), 304);

    let chunk = app
        .client
        .get(app.url("/widget/chunks/popup-0123456789.js"))
        .send()
        .await
        .expect("send");
    assert_eq!(chunk.status(), 200);
    assert_eq!(
        chunk.headers()["cache-control"],
        "public, max-age=31536000, immutable"
    );
    let missing = app
        .client
        .get(app.url("/widget/nope.js"))
        .send()
        .await
        .expect("send");
    assert_eq!(missing.status(), 404);
    let _ = std::fs::remove_dir_all(dir);
}

#[tokio::test]
async fn oversized_event_bodies_are_refused() {
    let app = spawn_app_with(|_| {}).await;
    let (_, id) = owner_and_campaign(&app, "big@example.in").await;
    let huge = "x".repeat(64 * 1024);
    let res = post_from(
        &app,
        "/api/widget/events",
        Some("https://kesar.example.in"),
        json!({"campaignId": id, "visitorId": "v_big_visitor", "type": "pageview", "pad": huge}),
    )
    .await;
    assert_eq!(res.status, 413, "{}", res.body);
    assert_eq!(impressions(&app, &id).await, 0);
}

async fn engaged(
    app: &TestApp,
    campaign: &str,
    visitor: &str,
    seconds: Value,
    new_session: bool,
) -> Reply {
    let reply = post_from(
        app,
        "/api/widget/events",
        Some("https://kesar.example.in"),
        json!({"campaignId": campaign, "visitorId": visitor, "type": "engagement", "seconds": seconds, "newSession": new_session}),
    )
    .await;
    app.events.flush().await;
    reply
}

async fn customer_of(app: &TestApp, email: &str) -> customer::Model {
    customer::Entity::find()
        .filter(customer::Column::Email.eq(email))
        .one(&app.db.conn)
        .await
        .expect("q")
        .expect("customer")
}

#[tokio::test]
async fn engaged_time_becomes_the_customers_session_time_and_score() {
    let app = spawn_app_with(|_| {}).await;
    let (token, id) = owner_and_campaign(&app, "engaged@example.in").await;
    let visitor = "v_engaged_0001";
    // What the visitor does before leaving their email counts from the start.
    assert_eq!(event(&app, &id, visitor, "pageview").await.status, 202);
    assert_eq!(
        engaged(&app, &id, visitor, json!(12), true).await.status,
        202
    );
    let conv = start_conversation(&app, &id, visitor).await;
    assert_eq!(
        submit_email(&app, &conv, "reader@example.in", None)
            .await
            .status,
        200
    );
    let before = customer_of(&app, "reader@example.in").await;
    assert_eq!(
        (
            before.sessions,
            before.total_session_seconds,
            before.total_page_views
        ),
        (1, 12, 1)
    );
    assert_eq!(before.lead_score, 20 + 1, "email and a page view");

    // The page the lead was given on ends (reported as the same session), then
    // a later visit: two sessions, 72 + 90 seconds, 81 s on average.
    assert_eq!(
        engaged(&app, &id, visitor, json!(40), false).await.status,
        202
    );
    assert_eq!(
        engaged(&app, &id, visitor, json!(20), false).await.status,
        202
    );
    assert_eq!(
        engaged(&app, &id, visitor, json!(90), true).await.status,
        202
    );
    let after = customer_of(&app, "reader@example.in").await;
    assert_eq!((after.sessions, after.total_session_seconds), (2, 162));
    assert_eq!(
        after.lead_score,
        20 + 1 + 81 / 30,
        "session time adds to the score"
    );
    let listed = app.get("/api/customers/user", Some(&token)).await;
    assert_eq!(
        listed.body["customers"][0]["averageSessionDuration"], 81,
        "{}",
        listed.body
    );

    // Bad reports are refused and change nothing.
    for seconds in [
        json!(0),
        json!(1801),
        json!(-5),
        json!(2.5),
        json!("60"),
        Value::Null,
    ] {
        let bad = engaged(&app, &id, visitor, seconds.clone(), true).await;
        bad.error(400, "validation_failed");
        assert!(
            bad.body["errors"]["seconds"].is_array(),
            "{seconds}: {}",
            bad.body
        );
    }
    let unchanged = customer_of(&app, "reader@example.in").await;
    assert_eq!(
        (unchanged.sessions, unchanged.total_session_seconds),
        (2, 162)
    );
    // Another owner's customer with the same visitor id is not touched.
    let (_, other) = owner_and_campaign(&app, "engaged-other@example.in").await;
    assert_eq!(
        engaged(&app, &other, visitor, json!(600), true)
            .await
            .status,
        202
    );
    let unchanged = customer_of(&app, "reader@example.in").await;
    assert_eq!(unchanged.total_session_seconds, 162);
}

#[tokio::test]
async fn a_switched_off_campaign_counts_nothing() {
    let app = spawn_app_with(|c| c.widget_config_cache_secs = 0).await;
    let (token, id) = owner_and_campaign(&app, "switched@example.in").await;
    assert_eq!(
        event(&app, &id, "v_switch_0001", "impression").await.status,
        202
    );
    let off = app
        .send(
            "PATCH",
            &format!("/api/campaigns/{id}/toggle"),
            Some(&token),
            json!({}),
        )
        .await;
    assert_eq!(off.body["campaign"]["isActive"], false, "{}", off.body);
    for kind in ["impression", "pageview"] {
        event(&app, &id, "v_switch_0001", kind)
            .await
            .error(409, "campaign_inactive");
    }
    engaged(&app, &id, "v_switch_0001", json!(30), true)
        .await
        .error(409, "campaign_inactive");
    assert_eq!(impressions(&app, &id).await, 1);
}

/// Starts the server binary on `db_url`, listening on `port`, and waits
/// until it answers.
pub(crate) async fn start_server(
    db_url: &str,
    data: &std::path::Path,
    port: u16,
) -> std::process::Child {
    let base = format!("http://127.0.0.1:{port}");
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_ca-server"))
        .env("CA_DATABASE_URL", db_url)
        .env("CA_DATA_DIR", data)
        .env("CA_BIND", format!("127.0.0.1:{port}"))
        .env("CA_PUBLIC_URL", &base)
        .env("CA_JWT_SECRET", crate::helpers::SECRET)
        .env("CA_STATIC_DIR", data.join("none"))
        .env("CA_WIDGET_EVENTS_IP_PER_MINUTE", "10000000")
        .env("CA_WIDGET_EVENTS_CAMPAIGN_PER_MINUTE", "10000000")
        .env("CA_LOG", "error")
        .env("CA_WEBHOOKS_ALLOW_PRIVATE", "true")
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .expect("start the server");
    let client = reqwest::Client::new();
    for _ in 0..400 {
        if client.get(format!("{base}/healthz")).send().await.is_ok() {
            return child;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    let _ = child.kill();
    let _ = child.wait();
    panic!("the server did not start");
}

/// A server killed (SIGKILL) while the widget's events pour in keeps every
/// event it answered 202: on PostgreSQL the answer comes only after the
/// commit; on SQLite after the event is in the journal, and the next start
/// stores what the database does not have yet, each event once.
#[tokio::test]
async fn a_killed_server_keeps_every_event_it_accepted() {
    use std::sync::Arc;
    use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

    let db = ca_migrations::testing::TestDb::new().await.expect("db");
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .expect("bind")
        .local_addr()
        .expect("addr")
        .port();
    let base = format!("http://127.0.0.1:{port}");
    let data = std::env::temp_dir().join(format!("ca-it-kill-{}", uuid::Uuid::now_v7()));
    let mut child = start_server(&db.url, &data, port).await;
    let client = reqwest::Client::new();
    let id = load_campaign(&client, &base, "kill@example.in").await;

    let accepted = Arc::new(AtomicUsize::new(0));
    let attempted = Arc::new(AtomicUsize::new(0));
    let stop = Arc::new(AtomicBool::new(false));
    let mut senders = Vec::new();
    for worker in 0..32 {
        let (client, base, id) = (client.clone(), base.clone(), id.clone());
        let (accepted, attempted, stop) = (accepted.clone(), attempted.clone(), stop.clone());
        senders.push(tokio::spawn(async move {
            let mut i = 0;
            while !stop.load(Ordering::Relaxed) {
                i += 1;
                attempted.fetch_add(1, Ordering::Relaxed);
                let body = json!({"campaignId": id, "visitorId": format!("v_kill_{worker:02}_{i:06}"), "type": "impression"});
                let sent = client
                    .post(format!("{base}/api/widget/events"))
                    .header("origin", SITE)
                    .header("content-type", "text/plain")
                    .body(body.to_string())
                    .send()
                    .await;
                match sent {
                    Ok(r) if r.status().as_u16() == 202 => {
                        accepted.fetch_add(1, Ordering::Relaxed);
                    }
                    Ok(_) => {}
                    Err(_) => break,
                }
            }
        }));
    }
    // Kill it mid-stream, once a good number of events went through.
    for _ in 0..400 {
        if accepted.load(Ordering::Relaxed) >= 1500 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    child.kill().expect("SIGKILL");
    let _ = child.wait();
    stop.store(true, Ordering::Relaxed);
    for s in senders {
        let _ = s.await;
    }
    let accepted = accepted.load(Ordering::Relaxed) as i64;
    let attempted = attempted.load(Ordering::Relaxed) as i64;
    assert!(
        accepted >= 100,
        "only {accepted} events accepted before the kill"
    );
    let stored = || async {
        campaign::Entity::find_by_id(id.clone())
            .one(&db.conn)
            .await
            .expect("q")
            .expect("c")
            .impressions
    };
    // The next start stores what the crash left in the journal before it
    // answers anything; a second start finds nothing more to store.
    for start in 1..=2 {
        let mut again = start_server(&db.url, &data, port).await;
        let n = stored().await;
        assert!(
            n >= accepted,
            "start {start}: {accepted} events were answered 202 but only {n} are stored"
        );
        assert!(
            n <= attempted,
            "start {start}: {n} stored of {attempted} sent"
        );
        again.kill().expect("SIGKILL");
        let _ = again.wait();
    }
    let touches = campaign_touch::Entity::find()
        .filter(campaign_touch::Column::CampaignId.eq(id.as_str()))
        .count(&db.conn)
        .await
        .expect("count");
    assert_eq!(
        touches as i64,
        stored().await,
        "each stored impression came from its own visitor: nothing was stored twice"
    );
    let _ = std::fs::remove_dir_all(data);
}

/// Two servers on one database each answer events from their own journal
/// (on PostgreSQL, in their own data directories; each keeps its own place
/// in `event_journal`): killed right after answering, both store everything
/// at their next start, each event once. On an SQLite file the second
/// server finds the journal taken and answers after committing instead.
#[tokio::test]
async fn two_servers_on_one_database_each_keep_their_own_journal() {
    use ca_tracking::entities::event_journal;
    let db = ca_migrations::testing::TestDb::new().await.expect("db");
    let root = std::env::temp_dir().join(format!("ca-it-two-{}", uuid::Uuid::now_v7()));
    let ports: Vec<u16> = (0..2)
        .map(|_| {
            std::net::TcpListener::bind("127.0.0.1:0")
                .expect("bind")
                .local_addr()
                .expect("addr")
                .port()
        })
        .collect();
    let data = |n: usize| root.join(format!("data-{n}"));
    let mut servers = Vec::new();
    for (n, port) in ports.iter().enumerate() {
        servers.push(start_server(&db.url, &data(n), *port).await);
    }
    let client = reqwest::Client::new();
    let base = |n: usize| format!("http://127.0.0.1:{}", ports[n]);
    let id = load_campaign(&client, &base(0), "two-journals@example.in").await;
    let mut answered: i64 = 0;
    for i in 0..200 {
        let n = i % 2;
        let body =
            json!({"campaignId": id, "visitorId": format!("v_two_{i:06}"), "type": "impression"});
        let r = client
            .post(format!("{}/api/widget/events", base(n)))
            .header("origin", SITE)
            .header("content-type", "text/plain")
            .body(body.to_string())
            .send()
            .await
            .expect("send");
        assert_eq!(r.status().as_u16(), 202, "server {n}");
        answered += 1;
    }
    for mut s in servers {
        s.kill().expect("SIGKILL");
        let _ = s.wait();
    }
    let mut again = Vec::new();
    for (n, port) in ports.iter().enumerate() {
        again.push(start_server(&db.url, &data(n), *port).await);
    }
    let stored = campaign::Entity::find_by_id(id.clone())
        .one(&db.conn)
        .await
        .expect("q")
        .expect("c")
        .impressions;
    assert_eq!(stored, answered, "every answered event stored, once");
    let journals = event_journal::Entity::find()
        .all(&db.conn)
        .await
        .expect("q");
    if db.url.starts_with("postgres") {
        assert_eq!(journals.len(), 2, "one place per server: {journals:?}");
        let ids: Vec<i32> = (0..2)
            .map(|n| {
                ca_tracking::journal::id_of(&data(n).join("event-journal")).expect("journal id")
            })
            .collect();
        assert_ne!(ids[0], ids[1]);
        for j in &journals {
            assert!(ids.contains(&j.id), "{journals:?} against {ids:?}");
            assert!(j.stored_through > 0);
        }
    } else {
        assert!(journals.len() <= 1, "{journals:?}");
    }
    for mut s in again {
        s.kill().expect("SIGKILL");
        let _ = s.wait();
    }
    let _ = std::fs::remove_dir_all(root);
}

/// The site reports order values and nobody checks them: one above the
/// campaign's largest believable order is kept (held) but adds no revenue.
#[tokio::test]
async fn implausible_orders_are_kept_but_not_counted() {
    let app = spawn_app_with(|_| {}).await;
    let (token, id) = owner_and_campaign(&app, "cap-revenue@example.in").await;
    let t = Some(token.as_str());
    let current = app.get(&format!("/api/campaigns/{id}"), t).await.body["campaign"].clone();
    assert_eq!(
        current["settings"]["revenue"]["maxOrderValue"], 500_000,
        "the default"
    );
    for bad in [json!(0), json!(10_000_001), json!(-1)] {
        let mut next = current.clone();
        next["settings"]["revenue"]["maxOrderValue"] = bad;
        app.send("PUT", &format!("/api/campaigns/{id}"), t, next)
            .await
            .error(400, "validation_failed");
    }
    let mut next = current.clone();
    next["settings"]["revenue"]["maxOrderValue"] = json!(10_000);
    let saved = app
        .send("PUT", &format!("/api/campaigns/{id}"), t, next)
        .await;
    assert_eq!(saved.status, 200, "{}", saved.body);

    let c = start_conversation(&app, &id, "v_big_buyer_01").await;
    submit_email(&app, &c, "big-buyer@example.in", None).await;
    let fine = purchase(&app, &id, "v_big_buyer_01", "ORD-FINE", json!(10_000)).await;
    assert_eq!(
        (fine.status.as_u16(), &fine.body["held"]),
        (200, &json!(false))
    );
    let odd = purchase(&app, &id, "v_big_buyer_01", "ORD-ODD", json!(10_000.01)).await;
    assert_eq!(odd.status, 200, "{}", odd.body);
    assert_eq!(odd.body["held"], true);
    assert_eq!(odd.body["attributedCampaignId"], id.as_str());
    let stored = campaign::Entity::find_by_id(id.clone())
        .one(&app.db.conn)
        .await
        .expect("q")
        .expect("c");
    assert_eq!(
        stored.revenue_paise, 1_000_000,
        "only the believable order counts"
    );
    let buyer = customer_of(&app, "big-buyer@example.in").await;
    assert_eq!((buyer.total_purchases, buyer.revenue_paise), (1, 1_000_000));
    let held = ca_tracking::entities::purchase::Entity::find()
        .filter(ca_tracking::entities::purchase::Column::OrderId.eq("ORD-ODD"))
        .one(&app.db.conn)
        .await
        .expect("q")
        .expect("the held order is kept");
    assert!(held.held);
    assert_eq!(held.value_paise, 1_000_001);
    let analytics = app.get(&format!("/api/campaigns/{id}/analytics"), t).await;
    assert_eq!(
        analytics.body["heldOrders"]["orders"], 1,
        "{}",
        analytics.body
    );
    assert_eq!(analytics.body["heldOrders"]["value"], 10_000.01);
    assert_eq!(analytics.body["analytics"]["revenue"], 10_000.0);
}

/// One batch moves each customer's page views by their own count (one
/// statement for all of them), and visitors who are not customers yet are
/// kept for when they are.
#[tokio::test]
async fn a_batch_counts_each_visitors_page_views() {
    let app = spawn_app_with(|_| {}).await;
    let (_, id) = owner_and_campaign(&app, "batch-views@example.in").await;
    let owner = owner_of(&app, &id).await;
    for (visitor, email) in [
        ("v_batch_one_1", "one@example.in"),
        ("v_batch_two_2", "two@example.in"),
    ] {
        let conv = start_conversation(&app, &id, visitor).await;
        assert_eq!(submit_email(&app, &conv, email, None).await.status, 200);
    }
    let ev = |visitor: &str| Event {
        kind: Kind::PageView,
        owner_id: owner.clone(),
        campaign_id: id.clone(),
        visitor_id: visitor.to_string(),
        at: Utc::now(),
        counts_visitor: true,
        arm: None,
    };
    let mut batch = vec![ev("v_batch_one_1")];
    batch.extend(std::iter::repeat_with(|| ev("v_batch_two_2")).take(3));
    batch.extend(std::iter::repeat_with(|| ev("v_batch_new_3")).take(2));
    ca_tracking::writer::write(&app.db.conn, &batch)
        .await
        .expect("write");
    assert_eq!(
        customer_of(&app, "one@example.in").await.total_page_views,
        1
    );
    assert_eq!(
        customer_of(&app, "two@example.in").await.total_page_views,
        3
    );
    assert_eq!(customer_of(&app, "two@example.in").await.lead_score, 20 + 3);
    let conv = start_conversation(&app, &id, "v_batch_new_3").await;
    assert_eq!(
        submit_email(&app, &conv, "three@example.in", None)
            .await
            .status,
        200
    );
    assert_eq!(
        customer_of(&app, "three@example.in").await.total_page_views,
        2
    );
}

/// One batch of engaged time moves each customer by their own seconds and
/// sessions (one statement per 500 visitors): a customer's first measured
/// time starts a session, later reports add the sessions they began; the
/// hundreds of visitors who are not customers are kept for when they are.
#[tokio::test]
async fn a_batch_counts_each_visitors_engaged_time() {
    let app = spawn_app_with(|_| {}).await;
    let (_, id) = owner_and_campaign(&app, "batch-engaged@example.in").await;
    let owner = owner_of(&app, &id).await;
    for (visitor, email) in [
        ("v_engage_one_1", "engage-one@example.in"),
        ("v_engage_two_2", "engage-two@example.in"),
    ] {
        let conv = start_conversation(&app, &id, visitor).await;
        assert_eq!(submit_email(&app, &conv, email, None).await.status, 200);
    }
    // The second customer already has two sessions.
    let two = customer_of(&app, "engage-two@example.in").await;
    customer::Entity::update(customer::ActiveModel {
        sessions: sea_orm::Set(2),
        total_session_seconds: sea_orm::Set(100),
        ..two.into()
    })
    .exec(&app.db.conn)
    .await
    .expect("sessions");
    let ev = |visitor: &str, seconds: u32, new_session: bool| Event {
        kind: Kind::Engagement {
            seconds,
            new_session,
        },
        owner_id: owner.clone(),
        campaign_id: id.clone(),
        visitor_id: visitor.to_string(),
        at: Utc::now(),
        counts_visitor: true,
        arm: None,
    };
    // 700 other visitors first, so the customers fall into the second group of 500.
    let mut batch: Vec<Event> = (0..700)
        .map(|i| ev(&format!("v_engage_crowd_{i:04}"), 5, true))
        .collect();
    batch.push(ev("v_engage_one_1", 12, false));
    batch.push(ev("v_engage_two_2", 30, true));
    batch.push(ev("v_engage_two_2", 10, false));
    batch.push(ev("v_engage_new_3", 50, true));
    ca_tracking::writer::write(&app.db.conn, &batch)
        .await
        .expect("write");
    let one = customer_of(&app, "engage-one@example.in").await;
    assert_eq!((one.sessions, one.total_session_seconds), (1, 12));
    let two = customer_of(&app, "engage-two@example.in").await;
    assert_eq!((two.sessions, two.total_session_seconds), (3, 140));
    assert_eq!(
        two.lead_score,
        20 + 140 / 3 / 30,
        "session time adds to the score"
    );
    let conv = start_conversation(&app, &id, "v_engage_new_3").await;
    assert_eq!(
        submit_email(&app, &conv, "engage-three@example.in", None)
            .await
            .status,
        200
    );
    let three = customer_of(&app, "engage-three@example.in").await;
    assert_eq!((three.sessions, three.total_session_seconds), (1, 50));
}

/// Another connection holds the database's write lock for longer than the
/// busy timeout (SQLite: "database is locked"; PostgreSQL: the counters'
/// table is locked): the writer keeps retrying, every sender gets its answer
/// (on PostgreSQL once stored, on SQLite once journalled), and every event
/// answered 202 is stored once the lock is gone.
/// The failed attempts show in `/metrics`.
#[tokio::test]
async fn a_locked_database_delays_events_but_loses_none() {
    let app = spawn_app_with(|c| c.widget_events_ip_per_minute = 100_000).await;
    let id = load_campaign(&app.client, &app.base, "locked@example.in").await;
    // Writes to the counters wait; reads (the check below) still go through.
    let (holder, lock) = hold_write_lock(&app.db.url, "EXCLUSIVE").await;
    let postgres = ca_core::db::is_postgres(&holder);
    let sent = send_impressions(&app.client, &app.base, &id, 200, "lock");
    // Longer than SQLite's busy timeout (5 s): the writer's attempts fail.
    tokio::time::sleep(Duration::from_secs(7)).await;
    assert_eq!(
        impressions(&app, &id).await,
        0,
        "nothing can be written while locked"
    );
    lock.rollback().await.expect("release");
    let mut answers = std::collections::BTreeMap::<u16, usize>::new();
    for s in sent {
        *answers.entry(s.await.expect("join")).or_default() += 1;
    }
    app.events.flush().await;
    let stored = impressions(&app, &id).await;
    assert_eq!(
        answers,
        [(202, 200)].into(),
        "every sender waited for its event to be stored"
    );
    assert_eq!(stored, 200, "every acknowledged event is stored");
    assert!(app.metric("convertassist_widget_events_stored_total").await >= 200.0);
    assert_eq!(
        app.metric("convertassist_widget_events_not_stored_total")
            .await,
        0.0
    );
    if !postgres {
        assert!(
            app.metric("convertassist_widget_event_write_failures_total")
                .await
                >= 1.0,
            "the lock made at least one attempt fail"
        );
    }
    drop(holder);
}

/// Hands `n` impressions straight to `writer` at once (visitors
/// `v_<tag>_0000`…, a campaign nobody stored); each task gives its answer.
fn push_impressions(
    writer: &ca_tracking::writer::EventWriter,
    n: usize,
    tag: &str,
) -> Vec<tokio::task::JoinHandle<Result<(), ca_tracking::writer::NotStored>>> {
    (0..n)
        .map(|i| {
            let writer = writer.clone();
            let visitor_id = format!("v_{tag}_{i:04}");
            tokio::spawn(async move {
                writer
                    .push(Event {
                        kind: Kind::Impression,
                        owner_id: "owner".into(),
                        campaign_id: "campaign".into(),
                        visitor_id,
                        at: Utc::now(),
                        counts_visitor: true,
                        arm: None,
                    })
                    .await
            })
        })
        .collect()
}

/// When the writer is stuck (the database locked) and its queue is full, a
/// new event is turned away at once as busy (503 with Retry-After at the
/// API) instead of being accepted and perhaps lost; the queued ones are
/// stored once the database is free again.
#[tokio::test]
async fn a_full_writer_queue_turns_events_away_as_busy() {
    use ca_tracking::writer::{EventWriter, NotStored, WriterConfig};
    use std::sync::atomic::Ordering;
    let db = ca_migrations::testing::TestDb::new().await.expect("db");
    // The writer's first read waits too (these events name no stored campaign).
    let (holder, lock) = hold_write_lock(&db.url, "ACCESS EXCLUSIVE").await;
    let writer = EventWriter::start(
        db.conn.clone(),
        WriterConfig {
            max_batch: 10,
            queue: 5,
            hand_over: Duration::from_millis(200),
            keep_trying: Duration::from_secs(120),
            ..WriterConfig::default()
        },
    );
    let pushes = push_impressions(&writer, 50, "busy");
    tokio::time::sleep(Duration::from_millis(1500)).await;
    let turned_away = writer.stats().refused_busy.load(Ordering::Relaxed);
    // At most one batch (10) is being written and 5 wait in the queue.
    assert!(
        turned_away >= 35,
        "{turned_away} of 50 turned away while the writer is stuck"
    );
    lock.rollback().await.expect("release");
    let mut busy = 0u64;
    let mut stored = 0u64;
    for p in pushes {
        match p.await.expect("join") {
            Ok(()) => stored += 1,
            Err(NotStored::Busy) => busy += 1,
            Err(NotStored::Failed) => panic!("an event was refused as not stored"),
        }
    }
    assert_eq!(busy, turned_away, "every turned-away sender was told");
    assert_eq!(stored + busy, 50);
    assert_eq!(
        writer.stats().stored.load(Ordering::Relaxed),
        stored,
        "every event not turned away is stored"
    );
    drop(holder);
}

/// The clean-up forgets visitors of months before last month, the activity
/// of visitors not seen for 90 days and touches older than the attribution
/// window, in batches, and keeps everything newer.
#[tokio::test]
async fn old_visitor_rows_are_forgotten_and_recent_ones_kept() {
    use ca_customers::entities::visitor_activity;
    use sea_orm::{ActiveValue::Set, PaginatorTrait};
    let app = spawn_app_with(|_| {}).await;
    let (_, campaign_id) = owner_and_campaign(&app, "retention@example.in").await;
    // The server's own clean-up runs at start with the real clock, and may
    // run while this test inserts. A "now" far in the future keeps every row
    // here recent to it, so only the calls below can remove them.
    let now = Utc
        .with_ymd_and_hms(2099, 11, 23, 12, 0, 0)
        .single()
        .expect("date");
    let owner_id = owner_of(&app, &campaign_id).await;
    // 6,000 visitors in September (more than one batch), 10 in October and November.
    let mut visitors = Vec::new();
    for (period, n) in [("2099-09", 6000), ("2099-10", 10), ("2099-11", 10)] {
        for i in 0..n {
            visitors.push(monthly_visitor::ActiveModel {
                owner_id: Set(owner_id.clone()),
                period: Set(period.into()),
                visitor_id: Set(format!("v_{period}_{i:05}")),
                first_seen_at: Set(now),
            });
        }
    }
    for chunk in visitors.chunks(500) {
        monthly_visitor::Entity::insert_many(chunk.to_vec())
            .exec_without_returning(&app.db.conn)
            .await
            .expect("visitors");
    }
    let activity = |visitor: &str, days_ago: i64| visitor_activity::ActiveModel {
        owner_id: Set(owner_id.clone()),
        visitor_id: Set(visitor.into()),
        page_views: Set(3),
        sessions: Set(1),
        session_seconds: Set(40),
        updated_at: Set(now - chrono::Duration::days(days_ago)),
    };
    visitor_activity::Entity::insert_many([
        activity("v_gone_00001", 91),
        activity("v_back_00001", 89),
    ])
    .exec_without_returning(&app.db.conn)
    .await
    .expect("activity");
    let touch = |visitor: &str, days_ago: i64| campaign_touch::ActiveModel {
        campaign_id: Set(campaign_id.clone()),
        visitor_id: Set(visitor.into()),
        owner_id: Set(owner_id.clone()),
        last_at: Set(now - chrono::Duration::days(days_ago)),
    };
    campaign_touch::Entity::insert_many([touch("v_gone_00001", 31), touch("v_back_00001", 29)])
        .exec_without_returning(&app.db.conn)
        .await
        .expect("touches");

    let forgotten = ca_campaigns::retention::forget_old_visitors(&app.db.conn, now)
        .await
        .expect("visitors");
    assert_eq!(forgotten, 6000);
    let left: Vec<String> = monthly_visitor::Entity::find()
        .all(&app.db.conn)
        .await
        .expect("q")
        .into_iter()
        .map(|v| v.period)
        .collect();
    assert_eq!(left.len(), 20);
    assert!(left.iter().all(|p| p == "2099-10" || p == "2099-11"));

    assert_eq!(
        ca_customers::retention::forget_idle_visitors(&app.db.conn, now)
            .await
            .expect("activity"),
        1
    );
    let kept = visitor_activity::Entity::find()
        .all(&app.db.conn)
        .await
        .expect("q");
    assert_eq!(kept.len(), 1);
    assert_eq!(kept[0].visitor_id, "v_back_00001");

    assert_eq!(
        ca_tracking::retention::forget_old_touches(&app.db.conn, 30, now)
            .await
            .expect("touches"),
        1
    );
    assert_eq!(
        campaign_touch::Entity::find()
            .filter(campaign_touch::Column::VisitorId.eq("v_back_00001"))
            .count(&app.db.conn)
            .await
            .expect("q"),
        1
    );
    assert_eq!(
        campaign_touch::Entity::find()
            .count(&app.db.conn)
            .await
            .expect("q"),
        1
    );
}

/// The journal's next start stores exactly the events the database does not
/// have: not those at or below the stored position, not a line a crash cut
/// short (it was never answered); it then removes the stored segments and
/// numbers new events after everything it saw.
#[tokio::test]
async fn a_journal_is_stored_once_from_where_the_database_left_off() {
    use ca_tracking::journal;
    use ca_tracking::writer::{EventWriter, WriterConfig};
    let app = spawn_app_with(|_| {}).await;
    let (_, id) = owner_and_campaign(&app, "journal@example.in").await;
    let owner = owner_of(&app, &id).await;
    let folder = std::env::temp_dir().join(format!("ca-journal-{}", uuid::Uuid::now_v7()));
    std::fs::create_dir_all(&folder).expect("folder");
    let impression = |visitor: &str| Event {
        kind: Kind::Impression,
        owner_id: owner.clone(),
        campaign_id: id.clone(),
        visitor_id: visitor.into(),
        at: Utc::now(),
        counts_visitor: true,
        arm: None,
    };
    // Two segments: events 1–3 and 4–5, then a line cut short.
    let mut first = Vec::new();
    for (seq, v) in [(1, "v_jr_0001"), (2, "v_jr_0002"), (3, "v_jr_0003")] {
        first.extend(journal::encode(seq, &impression(v)));
    }
    std::fs::write(folder.join(format!("{:020}.log", 1)), first).expect("write");
    let mut second = Vec::new();
    for (seq, v) in [(4, "v_jr_0004"), (5, "v_jr_0005")] {
        second.extend(journal::encode(seq, &impression(v)));
    }
    let torn = journal::encode(6, &impression("v_jr_0006"));
    second.extend(&torn[..torn.len() / 2]);
    std::fs::write(folder.join(format!("{:020}.log", 4)), second).expect("write");
    // Event 1 is stored already.
    ca_campaigns::counters::add_impressions(&app.db.conn, &id, 1)
        .await
        .expect("one stored");
    journal::mark_stored(&app.db.conn, journal::FILE_JOURNAL, 1)
        .await
        .expect("mark");

    let writer =
        EventWriter::start_journaled(app.db.conn.clone(), &folder, WriterConfig::default())
            .await
            .expect("start");
    assert_eq!(
        impressions(&app, &id).await,
        5,
        "events 2–5 stored, once each"
    );
    assert_eq!(
        journal::stored_through(&app.db.conn, journal::FILE_JOURNAL)
            .await
            .expect("read"),
        5
    );
    let left: Vec<_> = std::fs::read_dir(&folder)
        .expect("list")
        .filter_map(|e| e.ok())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".log"))
        .collect();
    assert_eq!(
        left,
        vec![format!("{:020}.log", 6)],
        "stored segments are gone"
    );
    // A second server on the same journal is refused while this one runs.
    let second =
        EventWriter::start_journaled(app.db.conn.clone(), &folder, WriterConfig::default()).await;
    assert!(
        matches!(second, Err(ca_tracking::writer::JournalError::InUse(_))),
        "the journal is locked"
    );
    writer
        .push(impression("v_jr_0007"))
        .await
        .expect("journalled");
    writer.flush().await;
    assert_eq!(impressions(&app, &id).await, 6);
    assert_eq!(
        journal::stored_through(&app.db.conn, journal::FILE_JOURNAL)
            .await
            .expect("read"),
        6,
        "new events are numbered after everything seen"
    );
    drop(writer);
    let _ = std::fs::remove_dir_all(folder);
}

/// With a journal, events are answered before they are stored, so a
/// database that stays locked must not let the journal grow without end:
/// past its backlog limit the writer stops taking events, its queue fills,
/// and new events are turned away as busy; everything answered is stored
/// once the database is free.
#[tokio::test]
async fn a_journal_that_cannot_be_stored_turns_events_away_as_busy() {
    use ca_tracking::writer::{EventWriter, NotStored, WriterConfig};
    use std::sync::atomic::Ordering;
    let db = ca_migrations::testing::TestDb::new().await.expect("db");
    let folder = std::env::temp_dir().join(format!("ca-journal-{}", uuid::Uuid::now_v7()));
    let writer = EventWriter::start_journaled(
        db.conn.clone(),
        &folder,
        WriterConfig {
            max_batch: 10,
            queue: 5,
            hand_over: Duration::from_millis(200),
            journal_backlog: 10,
            ..WriterConfig::default()
        },
    )
    .await
    .expect("start");
    let (holder, lock) = hold_write_lock(&db.url, "ACCESS EXCLUSIVE").await;
    let pushes = push_impressions(&writer, 50, "jbusy");
    tokio::time::sleep(Duration::from_millis(1500)).await;
    let journalled = writer.stats().journalled.load(Ordering::Relaxed);
    let turned_away = writer.stats().refused_busy.load(Ordering::Relaxed);
    assert!(
        (10..20).contains(&journalled),
        "{journalled} journalled while the database is locked"
    );
    assert!(
        turned_away >= 25,
        "{turned_away} of 50 turned away while the journal is full"
    );
    lock.rollback().await.expect("release");
    let mut busy = 0u64;
    let mut answered = 0u64;
    for p in pushes {
        match p.await.expect("join") {
            Ok(()) => answered += 1,
            Err(NotStored::Busy) => busy += 1,
            Err(NotStored::Failed) => panic!("an event was refused as not stored"),
        }
    }
    writer.flush().await;
    assert_eq!(busy, turned_away, "every turned-away sender was told");
    assert_eq!(answered + busy, 50);
    assert_eq!(
        writer.stats().stored.load(Ordering::Relaxed),
        answered,
        "every answered event is stored"
    );
    assert_eq!(writer.stats().journalled.load(Ordering::Relaxed), 0);
    drop(holder);
    drop(writer);
    let _ = std::fs::remove_dir_all(folder);
}

/// With a journal, events that trickle in one at a time (each answered at
/// once) are stored together: a small batch waits a moment for company, so
/// a database shared by several instances gets a few large commits instead
/// of one per event. A flush still stores at once.
#[tokio::test]
async fn journalled_events_trickling_in_are_stored_together() {
    use ca_tracking::writer::{EventWriter, WriterConfig};
    use std::sync::atomic::Ordering;
    let db = ca_migrations::testing::TestDb::new().await.expect("db");
    let folder = std::env::temp_dir().join(format!("ca-journal-{}", uuid::Uuid::now_v7()));
    let writer = EventWriter::start_journaled(
        db.conn.clone(),
        &folder,
        WriterConfig {
            store_linger: Duration::from_millis(1500),
            ..WriterConfig::default()
        },
    )
    .await
    .expect("start");
    for i in 0..10 {
        for p in push_impressions(&writer, 1, &format!("trickle{i}")) {
            p.await.expect("join").expect("answered");
        }
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
    // All ten were answered; they wait together for the store.
    let stats = writer.stats();
    let mut waited = 0;
    while stats.stored.load(Ordering::Relaxed) < 10 && waited < 200 {
        tokio::time::sleep(Duration::from_millis(20)).await;
        waited += 1;
    }
    assert_eq!(stats.stored.load(Ordering::Relaxed), 10);
    let batches = stats.batches.load(Ordering::Relaxed);
    assert!(batches <= 2, "ten trickling events took {batches} commits");
    // A flush does not wait for company.
    for p in push_impressions(&writer, 1, "flushed") {
        p.await.expect("join").expect("answered");
    }
    let asked = std::time::Instant::now();
    writer.flush().await;
    assert_eq!(stats.stored.load(Ordering::Relaxed), 11);
    assert!(
        asked.elapsed() < Duration::from_millis(1500),
        "the flush waited for the linger"
    );
    drop(writer);
    let _ = std::fs::remove_dir_all(folder);
}

/// A burst of visitors leaving their email at once (a sale, a newsletter)
/// all become leads. Each submission holds the database's write lock while
/// it stores the lead; if it also needed a second pooled connection for a
/// read, a burst larger than the pool would leave the lock holder waiting
/// for a connection that every other submission holds while it waits for
/// the lock, and they would fail once their busy timeout ran out.
#[tokio::test]
async fn a_burst_of_form_submissions_larger_than_the_pool_all_become_leads() {
    let app = spawn_app_with(|c| {
        c.widget_ip_per_minute = 100_000;
        c.widget_campaign_per_minute = 100_000;
    })
    .await;
    let (token, campaign) = owner_and_campaign(&app, "burst@example.in").await;
    const BURST: usize = 24;
    let mut conversations = Vec::new();
    for i in 0..BURST {
        conversations.push(start_conversation(&app, &campaign, &format!("v_burst_{i:02}")).await);
    }
    // Every submission queues behind one held lock, then all go at once.
    let (holder, lock) = hold_write_lock(&app.db.url, "EXCLUSIVE").await;
    let mut sent = Vec::new();
    for (i, conversation) in conversations.iter().enumerate() {
        let (client, url) = (
            app.client.clone(),
            app.url(&format!("/api/widget/conversations/{conversation}/forms")),
        );
        sent.push(tokio::spawn(async move {
            let res = client
                .post(url)
                .json(&json!({"values": {"email": format!("buyer{i}@example.in")}}))
                .send()
                .await
                .expect("send");
            let status = res.status().as_u16();
            (status, res.text().await.unwrap_or_default())
        }));
    }
    tokio::time::sleep(Duration::from_millis(1500)).await;
    lock.rollback().await.expect("release");
    drop(holder);
    let mut refused = Vec::new();
    for s in sent {
        let (status, body) = s.await.expect("join");
        if status != 200 {
            refused.push(format!("{status} {body}"));
        }
    }
    assert!(refused.is_empty(), "refused submissions: {refused:?}");
    let customers = app.get("/api/customers/user", Some(&token)).await;
    assert_eq!(customers.status, 200, "{}", customers.body);
    assert_eq!(
        customers.body["pagination"]["total"].as_i64(),
        Some(BURST as i64),
        "{}",
        customers.body
    );
}

/// One batch from two owners' sites with every kind of event is stored as
/// the same events one by one would be: each owner's new visitors once,
/// customers' page views and engaged time (both in the batch for one of
/// them) with their scores, visitors who are not customers yet kept for
/// later, each campaign's impressions and first page view, and who saw which
/// popup. The same batch again adds to every count but no visitor and no
/// first view. (On PostgreSQL a batch takes one statement per table, all
/// owners at once.)
#[tokio::test]
async fn a_batch_from_several_owners_stores_every_count() {
    use ca_customers::entities::visitor_activity;
    use chrono::{DurationRound, TimeDelta};
    let app = spawn_app_with(|_| {}).await;
    let (token_a, a) = owner_and_campaign(&app, "multi-owner-a@example.in").await;
    let (token_b, b) = owner_and_campaign(&app, "multi-owner-b@example.in").await;
    let (oa, ob) = (owner_of(&app, &a).await, owner_of(&app, &b).await);
    for (campaign, visitor, email) in [
        (&a, "v_multi_cust_a", "multi-a@example.in"),
        (&b, "v_multi_cust_b", "multi-b@example.in"),
    ] {
        let conv = start_conversation(&app, campaign, visitor).await;
        assert_eq!(submit_email(&app, &conv, email, None).await.status, 200);
    }
    let counted = |owner: String| {
        let db = app.db.conn.clone();
        async move {
            monthly_visitor::Entity::find()
                .filter(monthly_visitor::Column::OwnerId.eq(owner))
                .count(&db)
                .await
                .expect("count")
        }
    };
    let (before_a, before_b) = (counted(oa.clone()).await, counted(ob.clone()).await);
    let customers_counted = |owner: &str, visitor: &str| {
        let db = app.db.conn.clone();
        let (owner, visitor) = (owner.to_string(), visitor.to_string());
        async move {
            monthly_visitor::Entity::find()
                .filter(monthly_visitor::Column::OwnerId.eq(owner))
                .filter(monthly_visitor::Column::VisitorId.eq(visitor))
                .count(&db)
                .await
                .expect("count")
        }
    };
    let cust_a_new = 1 - customers_counted(&oa, "v_multi_cust_a").await;
    let base = Utc::now()
        .duration_trunc(TimeDelta::seconds(1))
        .expect("trunc")
        - TimeDelta::minutes(10);
    let ev = |campaign: &str, owner: &str, visitor: &str, kind: Kind, minute: i64| Event {
        kind,
        owner_id: owner.to_string(),
        campaign_id: campaign.to_string(),
        visitor_id: visitor.to_string(),
        at: base + TimeDelta::minutes(minute),
        counts_visitor: true,
        arm: None,
    };
    let engaged = |seconds, new_session| Kind::Engagement {
        seconds,
        new_session,
    };
    let mut batch = Vec::new();
    for i in 0..300 {
        batch.push(ev(
            &a,
            &oa,
            &format!("v_multi_a_{i:04}"),
            Kind::PageView,
            3 + i % 5,
        ));
    }
    for i in 0..200 {
        batch.push(ev(
            &b,
            &ob,
            &format!("v_multi_b_{i:04}"),
            Kind::PageView,
            2 + i % 5,
        ));
    }
    // Owner B's first page view is the earliest of its batch, not the first listed.
    batch.push(ev(&b, &ob, "v_multi_b_0000", Kind::PageView, 1));
    batch.push(ev(&a, &oa, "v_multi_cust_a", Kind::PageView, 4));
    batch.push(ev(&a, &oa, "v_multi_cust_a", Kind::PageView, 5));
    batch.push(ev(&a, &oa, "v_multi_cust_a", engaged(40, true), 5));
    batch.push(ev(&b, &ob, "v_multi_cust_b", engaged(65, false), 6));
    batch.push(ev(&a, &oa, "v_multi_a_0007", engaged(20, true), 6));
    for (i, visitor) in ["v_multi_a_0001", "v_multi_a_0002", "v_multi_a_0001"]
        .iter()
        .enumerate()
    {
        batch.push(ev(&a, &oa, visitor, Kind::Impression, 3 + i as i64));
    }
    for i in 0..5 {
        batch.push(ev(
            &b,
            &ob,
            &format!("v_multi_b_{i:04}"),
            Kind::Impression,
            7,
        ));
    }
    ca_tracking::writer::write(&app.db.conn, &batch)
        .await
        .expect("write");

    assert_eq!(counted(oa.clone()).await, before_a + 300 + cust_a_new);
    assert_eq!(counted(ob.clone()).await, before_b + 200);
    let after_b = before_b + 200;
    let cust = customer_of(&app, "multi-a@example.in").await;
    assert_eq!(
        (
            cust.total_page_views,
            cust.sessions,
            cust.total_session_seconds
        ),
        (2, 1, 40)
    );
    assert_eq!(cust.lead_score, 20 + 2 + 40 / 30);
    let cust_b = customer_of(&app, "multi-b@example.in").await;
    assert_eq!(
        (
            cust_b.total_page_views,
            cust_b.sessions,
            cust_b.total_session_seconds
        ),
        (0, 1, 65)
    );
    assert_eq!(cust_b.lead_score, 20 + 65 / 30);
    assert_eq!(
        (impressions(&app, &a).await, impressions(&app, &b).await),
        (3, 5)
    );
    for (token, id, minute) in [(&token_a, &a, 3), (&token_b, &b, 1)] {
        let first = first_view(&app, token, id).await;
        let first: chrono::DateTime<Utc> =
            serde_json::from_value(first.clone()).expect("first page view");
        assert_eq!(first, base + TimeDelta::minutes(minute), "{id}");
    }
    let touches = campaign_touch::Entity::find()
        .filter(campaign_touch::Column::CampaignId.eq(a.clone()))
        .all(&app.db.conn)
        .await
        .expect("touches");
    // (The customer's chat start touched the campaign too.)
    assert_eq!(
        touches
            .iter()
            .filter(|t| t.visitor_id.starts_with("v_multi_a_"))
            .count(),
        2
    );
    let again = touches
        .iter()
        .find(|t| t.visitor_id == "v_multi_a_0001")
        .expect("seen twice");
    assert_eq!(again.last_at, base + TimeDelta::minutes(5));
    let kept = |visitor: &'static str, owner: String| {
        let db = app.db.conn.clone();
        async move {
            let row = visitor_activity::Entity::find()
                .filter(visitor_activity::Column::OwnerId.eq(owner))
                .filter(visitor_activity::Column::VisitorId.eq(visitor))
                .one(&db)
                .await
                .expect("query")
                .expect("kept");
            (row.page_views, row.sessions, row.session_seconds)
        }
    };
    assert_eq!(kept("v_multi_a_0007", oa.clone()).await, (1, 1, 20));
    assert_eq!(kept("v_multi_b_0000", ob.clone()).await, (2, 0, 0));

    // The same batch again: counts grow, visitors and first views stay.
    ca_tracking::writer::write(&app.db.conn, &batch)
        .await
        .expect("write again");
    assert_eq!(counted(oa.clone()).await, before_a + 300 + cust_a_new);
    assert_eq!(counted(ob.clone()).await, after_b);
    let cust = customer_of(&app, "multi-a@example.in").await;
    assert_eq!(
        (
            cust.total_page_views,
            cust.sessions,
            cust.total_session_seconds
        ),
        (4, 2, 80)
    );
    assert_eq!(
        (impressions(&app, &a).await, impressions(&app, &b).await),
        (6, 10)
    );
    assert_eq!(kept("v_multi_a_0007", oa.clone()).await, (2, 2, 40));
    let first: chrono::DateTime<Utc> =
        serde_json::from_value(first_view(&app, &token_b, &b).await).expect("first");
    assert_eq!(first, base + TimeDelta::minutes(1));
}
