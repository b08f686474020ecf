//! `POST /api/meta/track`: validation, the registration Lead, purchases that
//! must be ours, and the server's own Purchase for every settled payment,
//! complete with the buyer's browser at checkout; `GET /api/meta/config`;
//! the outbox paused by a rejected token as staff see it, and re-queueing.

use sea_orm::EntityTrait;
use serde_json::{Value, json};

use crate::helpers::spawn_app;

async fn outbox(app: &crate::helpers::TestApp) -> Vec<(String, String, Value)> {
    ca_meta::entity::Entity::find()
        .all(&app.db.conn)
        .await
        .expect("outbox")
        .into_iter()
        .map(|e| {
            (
                e.event_id,
                e.status,
                serde_json::from_str(&e.payload).expect("json"),
            )
        })
        .collect()
}

#[tokio::test]
async fn track_checks_every_field_and_only_real_purchases() {
    let app = spawn_app().await;
    let bad = app
        .post("/api/meta/track", json!({"eventName": "PageView"}))
        .await;
    bad.error(400, "validation_failed");
    let bad = app
        .post(
            "/api/meta/track",
            json!({"eventName": "Lead", "leadId": "x", "customProperties": {"a": {"nested": 1}}}),
        )
        .await;
    bad.error(400, "validation_failed");
    let bad = app
        .post(
            "/api/meta/track",
            json!({"eventName": "Lead", "email": "a\u{0}@x.in"}),
        )
        .await;
    bad.error(400, "invalid_character");

    // A sign-up's Lead, with the fields the registration page sends.
    let (token, user) = app.register("lead@example.in", "correct horse 1").await;
    let id = user["id"].as_str().expect("id").to_string();
    let lead = app
        .client
        .post(app.url("/api/meta/track"))
        .header("user-agent", "Mozilla/5.0 (test)")
        .header("cookie", "_fbp=fb.1.1700000000.42; _fbc=fb.1.1700000000.AbC")
        .json(&json!({"eventName": "Lead", "leadId": id, "contentName": "Registration", "contentCategory": "signup",
            "status": "new_user", "email": "lead@example.in", "phone": "+91 9876543210", "firstName": "Asha", "lastName": "Verma",
            "customProperties": {"signup_method": "email", "user_role": "user", "has_trial": true, "registration_source": "web_app", "timestamp": "2026-11-23T10:00:00Z"}}))
        .send()
        .await
        .expect("send");
    assert_eq!(lead.status(), 200);
    let body: Value = lead.json().await.expect("json");
    assert_eq!(body["eventId"], format!("lead-{id}"));
    assert_eq!(body["forwarded"], false, "no pixel configured");
    // A lead for an account that doesn't exist, or with someone else's email.
    app.post(
        "/api/meta/track",
        json!({"eventName": "Lead", "leadId": "no-such-account"}),
    )
    .await
    .error(422, "purchase_not_verified");
    app.post(
        "/api/meta/track",
        json!({"eventName": "Lead", "leadId": id, "email": "other@example.in"}),
    )
    .await
    .error(422, "purchase_not_verified");

    // Purchases: an invented order and a wrong value are refused.
    app.send(
        "POST",
        "/api/meta/track",
        Some(&token),
        json!({"eventName": "Purchase", "orderId": "CAFAKE123", "value": 999, "currency": "INR"}),
    )
    .await
    .error(422, "purchase_not_verified");
    app.send(
        "POST",
        "/api/meta/track",
        Some(&token),
        json!({"eventName": "Purchase"}),
    )
    .await
    .error(400, "validation_failed");
    let init = app
        .send(
            "POST",
            "/api/payment/initialize",
            Some(&token),
            json!({"udf2": "basic"}),
        )
        .await;
    let txnid = init.body["data"]["txnid"]
        .as_str()
        .expect("txnid")
        .to_string();
    // Pending is not a purchase yet.
    app.send(
        "POST",
        "/api/meta/track",
        Some(&token),
        json!({"eventName": "Purchase", "orderId": txnid, "value": 999}),
    )
    .await
    .error(422, "purchase_not_verified");
    let paid = app
        .send(
            "POST",
            "/api/billing/mock-payment-success",
            Some(&token),
            json!({"planId": "basic"}),
        )
        .await;
    assert_eq!(paid.status, 200);
    let history = app.get("/api/payment/history", Some(&token)).await;
    let demo_txnid = history.body["data"][0]["txnid"]
        .as_str()
        .expect("txnid")
        .to_string();
    app.send(
        "POST",
        "/api/meta/track",
        Some(&token),
        json!({"eventName": "Purchase", "orderId": demo_txnid, "value": 1}),
    )
    .await
    .error(422, "purchase_not_verified");
    // Only the owner who paid reports the purchase: not a stranger without
    // a session, not another owner who knows the txnid.
    let purchase =
        json!({"eventName": "Purchase", "orderId": demo_txnid, "value": 999, "currency": "INR"});
    app.post("/api/meta/track", purchase.clone())
        .await
        .error(401, "missing_token");
    let (other, _) = app
        .register("other-owner@example.in", "correct horse 1")
        .await;
    app.send("POST", "/api/meta/track", Some(&other), purchase.clone())
        .await
        .error(422, "purchase_not_verified");
    let ok = app
        .send("POST", "/api/meta/track", Some(&token), purchase)
        .await;
    assert_eq!(ok.status, 200, "{}", ok.body);
    assert_eq!(ok.body["eventId"], format!("purchase-{demo_txnid}"));

    let stored = outbox(&app).await;
    let lead = stored
        .iter()
        .find(|(e, _, _)| *e == format!("lead-{id}"))
        .expect("lead stored");
    assert_eq!(lead.1, "not_forwarded");
    let ud = &lead.2["user_data"];
    assert_eq!(ud["em"][0], ca_meta::normalize::sha256("lead@example.in"));
    assert_eq!(ud["ph"][0], ca_meta::normalize::sha256("919876543210"));
    assert_eq!(ud["fn"][0], ca_meta::normalize::sha256("asha"));
    assert_eq!(
        ud["external_id"][0],
        ca_meta::normalize::sha256(&id.to_lowercase())
    );
    assert_eq!(ud["client_user_agent"], "Mozilla/5.0 (test)");
    assert_eq!(ud["fbp"], "fb.1.1700000000.42");
    assert_eq!(ud["fbc"], "fb.1.1700000000.AbC");
    assert_eq!(lead.2["custom_data"]["content_category"], "signup");
    assert_eq!(lead.2["custom_data"]["has_trial"], true);
    let purchase = stored
        .iter()
        .find(|(e, _, _)| *e == format!("purchase-{demo_txnid}"))
        .expect("purchase stored");
    assert_eq!(purchase.2["custom_data"]["value"], 999.0);
    assert_eq!(purchase.2["custom_data"]["order_id"], demo_txnid.as_str());
    assert_eq!(purchase.2["event_name"], "Purchase");
}

