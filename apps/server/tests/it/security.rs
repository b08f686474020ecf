//! Hardening found missing by a penetration test: a login-as session that
//! outlives its author, what such a session may not do, caching of
//! authenticated answers, the API reference's scripts, `/metrics` behind a
//! proxy, checkout flooding and the ad-tracking attribution.

use sea_orm::sea_query::Expr;
use sea_orm::{ColumnTrait, EntityTrait, QueryFilter};
use serde_json::json;

use crate::admin::account;
use crate::helpers::{TestApp, spawn_app};

/// A superuser's login-as token for `owner_id`.
async fn login_as(app: &TestApp, su: &str, owner_id: &str) -> String {
    let r = app
        .send(
            "POST",
            "/api/admin/login-as-user",
            Some(su),
            json!({"userId": owner_id}),
        )
        .await;
    assert_eq!(r.status, 200, "{}", r.body);
    r.body["data"]["token"].as_str().expect("token").to_string()
}

/// A fresh session of `email` (password of [`account`]).
async fn sign_in(app: &TestApp, email: &str) -> String {
    let r = app.login(email, "correct horse 1").await;
    assert_eq!(r.status, 200, "{}", r.body);
    r.body["token"].as_str().expect("token").to_string()
}

async fn set_role(app: &TestApp, id: &str, role: &str) {
    ca_auth::entities::user::Entity::update_many()
        .col_expr(ca_auth::entities::user::Column::Role, Expr::value(role))
        .filter(ca_auth::entities::user::Column::Id.eq(id))
        .exec(&app.db.conn)
        .await
        .expect("role");
}

#[tokio::test]
async fn a_login_as_token_dies_with_its_authors_power() {
    let app = spawn_app().await;
    let (root, _) = account(&app, "root@example.in", "superuser").await;
    let (su, su_id) = account(&app, "second@example.in", "superuser").await;
    let (_, owner_id) = account(&app, "owner@example.in", "user").await;

    // Demoted: the token stops working at once.
    let token = login_as(&app, &su, &owner_id).await;
    assert_eq!(app.get("/api/auth/me", Some(&token)).await.status, 200);
    let r = app
        .send(
            "PUT",
            &format!("/api/admin/users/{su_id}"),
            Some(&root),
            json!({"role": "admin"}),
        )
        .await;
    assert_eq!(r.status, 200, "{}", r.body);
    app.get("/api/auth/me", Some(&token))
        .await
        .error(401, "invalid_token");
    // Even promoted back, the old login-as token stays dead (the demotion
    // revoked the author's sessions).
    set_role(&app, &su_id, "superuser").await;
    app.get("/api/auth/me", Some(&token))
        .await
        .error(401, "invalid_token");

    // Signing out everywhere ends the sessions opened as others too.
    let su = sign_in(&app, "second@example.in").await;
    let token = login_as(&app, &su, &owner_id).await;
    assert_eq!(app.get("/api/auth/me", Some(&token)).await.status, 200);
    let r = app
        .send("POST", "/api/auth/logout-all", Some(&su), json!({}))
        .await;
    assert_eq!(r.status, 200, "{}", r.body);
    app.get("/api/auth/me", Some(&token))
        .await
        .error(401, "invalid_token");

    // Deleted: the token dies, and the audit log still names the author.
    let su = sign_in(&app, "second@example.in").await;
    let token = login_as(&app, &su, &owner_id).await;
    let r = app
        .send(
            "DELETE",
            &format!("/api/admin/users/{su_id}"),
            Some(&root),
            json!({}),
        )
        .await;
    assert_eq!(r.status, 200, "{}", r.body);
    app.get("/api/auth/me", Some(&token))
        .await
        .error(401, "invalid_token");
    let entries = ca_admin::entities::audit_entry::Entity::find()
        .filter(ca_admin::entities::audit_entry::Column::ActorId.eq(&su_id))
        .all(&app.db.conn)
        .await
        .expect("audit");
    assert!(!entries.is_empty());
    assert!(
        entries.iter().all(|e| e.actor_email == "second@example.in"),
        "{entries:?}"
    );
}