#[tokio::test]
async fn every_settled_payment_is_reported_once_by_the_server() {
    let app = spawn_app().await;
    let (token, _) = app.register("buyer@example.in", "correct horse 1").await;
    let init = app
        .send(
            "POST",
            "/api/payment/initialize",
            Some(&token),
            json!({"udf2": "basic", "udf4": "annual"}),
        )
        .await;
    let txnid = init.body["data"]["txnid"]
        .as_str()
        .expect("txnid")
        .to_string();
    // Settle it through the simulator's verify path: mark success by hand the
    // way a callback would, then let the server's outbox round run.
    let service = ca_meta::MetaService::new(
        app.db.conn.clone(),
        ca_meta::Outbox::new(
            app.db.conn.clone(),
            ca_meta::MetaConfig {
                pixel_id: None,
                access_token: None,
                graph_url: "http://127.0.0.1:9".into(),
                api_version: "v21.0".into(),
                test_event_code: None,
                timeout: std::time::Duration::from_secs(5),
            },
        ),
        std::sync::Arc::new(ca_core::rate_limit::RateLimiter::memory()),
        app.base.clone(),
    );
    assert_eq!(
        service
            .sync_purchases(chrono::Utc::now())
            .await
            .expect("sync"),
        0,
        "pending: nothing yet"
    );
    use sea_orm::sea_query::Expr;
    use sea_orm::{ColumnTrait, QueryFilter};
    ca_billing::entities::payment::Entity::update_many()
        .col_expr(
            ca_billing::entities::payment::Column::Status,
            Expr::value("success"),
        )
        .col_expr(
            ca_billing::entities::payment::Column::SettledAt,
            Expr::value(Some(chrono::Utc::now())),
        )
        .filter(ca_billing::entities::payment::Column::Txnid.eq(&txnid))
        .exec(&app.db.conn)
        .await
        .expect("settle");
    let queued = service
        .sync_purchases(chrono::Utc::now())
        .await
        .expect("sync");
    // The app's own background round may have queued it first; either way once.
    assert!(queued <= 1);
    assert_eq!(
        service
            .sync_purchases(chrono::Utc::now())
            .await
            .expect("sync"),
        0
    );
    let stored: Vec<_> = outbox(&app)
        .await
        .into_iter()
        .filter(|(e, _, _)| *e == format!("purchase-{txnid}"))
        .collect();
    assert_eq!(stored.len(), 1);
    // A simulator payment moved no money: recorded, never sent to Meta.
    assert_eq!(stored[0].1, "skipped");
    assert_eq!(stored[0].2["custom_data"]["value"], 9990.0);
    assert_eq!(
        stored[0].2["user_data"]["em"][0],
        ca_meta::normalize::sha256("buyer@example.in")
    );
    // The browser's report of it is accepted and does not add a second event.
    let ok = app
        .send(
            "POST",
            "/api/meta/track",
            Some(&token),
            json!({"eventName": "Purchase", "orderId": txnid, "value": "9990.00"}),
        )
        .await;
    assert_eq!(ok.status, 200, "{}", ok.body);
    assert_eq!(
        outbox(&app)
            .await
            .iter()
            .filter(|(e, _, _)| *e == format!("purchase-{txnid}"))
            .count(),
        1
    );
}

/// Staff see the outbox, labelled as not forwarded while Meta is not
/// configured; owners don't.
#[tokio::test]
async fn staff_see_the_outbox_and_what_was_not_forwarded() {
    let app = spawn_app().await;
    let (owner, user) = app
        .register("meta-owner@example.in", "correct horse 1")
        .await;
    let lead = app
        .post(
            "/api/meta/track",
            json!({"eventName": "Lead", "leadId": user["id"], "email": "meta-owner@example.in"}),
        )
        .await;
    assert_eq!(lead.status, 200, "{}", lead.body);
    app.get("/api/admin/meta/events", Some(&owner))
        .await
        .error(403, "admin_required");
    let (staff, _) = crate::admin::account(&app, "meta-staff@example.in", "admin").await;
    let stored = outbox(&app).await.len();
    assert!(stored >= 1);
    let view = app.get("/api/admin/meta/events", Some(&staff)).await;
    assert_eq!(view.status, 200, "{}", view.body);
    let data = &view.body["data"];
    assert_eq!(data["forwarding"], false);
    assert_eq!(data["notForwarded"], stored as u64, "{data}");
    let events = data["events"].as_array().expect("events");
    assert_eq!(events.len(), stored);
    assert!(
        events.iter().all(|e| e["status"] == "not_forwarded"),
        "{data}"
    );
}

/// Staff page through the whole outbox and pick one state (the failed
/// events, say) instead of seeing only the newest 50; a bad filter or page
/// is a 400 naming it.
#[tokio::test]
async fn staff_page_through_the_outbox_and_filter_it_by_state() {
    use sea_orm::Set;
    let app = spawn_app().await;
    let (staff, _) = crate::admin::account(&app, "meta-pages@example.in", "admin").await;
    let start = chrono::Utc::now() - chrono::Duration::hours(2);
    let rows: Vec<ca_meta::entity::ActiveModel> = (0..63)
        .map(|n| {
            let at = start + chrono::Duration::seconds(n);
            let status = if n % 20 == 7 { "failed" } else { "sent" };
            ca_meta::entity::ActiveModel {
                id: Set(format!("row-{n:03}")),
                event_id: Set(format!("evt-{n:03}")),
                event_name: Set("Purchase".into()),
                event_time: Set(at),
                payload: Set("{}".into()),
                status: Set(status.into()),
                attempts: Set(1),
                next_attempt_at: Set(at),
                claim_token: Set(None),
                claimed_until: Set(None),
                last_error: Set((status == "failed").then(|| "Invalid parameter".to_string())),
                created_at: Set(at),
                sent_at: Set((status == "sent").then_some(at)),
                browser_at: Set(None),
                test_event: Set(false),
            }
        })
        .collect();
    ca_meta::entity::Entity::insert_many(rows)
        .exec(&app.db.conn)
        .await
        .expect("insert");
    let page = |q: &str| {
        let path = format!("/api/admin/meta/events{q}");
        let app = &app;
        let staff = staff.clone();
        async move { app.get(&path, Some(&staff)).await }
    };
    let ids = |body: &Value| -> Vec<String> {
        body["data"]["events"]
            .as_array()
            .expect("events")
            .iter()
            .map(|e| e["eventId"].as_str().expect("id").to_string())
            .collect()
    };

    let first = page("").await;
    assert_eq!(first.status, 200, "{}", first.body);
    assert_eq!(ids(&first.body).len(), 50);
    assert_eq!(ids(&first.body)[0], "evt-062", "newest first");
    assert_eq!(
        first.body["data"]["pagination"],
        json!({"page": 1, "limit": 50, "total": 63, "pages": 2, "capped": false})
    );
    let second = page("?page=2").await;
    assert_eq!(
        ids(&second.body),
        (0..13)
            .rev()
            .map(|n| format!("evt-{n:03}"))
            .collect::<Vec<_>>()
    );
    let failed = page("?status=failed&limit=2").await;
    assert_eq!(ids(&failed.body), ["evt-047", "evt-027"]);
    assert_eq!(failed.body["data"]["pagination"]["total"], 3);
    assert_eq!(failed.body["data"]["failed"], 3, "the counts stay whole");
    assert_eq!(failed.body["data"]["sent"], 60);
    let rest = page("?status=failed&limit=2&page=2").await;
    assert_eq!(ids(&rest.body), ["evt-007"]);
    // Empty means any.
    assert_eq!(
        page("?status=&page=").await.body["data"]["pagination"]["total"],
        63
    );

    let bad = page("?status=lost").await;
    assert!(
        bad.error(400, "validation_failed").contains("status"),
        "{}",
        bad.body
    );
    assert!(bad.body["errors"]["status"].is_array(), "{}", bad.body);
    page("?limit=0").await.error(400, "validation_failed");
    page("?page=x").await.error(400, "validation_failed");
}