#[tokio::test]
async fn staff_can_be_signed_in_as_by_nobody() {
    let app = spawn_app().await;
    let (su, _) = account(&app, "root@example.in", "superuser").await;
    let (_, other_su) = account(&app, "other@example.in", "superuser").await;
    let (_, admin_id) = account(&app, "admin@example.in", "admin").await;
    for target in [&other_su, &admin_id] {
        app.send(
            "POST",
            "/api/admin/login-as-user",
            Some(&su),
            json!({"userId": target}),
        )
        .await
        .error(403, "login_as_owners_only");
    }
    // A token made for a staff account before the rule (or forged with the
    // secret) is refused as well.
    let keys = ca_auth::JwtKeys::new(crate::helpers::SECRET, 168);
    let staff = ca_auth::entities::user::Entity::find_by_id(admin_id.clone())
        .one(&app.db.conn)
        .await
        .expect("q")
        .expect("admin");
    let su_row = ca_auth::entities::user::Entity::find()
        .filter(ca_auth::entities::user::Column::Email.eq("root@example.in"))
        .one(&app.db.conn)
        .await
        .expect("q")
        .expect("su");
    let token = keys
        .issue_acting(
            &staff.id,
            staff.token_version,
            Some((&su_row.id, su_row.token_version)),
            chrono::Utc::now(),
        )
        .expect("token");
    app.get("/api/auth/me", Some(&token))
        .await
        .error(401, "invalid_token");
}

#[tokio::test]
async fn a_login_as_session_cannot_take_over_the_account() {
    let app = spawn_app().await;
    let (su, _) = account(&app, "root@example.in", "superuser").await;
    let (owner, owner_id) = account(&app, "owner@example.in", "user").await;
    let token = login_as(&app, &su, &owner_id).await;
    app.send(
        "POST",
        "/api/auth/change-password",
        Some(&token),
        json!({"currentPassword": "correct horse 1", "newPassword": "another horse 2"}),
    )
    .await
    .error(403, "not_while_acting_as");
    app.send("POST", "/api/auth/logout-all", Some(&token), json!({}))
        .await
        .error(403, "not_while_acting_as");
    // Nothing changed: the owner's own session and password still work.
    assert_eq!(app.get("/api/auth/me", Some(&owner)).await.status, 200);
    sign_in(&app, "owner@example.in").await;
}

#[tokio::test]
async fn authenticated_answers_are_never_cached() {
    let app = spawn_app().await;
    let (su, _) = account(&app, "root@example.in", "superuser").await;
    let (owner, _) = account(&app, "owner@example.in", "user").await;
    let login = app
        .send(
            "POST",
            "/api/auth/login",
            None,
            json!({"email": "owner@example.in", "password": "correct horse 1"}),
        )
        .await;
    assert_eq!(login.status, 200);
    assert_eq!(login.headers["cache-control"], "no-store");
    let register = app
        .send(
            "POST",
            "/api/auth/register",
            None,
            json!({"name": "New Owner", "email": "new@example.in", "password": "secret123", "phone": "+91 9876543210"}),
        )
        .await;
    assert_eq!(register.status, 201, "{}", register.body);
    assert_eq!(register.headers["cache-control"], "no-store");
    for (token, path) in [
        (&owner, "/api/auth/me"),
        (&owner, "/api/payment/history"),
        (&owner, "/api/customers/user"),
        (&owner, "/api/billing/subscription"),
        (&owner, "/api/campaigns"),
        (&su, "/api/admin/users"),
        (&su, "/api/users"),
    ] {
        let r = app.get(path, Some(token)).await;
        assert_eq!(r.status, 200, "{path}: {}", r.body);
        assert_eq!(r.headers["cache-control"], "no-store", "{path}");
    }
    // A refused authenticated call is not cached either.
    let r = app.get("/api/payment/invoice/NOPE", Some(&owner)).await;
    assert_eq!(r.status, 404);
    assert_eq!(r.headers["cache-control"], "no-store");
}