/// A page of the outbox, deep or not, filtered or not, is read from an
/// index in its own order: without one, every page sorted the whole table
/// (millions of sent events on a busy install) to find fifty rows.
#[tokio::test]
async fn outbox_pages_are_read_in_index_order_without_sorting() {
    use sea_orm::{
        ConnectionTrait, DbBackend, QuerySelect, QueryTrait, Statement, TransactionTrait,
    };
    let app = spawn_app().await;
    let backend = app.db.conn.get_database_backend();
    for status in [None, Some("sent"), Some("failed")] {
        let tx = app.db.conn.begin().await.expect("tx");
        // The table is empty here: make the planner show what it would do
        // with millions of events (undone with the transaction).
        let large = if backend == DbBackend::Postgres {
            "SET LOCAL enable_seqscan = off"
        } else {
            "ANALYZE;
             DELETE FROM sqlite_stat1 WHERE tbl = 'meta_events';
             INSERT INTO sqlite_stat1 (tbl, idx, stat) VALUES
               ('meta_events', NULL, '2000000'),
               ('meta_events', 'ix_meta_events_due', '2000000 400000 1'),
               ('meta_events', 'ux_meta_events_event_id', '2000000 1'),
               ('meta_events', 'sqlite_autoindex_meta_events_1', '2000000 1'),
               ('meta_events', 'ix_meta_events_newest', '2000000 1 1'),
               ('meta_events', 'ix_meta_events_status_newest', '2000000 400000 1 1');
             ANALYZE sqlite_schema;"
        };
        tx.execute_unprepared(large).await.expect("a large table");
        let stmt = ca_meta::outbox::page_query(status)
            .offset(5_000)
            .limit(50)
            .build(backend);
        let explain = if backend == DbBackend::Postgres {
            "EXPLAIN"
        } else {
            "EXPLAIN QUERY PLAN"
        };
        let plan = tx
            .query_all_raw(Statement::from_sql_and_values(
                backend,
                format!("{explain} {}", stmt.sql),
                stmt.values.map(|v| v.0).unwrap_or_default(),
            ))
            .await
            .expect("explain");
        let column = usize::from(backend == DbBackend::Sqlite) * 3;
        let lines: Vec<String> = plan
            .iter()
            .map(|row| row.try_get_by_index::<String>(column).expect("line"))
            .collect();
        let index = if status.is_some() {
            "ix_meta_events_status_newest"
        } else {
            "ix_meta_events_newest"
        };
        assert!(
            lines.iter().any(|l| l.contains(index)),
            "{status:?}: {lines:#?}"
        );
        assert!(
            !lines
                .iter()
                .any(|l| l.contains("Sort") || l.contains("TEMP B-TREE")),
            "{status:?} must not sort: {lines:#?}"
        );
        tx.rollback().await.expect("rollback");
    }
}

/// The first browser copy of an event is kept: someone who learns an
/// account id (or a txnid) cannot rewrite the event's attribution by
/// sending it again with their own cookies and user agent.
#[tokio::test]
async fn a_later_copy_cannot_rewrite_an_events_attribution() {
    let app = spawn_app().await;
    let (_, user) = app.register("first@example.in", "correct horse 1").await;
    let id = user["id"].as_str().expect("id").to_string();
    let send = |ua: &'static str, fbp: &'static str| {
        let app = &app;
        let id = id.clone();
        async move {
            let r = app
                .client
                .post(app.url("/api/meta/track"))
                .header("user-agent", ua)
                .header("cookie", format!("_fbp={fbp}"))
                .json(&json!({"eventName": "Lead", "leadId": id}))
                .send()
                .await
                .expect("send");
            assert_eq!(r.status(), 200);
        }
    };
    send("Mozilla/5.0 (the owner)", "fb.1.1700000000.1").await;
    send("curl/8.0 (someone else)", "fb.1.1700000000.666").await;
    let stored = outbox(&app).await;
    let lead = stored
        .iter()
        .find(|(e, _, _)| *e == format!("lead-{id}"))
        .expect("lead");
    assert_eq!(
        lead.2["user_data"]["client_user_agent"],
        "Mozilla/5.0 (the owner)"
    );
    assert_eq!(lead.2["user_data"]["fbp"], "fb.1.1700000000.1");
}

fn unconfigured_service(app: &crate::helpers::TestApp) -> ca_meta::MetaService {
    ca_meta::MetaService::new(
        app.db.conn.clone(),
        ca_meta::Outbox::new(
            app.db.conn.clone(),
            ca_meta::MetaConfig {
                pixel_id: None,
                access_token: None,
                graph_url: "http://127.0.0.1:9".into(),
                api_version: "v21.0".into(),
                test_event_code: None,
                timeout: std::time::Duration::from_secs(5),
            },
        ),
        std::sync::Arc::new(ca_core::rate_limit::RateLimiter::memory()),
        app.base.clone(),
    )
}