#[tokio::test]
async fn metrics_refuse_callers_relayed_by_any_proxy() {
    let app = spawn_app().await;
    assert_eq!(app.get("/metrics", None).await.status, 200);
    for header in [
        "x-forwarded-for",
        "forwarded",
        "x-real-ip",
        "true-client-ip",
        "cf-connecting-ip",
        "x-client-ip",
        "fastly-client-ip",
        "x-cluster-client-ip",
    ] {
        let r = app
            .client
            .get(app.url("/metrics"))
            .header(header, "203.0.113.9")
            .send()
            .await
            .expect("send");
        assert_eq!(r.status().as_u16(), 403, "{header}");
    }
}

#[tokio::test]
async fn checkout_cannot_be_flooded_with_pending_payments() {
    let app = spawn_app().await;
    let (owner, owner_id) = account(&app, "owner@example.in", "user").await;
    let mut created = 0;
    let mut limited = None;
    for _ in 0..15 {
        let r = app
            .send(
                "POST",
                "/api/payment/initialize",
                Some(&owner),
                json!({"udf2": "basic", "udf4": "monthly"}),
            )
            .await;
        match r.status.as_u16() {
            200 => created += 1,
            429 => {
                limited = Some(r);
                break;
            }
            other => panic!("unexpected {other}: {}", r.body),
        }
    }
    assert_eq!(created, 10);
    let limited = limited.expect("the 11th checkout in a minute is refused");
    assert_eq!(limited.body["code"], "rate_limited");
    assert!(limited.headers.contains_key("retry-after"));
    let stored = ca_billing::entities::payment::Entity::find()
        .filter(ca_billing::entities::payment::Column::OwnerId.eq(&owner_id))
        .all(&app.db.conn)
        .await
        .expect("payments");
    assert_eq!(stored.len(), 10);
}

const SITE: &str = "https://kesar.example.in";