/// The server's Purchase is complete on its own: the buyer's user agent,
/// address and page as seen when checkout started, the owner's id, the
/// country, and no phone when the buyer gave none. The success page's copy
/// adds only its `_fbp`/`_fbc` cookies, once; a reload changes nothing.
#[tokio::test]
async fn the_server_purchase_carries_the_buyers_browser_and_the_browser_adds_its_cookies() {
    use sea_orm::sea_query::Expr;
    use sea_orm::{ColumnTrait, QueryFilter};
    let app = spawn_app().await;
    let (token, user) = app
        .register("browser-buyer@example.in", "correct horse 1")
        .await;
    let owner_id = user["id"].as_str().expect("id").to_string();
    // An owner who gave no phone: the payment page gets a stand-in number.
    ca_auth::entities::user::Entity::update_many()
        .col_expr(ca_auth::entities::user::Column::Phone, Expr::value(""))
        .filter(ca_auth::entities::user::Column::Id.eq(&owner_id))
        .exec(&app.db.conn)
        .await
        .expect("no phone");
    let init = app
        .client
        .post(app.url("/api/payment/initialize"))
        .bearer_auth(&token)
        .header("user-agent", "Mozilla/5.0 (Checkout)")
        .header("referer", format!("{}/billing?plan=basic", app.base))
        .json(&json!({"udf2": "basic"}))
        .send()
        .await
        .expect("initialize");
    assert_eq!(init.status(), 200);
    let init: Value = init.json().await.expect("json");
    let txnid = init["data"]["txnid"].as_str().expect("txnid").to_string();
    let payment = ca_billing::entities::payment::Entity::find()
        .filter(ca_billing::entities::payment::Column::Txnid.eq(&txnid))
        .one(&app.db.conn)
        .await
        .expect("payment")
        .expect("stored");
    assert_eq!(payment.phone, ca_billing::payments::DEFAULT_PHONE);
    // Paid live (settled by hand, the way PayU's callback would).
    ca_billing::entities::payment::Entity::update_many()
        .col_expr(
            ca_billing::entities::payment::Column::Status,
            Expr::value("success"),
        )
        .col_expr(
            ca_billing::entities::payment::Column::Mode,
            Expr::value("live"),
        )
        .col_expr(
            ca_billing::entities::payment::Column::SettledAt,
            Expr::value(Some(chrono::Utc::now())),
        )
        .filter(ca_billing::entities::payment::Column::Txnid.eq(&txnid))
        .exec(&app.db.conn)
        .await
        .expect("settle");
    unconfigured_service(&app)
        .sync_purchases(chrono::Utc::now())
        .await
        .expect("sync");
    let event_id = format!("purchase-{txnid}");
    let find = |stored: Vec<(String, String, Value)>| {
        let mine: Vec<_> = stored
            .into_iter()
            .filter(|(e, _, _)| *e == event_id)
            .collect();
        assert_eq!(mine.len(), 1, "one event per payment");
        mine.into_iter().next().expect("purchase")
    };
    let (_, status, server) = find(outbox(&app).await);
    assert_eq!(
        status, "not_forwarded",
        "a live purchase, kept until Meta is configured"
    );
    let ud = &server["user_data"];
    assert_eq!(server["action_source"], "website");
    assert_eq!(
        server["event_source_url"],
        format!("{}/billing?plan=basic", app.base)
    );
    assert_eq!(ud["client_user_agent"], "Mozilla/5.0 (Checkout)");
    assert_eq!(ud["client_ip_address"], "127.0.0.1");
    assert_eq!(
        ud["external_id"][0],
        ca_meta::normalize::hashed("external_id", &owner_id).expect("hash")
    );
    assert_eq!(ud["country"][0], ca_meta::normalize::sha256("in"));
    assert!(ud.get("ph").is_none(), "no phone was given: {ud}");
    assert!(ud.get("fbp").is_none());

    // The success page reports it with its cookies (and the payment page's
    // stand-in phone number, as the dashboard passes it on).
    let report = |ua: &'static str, cookies: &'static str| {
        let app = &app;
        let token = token.clone();
        let txnid = txnid.clone();
        async move {
            let r = app
                .client
                .post(app.url("/api/meta/track"))
                .bearer_auth(token)
                .header("user-agent", ua)
                .header("cookie", cookies)
                .json(&json!({"eventName": "Purchase", "orderId": txnid, "value": 999, "currency": "INR",
                    "phone": "9999999999", "email": "browser-buyer@example.in"}))
                .send()
                .await
                .expect("track");
            assert_eq!(r.status(), 200);
        }
    };
    report(
        "Mozilla/5.0 (Success page)",
        "_fbp=fb.1.1764000000000.1234567890; _fbc=fb.1.1764000000000.IwAR0abc",
    )
    .await;
    report(
        "Mozilla/5.0 (Reload)",
        "_fbp=fb.1.1764000000001.999; _fbc=fb.1.1764000000001.other",
    )
    .await;
    let (_, _, merged) = find(outbox(&app).await);
    let ud = &merged["user_data"];
    assert_eq!(ud["fbp"], "fb.1.1764000000000.1234567890");
    assert_eq!(ud["fbc"], "fb.1.1764000000000.IwAR0abc");
    assert_eq!(ud["client_user_agent"], "Mozilla/5.0 (Checkout)");
    assert!(ud.get("ph").is_none(), "no hash of a stand-in phone: {ud}");
}

#[tokio::test]
async fn the_pixel_id_is_public_once_meta_is_configured() {
    let app = spawn_app().await;
    let r = app.get("/api/meta/config", None).await;
    assert_eq!(r.status, 200);
    assert_eq!(r.body, json!({"pixelId": null}));
    let app = crate::helpers::spawn_app_with(|c| {
        c.meta_pixel_id = Some("1234567890123456".into());
        c.meta_access_token = Some("EAAsecret".into());
        c.meta_graph_url = "http://127.0.0.1:9".into();
    })
    .await;
    let r = app.get("/api/meta/config", None).await;
    assert_eq!(r.body, json!({"pixelId": "1234567890123456"}));
    assert!(!r.body.to_string().contains("EAAsecret"));
}

/// A Graph API stand-in that rejects every token, as Meta does for a
/// revoked one (code 190); it counts the requests.
async fn revoking_graph() -> (String, std::sync::Arc<std::sync::atomic::AtomicUsize>) {
    use actix_web::{App, HttpResponse, HttpServer, web};
    let hits = std::sync::Arc::new(std::sync::atomic::AtomicUsize::new(0));
    let listener = std::net::TcpListener::bind("127.0.0.1:0").expect("bind");
    let url = format!("http://{}", listener.local_addr().expect("addr"));
    let counter = hits.clone();
    let server = HttpServer::new(move || {
        let counter = counter.clone();
        App::new().route(
            "/{version}/{pixel}/events",
            web::post().to(move || {
                counter.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
                async {
                    HttpResponse::BadRequest().json(json!({"error": {
                        "message": "Error validating access token: Session has expired on Thursday, 26-Nov-26.",
                        "type": "OAuthException", "code": 190, "error_subcode": 463, "fbtrace_id": "Ab1"}}))
                }
            }),
        )
    })
    .listen(listener)
    .expect("listen")
    .workers(1)
    .run();
    tokio::spawn(server);
    (url, hits)
}

/// A revoked token pauses the outbox: events stay pending, staff read
/// "Meta token rejected" (never the token), and staff can re-queue failed
/// events; owners cannot.
#[tokio::test]
async fn a_revoked_token_pauses_the_outbox_and_staff_can_requeue() {
    use sea_orm::sea_query::Expr;
    use sea_orm::{ColumnTrait, QueryFilter};
    let (graph, hits) = revoking_graph().await;
    let app = crate::helpers::spawn_app_with(|c| {
        c.meta_pixel_id = Some("1234567890123456".into());
        c.meta_access_token = Some("EAArevoked-token-42".into());
        c.meta_graph_url = graph.clone();
    })
    .await;
    let (owner, user) = app.register("paused@example.in", "correct horse 1").await;
    let lead = app
        .post(
            "/api/meta/track",
            json!({"eventName": "Lead", "leadId": user["id"], "email": "paused@example.in"}),
        )
        .await;
    assert_eq!(lead.status, 200, "{}", lead.body);
    assert_eq!(lead.body["forwarded"], true);
    let (staff, _) = crate::admin::account(&app, "paused-staff@example.in", "admin").await;
    let mut view = Value::Null;
    for _ in 0..40 {
        view = app.get("/api/admin/meta/events", Some(&staff)).await.body;
        if !view["data"]["paused"].is_null() {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(250)).await;
    }
    let data = &view["data"];
    let reason = data["paused"]["reason"].as_str().expect("paused");
    assert!(reason.starts_with("Meta token rejected"), "{reason}");
    assert!(reason.contains("Session has expired"), "{reason}");
    assert_eq!(data["pending"], 1, "{data}");
    assert_eq!(data["failed"], 0, "{data}");
    assert!(!view.to_string().contains("EAArevoked-token-42"));
    // Paused: the worker's later rounds send nothing.
    let after_pause = hits.load(std::sync::atomic::Ordering::SeqCst);
    tokio::time::sleep(std::time::Duration::from_millis(3500)).await;
    assert_eq!(hits.load(std::sync::atomic::Ordering::SeqCst), after_pause);

    // A failed event, re-queued by staff (not by an owner).
    ca_meta::entity::Entity::update_many()
        .col_expr(ca_meta::entity::Column::Status, Expr::value("failed"))
        .col_expr(
            ca_meta::entity::Column::LastError,
            Expr::value(Some("Meta answered 400: Invalid parameter".to_string())),
        )
        .filter(
            ca_meta::entity::Column::EventId
                .eq(format!("lead-{}", user["id"].as_str().expect("id"))),
        )
        .exec(&app.db.conn)
        .await
        .expect("fail");
    app.send(
        "POST",
        "/api/admin/meta/events/requeue",
        Some(&owner),
        json!({}),
    )
    .await
    .error(403, "admin_required");
    let out = app
        .send(
            "POST",
            "/api/admin/meta/events/requeue",
            Some(&staff),
            json!({}),
        )
        .await;
    assert_eq!(out.status, 200, "{}", out.body);
    assert_eq!(out.body["data"]["requeued"], 1);
    assert_eq!(out.body["data"]["tooOld"], 0);
    let stored = outbox(&app).await;
    assert!(
        stored.iter().all(|(_, status, _)| status == "pending"),
        "{stored:?}"
    );
}