/// An owner on the trial and their campaign on `SITE`; returns (token, campaign id).
async fn trial_campaign(app: &TestApp, email: &str) -> (String, String) {
    let (token, _) = app.register(email, "correct horse 1").await;
    let created = app
        .send(
            "POST",
            "/api/campaigns",
            Some(&token),
            json!({"name": "Diwali offer", "websiteUrl": format!("{SITE}/shop")}),
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

/// A page view of `visitor` from the client address `address` (the server
/// trusts the proxy header in these tests).
async fn page_view(app: &TestApp, campaign: &str, visitor: &str, address: &str) -> u16 {
    app.client
        .post(app.url("/api/widget/events"))
        .header("origin", SITE)
        .header("x-forwarded-for", address)
        .json(&json!({"campaignId": campaign, "visitorId": visitor, "type": "pageview"}))
        .send()
        .await
        .expect("send")
        .status()
        .as_u16()
}

async fn visitors_used(app: &TestApp, token: &str) -> serde_json::Value {
    app.events.flush().await;
    let usage = app.get("/api/billing/usage", Some(token)).await;
    assert_eq!(usage.status, 200, "{}", usage.body);
    usage.body["data"]["visitors"].clone()
}

#[tokio::test]
async fn a_stranger_cannot_use_up_an_owners_visitors_from_one_address() {
    let app = crate::helpers::spawn_app_with(|c| {
        c.trust_proxy = true;
        c.widget_config_cache_secs = 0;
        c.widget_events_ip_per_minute = 100_000;
    })
    .await;
    let (token, campaign) = trial_campaign(&app, "flooded@example.in").await;
    // 1,005 new visitor ids from one address, as the attack did.
    for i in 0..1005 {
        assert_eq!(
            page_view(&app, &campaign, &format!("flood-{i:06}"), "203.0.113.66").await,
            202
        );
    }
    let used = visitors_used(&app, &token).await;
    assert_eq!(used["current"], 20, "{used}");
    assert_eq!(used["limit"], 1000);
    assert_eq!(used["stopAt"], 1100);
    let config = app
        .get(&format!("/api/widget/campaigns/{campaign}/config"), None)
        .await;
    assert_eq!(config.body["active"], true, "{}", config.body);
    // Real visitors from other addresses still count, and one address's
    // visitors already counted keep counting as they come back.
    for (i, address) in ["198.51.100.1", "198.51.100.2", "198.51.100.3"]
        .iter()
        .enumerate()
    {
        page_view(&app, &campaign, &format!("real-{i:06}"), address).await;
    }
    page_view(&app, &campaign, "flood-000001", "203.0.113.66").await;
    let used = visitors_used(&app, &token).await;
    assert_eq!(used["current"], 23, "{used}");
    // Stored hashes only: the address itself is kept nowhere.
    let journal_or_rows = format!(
        "{:?}",
        ca_campaigns::entities::monthly_visitor::Entity::find()
            .all(&app.db.conn)
            .await
            .expect("rows")
    );
    assert!(!journal_or_rows.contains("203.0.113.66"));
}

#[tokio::test]
async fn owners_are_warned_at_80_and_100_percent_and_get_a_grace() {
    let app = crate::helpers::spawn_app_with(|c| {
        c.trust_proxy = true;
        c.widget_config_cache_secs = 0;
        c.widget_events_ip_per_minute = 100_000;
    })
    .await;
    let (token, campaign) = trial_campaign(&app, "warned@example.in").await;
    let (root, _) = account(&app, "root@example.in", "superuser").await;
    // A trial of 100 visitors makes the test short.
    let r = app
        .send(
            "PUT",
            "/api/admin/settings/trial",
            Some(&root),
            json!({"trialDurationDays": 3, "trialCampaignLimit": 1, "trialVisitorLimit": 100, "autoStartTrial": true, "trialFeatures": []}),
        )
        .await;
    assert_eq!(r.status, 200, "{}", r.body);
    let mailer = mailer();
    let warn = || ca_campaigns::quota::notify_due(&app.db.conn, &mailer, SITE, chrono::Utc::now());
    let mut n = 0;
    let mut visit = async |count: usize| {
        for _ in 0..count {
            // Five visitors an address keeps every address under its allowance.
            let address = format!("198.51.100.{}", n / 5);
            page_view(&app, &campaign, &format!("visitor-{n:05}"), &address).await;
            n += 1;
        }
    };
    visit(79).await;
    visitors_used(&app, &token).await;
    assert_eq!(warn().await.expect("warn"), 0);
    visit(1).await;
    visitors_used(&app, &token).await;
    assert_eq!(warn().await.expect("warn"), 1);
    assert_eq!(warn().await.expect("warn"), 0, "once a month");
    assert_eq!(app.outbox_count("warned@example.in").await, 1);
    visit(20).await;
    let used = visitors_used(&app, &token).await;
    assert_eq!(
        (used["current"].as_i64(), used["stopAt"].as_i64()),
        (Some(100), Some(110))
    );
    assert_eq!(warn().await.expect("warn"), 1);
    assert_eq!(warn().await.expect("warn"), 0);
    assert_eq!(app.outbox_count("warned@example.in").await, 2);
    let config = format!("/api/widget/campaigns/{campaign}/config");
    // At the limit the popup keeps showing (the grace)…
    assert_eq!(app.get(&config, None).await.body["active"], true);
    visit(9).await;
    visitors_used(&app, &token).await;
    assert_eq!(app.get(&config, None).await.body["active"], true);
    // …and stops 10 % past it.
    visit(1).await;
    visitors_used(&app, &token).await;
    assert_eq!(app.get(&config, None).await.body["reason"], "visitor_limit");
}

fn mailer() -> ca_auth::Mailer {
    ca_auth::Mailer::new(None, "ConvertAssist <no-reply@convertassist.local>").expect("mailer")
}

#[tokio::test]
async fn the_api_reference_runs_only_this_servers_scripts() {
    let app = spawn_app().await;
    let r = app
        .client
        .get(app.url("/api/docs"))
        .send()
        .await
        .expect("send");
    assert_eq!(r.status().as_u16(), 200);
    let csp = r.headers()["content-security-policy"]
        .to_str()
        .expect("csp")
        .to_string();
    assert!(csp.contains("script-src 'self';"), "{csp}");
    assert!(!csp.contains("http"), "no other origin is allowed: {csp}");
    assert!(!csp.contains("'unsafe-eval'"), "{csp}");
    let html = r.text().await.expect("html");
    assert!(
        !html.contains("http://") && !html.contains("https://") && !html.contains("//cdn"),
        "{html}"
    );
    assert!(
        html.contains(r#"<script src="/api-docs/scalar.js">"#),
        "{html}"
    );
    assert!(html.contains(r#"data-url="/api/openapi.json""#), "{html}");
}