/// A Graph API stand-in that knows one pixel. Events for any other pixel
/// are refused whole, as Meta refuses a pixel that does not exist or that
/// the token may not send to (code 100, subcode 33); it counts the requests.
async fn one_pixel_graph(
    known: &'static str,
) -> (String, std::sync::Arc<std::sync::atomic::AtomicUsize>) {
    use actix_web::{App, HttpResponse, HttpServer, web};
    let hits = std::sync::Arc::new(std::sync::atomic::AtomicUsize::new(0));
    let listener = std::net::TcpListener::bind("127.0.0.1:0").expect("bind");
    let url = format!("http://{}", listener.local_addr().expect("addr"));
    let counter = hits.clone();
    let server = HttpServer::new(move || {
        let counter = counter.clone();
        App::new().route(
            "/{version}/{pixel}/events",
            web::post().to(move |path: web::Path<(String, String)>| {
                counter.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
                let pixel = path.into_inner().1;
                async move {
                    if pixel == known {
                        HttpResponse::Ok().json(json!({"events_received": 1, "fbtrace_id": "Ok1"}))
                    } else {
                        HttpResponse::BadRequest().json(json!({"error": {
                            "message": format!("Unsupported post request. Object with ID '{pixel}' does not exist, cannot be loaded due to missing permissions, or does not support this operation."),
                            "type": "GraphMethodException", "code": 100, "error_subcode": 33, "fbtrace_id": "Ab2"}}))
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
    (url, hits)
}

/// A wrong pixel id is not the events' fault: one request finds it out,
/// sending pauses with every event kept (none marked failed, as splitting
/// the batch down to single events would), staff read what to fix, and
/// sending resumes once the pixel id is changed.
#[tokio::test]
async fn a_pixel_meta_refuses_pauses_the_outbox_with_every_event_kept() {
    let (graph, hits) = one_pixel_graph("1234567890123456").await;
    let mut app = crate::helpers::spawn_app_with(|c| {
        c.meta_pixel_id = Some("6543210987654321".into());
        c.meta_access_token = Some("EAAgood-token".into());
        c.meta_graph_url = graph.clone();
    })
    .await;
    app.stop_worker("meta outbox").await;
    let outbox_with = |pixel: &str| {
        ca_meta::Outbox::new(
            app.db.conn.clone(),
            ca_meta::MetaConfig {
                pixel_id: Some(pixel.into()),
                access_token: Some("EAAgood-token".into()),
                graph_url: graph.clone(),
                api_version: "v21.0".into(),
                test_event_code: None,
                timeout: std::time::Duration::from_secs(5),
            },
        )
    };
    let wrong = outbox_with("6543210987654321");
    for i in 0..6 {
        let event = ca_meta::OutgoingEvent {
            event_id: format!("lead-pixel-{i}"),
            event_name: "Lead".into(),
            event_time: chrono::Utc::now(),
            event_source_url: None,
            user_data: ca_meta::UserData {
                email: Some(format!("lead{i}@example.in")),
                ..Default::default()
            },
            custom_data: serde_json::Map::new(),
            delivery: ca_meta::Delivery::Live,
        };
        assert!(wrong.enqueue(&app.db.conn, &event).await.expect("stored"));
    }
    let now = chrono::Utc::now();
    assert_eq!(wrong.send_due(now).await.expect("round"), 0);
    assert_eq!(
        hits.load(std::sync::atomic::Ordering::SeqCst),
        1,
        "one request, not one per event"
    );
    let stored = outbox(&app).await;
    assert_eq!(stored.len(), 6);
    assert!(
        stored.iter().all(|(_, status, _)| status == "pending"),
        "{stored:?}"
    );
    let (staff, _) = crate::admin::account(&app, "pixel-staff@example.in", "admin").await;
    let view = app.get("/api/admin/meta/events", Some(&staff)).await.body;
    let data = &view["data"];
    assert_eq!(data["paused"]["cause"], "pixel", "{data}");
    let reason = data["paused"]["reason"].as_str().expect("reason");
    assert!(reason.starts_with("Meta refused the pixel"), "{reason}");
    assert!(reason.contains("subcode 33"), "{reason}");
    assert_eq!(data["failed"], 0, "{data}");
    assert!(!view.to_string().contains("EAAgood-token"));
    // Paused: a later round asks nothing.
    assert_eq!(
        wrong
            .send_due(now + chrono::Duration::minutes(5))
            .await
            .expect("round"),
        0
    );
    assert_eq!(hits.load(std::sync::atomic::Ordering::SeqCst), 1);

    // The pixel id is corrected (a restart with CA_META_PIXEL_ID changed):
    // sending resumes and every kept event goes.
    let right = outbox_with("1234567890123456");
    let sent = right
        .send_due(now + chrono::Duration::minutes(6))
        .await
        .expect("round");
    assert_eq!(sent, 6);
    assert!(outbox(&app).await.iter().all(|(_, s, _)| s == "sent"));
    let view = app.get("/api/admin/meta/events", Some(&staff)).await.body;
    assert!(view["data"]["paused"].is_null(), "{view}");
}
