//! `/api/auth/*`: every route's success and each error status and message.

use chrono::{DateTime, Utc};
use sea_orm::sea_query::Expr;
use sea_orm::{ColumnTrait, EntityTrait, QueryFilter};
use serde_json::json;

use crate::helpers::spawn_app;

#[tokio::test]
async fn register_starts_a_three_day_trial_and_signs_in() {
    let app = spawn_app().await;
    let reply = app
        .post(
            "/api/auth/register",
            json!({"name": "  Asha Verma ", "email": "Asha@Example.IN ", "password": "secret1", "phone": "+91 9876543210"}),
        )
        .await;
    assert_eq!(reply.status, 201, "{}", reply.body);
    assert_eq!(reply.body["success"], true);
    let user = &reply.body["user"];
    assert_eq!(user["name"], "Asha Verma");
    assert_eq!(user["email"], "asha@example.in");
    // Stored in E.164, however it was typed.
    assert_eq!(user["phone"], "+919876543210");
    assert_eq!(user["role"], "user");
    assert_eq!(user["planId"], "free");
    assert_eq!(user["subscriptionStatus"], "trial");
    assert_eq!(user["isInTrial"], true);
    assert_eq!(user["trialRemainingDays"], 3);
    assert_eq!(user["_id"], user["id"]);
    assert!(user.get("passwordHash").is_none() && user.get("password_hash").is_none());
    let ends: DateTime<Utc> = user["trialEndsAt"]
        .as_str()
        .expect("trialEndsAt")
        .parse()
        .expect("rfc3339");
    let days = (ends - Utc::now()).num_hours();
    assert!((71..=72).contains(&days), "trial ends in {days} h");

    let token = reply.body["token"].as_str().expect("token");
    let me = app.get("/api/auth/me", Some(token)).await;
    assert_eq!(me.status, 200);
    assert_eq!(me.body["user"]["email"], "asha@example.in");
}

#[tokio::test]
async fn register_checks_every_field() {
    let app = spawn_app().await;
    let base = json!({"name": "Asha", "email": "a@example.in", "password": "secret1", "phone": "+91 9876543210"});
    let cases = [
        ("name", json!(""), "Name is required"),
        ("name", json!("   "), "Name is required"),
        ("email", json!(""), "Email is required"),
        (
            "email",
            json!("not-an-email"),
            "Please enter a valid email address",
        ),
        (
            "password",
            json!("12345"),
            "Password must be at least 6 characters long",
        ),
        ("phone", json!(""), "Phone number is required"),
        (
            "phone",
            json!("+91 98x"),
            "Please enter a valid phone number",
        ),
    ];
    for (field, value, message) in cases {
        let mut body = base.clone();
        body[field] = value;
        let reply = app.post("/api/auth/register", body).await;
        assert_eq!(reply.error(400, "validation_failed"), message);
        assert_eq!(reply.body["errors"][field][0], message);
    }
    let mut missing = base.clone();
    missing.as_object_mut().expect("object").remove("phone");
    let reply = app.post("/api/auth/register", missing).await;
    assert_eq!(
        reply.error(400, "validation_failed"),
        "Phone number is required"
    );
    // Nothing was stored by the refused attempts.
    let reply = app.login("a@example.in", "secret1").await;
    reply.error(401, "invalid_credentials");
}

#[tokio::test]
async fn duplicate_email_is_a_conflict_and_keeps_the_first_account() {
    let app = spawn_app().await;
    app.register("dup@example.in", "first-pass").await;
    let reply = app
        .post(
            "/api/auth/register",
            json!({"name": "Other", "email": "DUP@example.in", "password": "second-pass", "phone": "+91 9000000000"}),
        )
        .await;
    assert_eq!(
        reply.error(409, "email_taken"),
        "An account with this email already exists"
    );
    assert_eq!(app.login("dup@example.in", "first-pass").await.status, 200);
    app.login("dup@example.in", "second-pass")
        .await
        .error(401, "invalid_credentials");
}

#[tokio::test]
async fn login_succeeds_and_refuses_with_one_message() {
    let app = spawn_app().await;
    app.register("login@example.in", "right-pass").await;
    let ok = app.login("  LOGIN@example.in", "right-pass").await;
    assert_eq!(ok.status, 200);
    assert_eq!(ok.body["success"], true);
    assert_eq!(ok.body["user"]["email"], "login@example.in");
    let token = ok.body["token"].as_str().expect("token");
    assert_eq!(app.get("/api/auth/me", Some(token)).await.status, 200);

    let wrong = app.login("login@example.in", "wrong-pass").await;
    assert_eq!(
        wrong.error(401, "invalid_credentials"),
        "Invalid email or password"
    );
    let unknown = app.login("nobody@example.in", "whatever").await;
    assert_eq!(
        unknown.error(401, "invalid_credentials"),
        "Invalid email or password"
    );
    let missing = app.login("", "").await;
    assert_eq!(
        missing.error(400, "validation_failed"),
        "Email and password are required"
    );
}

#[tokio::test]
async fn failed_logins_are_rate_limited_per_email() {
    let app = spawn_app().await;
    app.register("victim@example.in", "right-pass").await;
    for _ in 0..4 {
        app.login("victim@example.in", "wrong")
            .await
            .error(401, "invalid_credentials");
    }
    // The fifth failure from this address reaches the limit; from then on even
    // the right password from here waits.
    let fifth = app.login("victim@example.in", "wrong").await;
    assert_eq!(fifth.status, 401);
    let locked = app.login("victim@example.in", "right-pass").await;
    locked.error(429, "rate_limited");
    let retry: u64 = locked.headers["retry-after"]
        .to_str()
        .expect("header")
        .parse()
        .expect("seconds");
    assert!(retry > 0 && retry <= 15 * 60);
    // Another account from the same address is not locked by it.
    app.register("other@example.in", "right-pass").await;
    assert_eq!(
        app.login("other@example.in", "right-pass").await.status,
        200
    );
}

/// A stranger's wrong passwords lock the stranger's address out of the
/// account, not the owner signing in from theirs; guessing from many
/// addresses meets the slower limit per account.
#[tokio::test]
async fn a_stranger_cannot_lock_the_owner_out() {
    let app = crate::helpers::spawn_app_with(|c| c.trust_proxy = true).await;
    app.register("owner-lock@example.in", "right-pass").await;
    let login_from = |ip: &str, password: &str| {
        let req = app
            .client
            .post(app.url("/api/auth/login"))
            .header("x-forwarded-for", ip)
            .json(&serde_json::json!({"email": "owner-lock@example.in", "password": password}));
        async move { Reply(req.send().await.expect("send")).await }
    };
    for _ in 0..5 {
        assert_eq!(login_from("203.0.113.7", "wrong").await.status, 401);
    }
    login_from("203.0.113.7", "right-pass")
        .await
        .error(429, "rate_limited");
    // The owner, from their own address, signs in.
    assert_eq!(login_from("198.51.100.20", "right-pass").await.status, 200);

    // Many addresses together: after 100 failures in the hour (the stranger's
    // 5 and 95 more) the account waits.
    for i in 0..95u32 {
        let ip = format!("10.1.{}.{}", i / 200, i % 200 + 1);
        let r = login_from(&ip, "wrong").await;
        assert_eq!(r.status, 401, "attempt {i}: {}", r.body);
    }
    login_from("198.51.100.21", "right-pass")
        .await
        .error(429, "rate_limited");
}

/// Behind a proxy, the address limits count by is the one the proxy saw
/// (the last `X-Forwarded-For` entry): a client writing a new address of
/// its own in front of it each time does not get fresh attempts, and an
/// IPv6 client rotating through its /64 is one address.
#[tokio::test]
async fn a_forged_forwarded_address_or_a_new_ipv6_address_gets_no_fresh_attempts() {
    let app = crate::helpers::spawn_app_with(|c| c.trust_proxy = true).await;
    app.register("forged@example.in", "right-pass").await;
    let login_from = |xff: String| {
        let req = app
            .client
            .post(app.url("/api/auth/login"))
            .header("x-forwarded-for", xff)
            .json(&serde_json::json!({"email": "forged@example.in", "password": "wrong"}));
        async move { Reply(req.send().await.expect("send")).await }
    };
    for i in 0..5 {
        let r = login_from(format!("10.0.0.{i}, 203.0.113.7")).await;
        assert_eq!(r.status, 401, "attempt {i}: {}", r.body);
    }
    login_from("10.0.0.99, 203.0.113.7".into())
        .await
        .error(429, "rate_limited");
    for i in 0..5 {
        let r = login_from(format!("2001:db8:77:1::{:x}", i + 1)).await;
        assert_eq!(r.status, 401, "attempt {i}: {}", r.body);
    }
    login_from("2001:db8:77:1:ffff:1:2:3".into())
        .await
        .error(429, "rate_limited");
    // Another /64 is another address.
    assert_eq!(login_from("2001:db8:77:2::1".into()).await.status, 401);
}

#[tokio::test]
async fn failed_logins_are_rate_limited_per_ip() {
    let app = spawn_app().await;
    app.register("real@example.in", "right-pass").await;
    for i in 0..20 {
        let reply = app.login(&format!("guess{i}@example.in"), "wrong").await;
        assert_eq!(reply.status, 401, "attempt {i}");
    }
    app.login("real@example.in", "right-pass")
        .await
        .error(429, "rate_limited");
}

#[tokio::test]
async fn me_needs_a_token() {
    let app = spawn_app().await;
    let none = app.get("/api/auth/me", None).await;
    assert_eq!(none.error(401, "missing_token"), "Authentication required");
    let reply = Reply(
        app.client
            .get(app.url("/api/auth/me"))
            .header("Authorization", "Basic abc")
            .send()
            .await
            .expect("send"),
    )
    .await;
    reply.error(401, "missing_token");
}

#[allow(non_snake_case)]
async fn Reply(res: reqwest::Response) -> crate::helpers::Reply {
    crate::helpers::Reply::from(res).await
}

#[tokio::test]
async fn update_me_saves_name_phone_and_notifications() {
    let app = spawn_app().await;
    let (token, _) = app.register("me@example.in", "secret1").await;
    let reply = app
        .send(
            "PUT",
            "/api/auth/me",
            Some(&token),
            json!({"name": "Asha V.", "phone": "+44 7700 900123", "emailNotifications": false, "pushNotifications": true}),
        )
        .await;
    assert_eq!(reply.status, 200, "{}", reply.body);
    let me = app.get("/api/auth/me", Some(&token)).await;
    assert_eq!(me.body["user"]["name"], "Asha V.");
    assert_eq!(me.body["user"]["phone"], "+447700900123");
    assert_eq!(me.body["user"]["emailNotifications"], false);
    assert_eq!(me.body["user"]["pushNotifications"], true);
    // Email is not changed through this call.
    assert_eq!(me.body["user"]["email"], "me@example.in");

    let bad = app
        .send(
            "PUT",
            "/api/auth/me",
            Some(&token),
            json!({"name": " ", "phone": "+44 7700 900999"}),
        )
        .await;
    assert_eq!(bad.error(400, "validation_failed"), "Name is required");
    let me = app.get("/api/auth/me", Some(&token)).await;
    assert_eq!(
        me.body["user"]["phone"], "+447700900123",
        "a refused update changes nothing"
    );

    app.send("PUT", "/api/auth/me", None, json!({"name": "X"}))
        .await
        .error(401, "missing_token");
}

#[tokio::test]
async fn change_password_revokes_other_sessions() {
    let app = spawn_app().await;
    let (token, _) = app.register("change@example.in", "old-pass").await;
    let wrong = app
        .send(
            "POST",
            "/api/auth/change-password",
            Some(&token),
            json!({"currentPassword": "nope", "newPassword": "new-pass"}),
        )
        .await;
    assert_eq!(
        wrong.error(400, "wrong_password"),
        "Current password is incorrect"
    );
    let short = app
        .send(
            "POST",
            "/api/auth/change-password",
            Some(&token),
            json!({"currentPassword": "old-pass", "newPassword": "123"}),
        )
        .await;
    assert_eq!(
        short.error(400, "validation_failed"),
        "Password must be at least 6 characters long"
    );
    let ok = app
        .send(
            "POST",
            "/api/auth/change-password",
            Some(&token),
            json!({"currentPassword": "old-pass", "newPassword": "new-pass"}),
        )
        .await;
    assert_eq!(ok.status, 200, "{}", ok.body);
    let new_token = ok.body["token"].as_str().expect("token");
    app.get("/api/auth/me", Some(&token))
        .await
        .error(401, "invalid_token");
    assert_eq!(app.get("/api/auth/me", Some(new_token)).await.status, 200);
    assert_eq!(app.login("change@example.in", "new-pass").await.status, 200);
    app.login("change@example.in", "old-pass")
        .await
        .error(401, "invalid_credentials");
}

#[tokio::test]
async fn logout_all_revokes_every_token() {
    let app = spawn_app().await;
    let (first, _) = app.register("everywhere@example.in", "secret1").await;
    let second = app.login("everywhere@example.in", "secret1").await.body["token"]
        .as_str()
        .expect("token")
        .to_string();
    let reply = app
        .send("POST", "/api/auth/logout-all", Some(&second), json!({}))
        .await;
    assert_eq!(reply.status, 200);
    for token in [&first, &second] {
        app.get("/api/auth/me", Some(token))
            .await
            .error(401, "invalid_token");
    }
}

#[tokio::test]
async fn forgot_password_answers_the_same_for_unknown_emails() {
    let app = spawn_app().await;
    app.register("known@example.in", "secret1").await;
    let known = app
        .post(
            "/api/auth/forgot-password",
            json!({"email": "Known@example.in"}),
        )
        .await;
    let unknown = app
        .post(
            "/api/auth/forgot-password",
            json!({"email": "unknown@example.in"}),
        )
        .await;
    assert_eq!(known.status, 200);
    assert_eq!(known.status, unknown.status);
    assert_eq!(known.body, unknown.body);
    assert_eq!(
        known.body["message"],
        "If an account exists for that email, a password reset link has been sent."
    );
    assert_eq!(app.outbox_count("known@example.in").await, 1);
    assert_eq!(app.outbox_count("unknown@example.in").await, 0);
    let messages = ca_auth::mailer::outbox(&app.db.conn, Some("known@example.in"), 1)
        .await
        .expect("outbox");
    assert!(
        messages[0]
            .body
            .contains(&format!("{}/reset-password?token=", app.base))
    );
    assert!(messages[0].body.contains("expires in 1 hour"));

    let empty = app
        .post("/api/auth/forgot-password", json!({"email": " "}))
        .await;
    assert_eq!(empty.error(400, "validation_failed"), "Email is required");
    let bad = app
        .post("/api/auth/forgot-password", json!({"email": "nope"}))
        .await;
    assert_eq!(
        bad.error(400, "validation_failed"),
        "Please enter a valid email address"
    );
}

#[tokio::test]
async fn reset_requests_are_rate_limited() {
    let app = spawn_app().await;
    app.register("flood@example.in", "secret1").await;
    for _ in 0..3 {
        let reply = app
            .post(
                "/api/auth/forgot-password",
                json!({"email": "flood@example.in"}),
            )
            .await;
        assert_eq!(reply.status, 200);
    }
    let limited = app
        .post(
            "/api/auth/forgot-password",
            json!({"email": "flood@example.in"}),
        )
        .await;
    limited.error(429, "rate_limited");
    assert!(limited.headers.contains_key("retry-after"));
    assert_eq!(app.outbox_count("flood@example.in").await, 3);
    // Per address: more emails from one IP hit the IP limit.
    for i in 0..6 {
        app.post(
            "/api/auth/forgot-password",
            json!({"email": format!("x{i}@example.in")}),
        )
        .await;
    }
    app.post(
        "/api/auth/forgot-password",
        json!({"email": "y@example.in"}),
    )
    .await
    .error(429, "rate_limited");
}

#[tokio::test]
async fn reset_password_signs_in_and_revokes_old_tokens() {
    let app = spawn_app().await;
    let (old_token, _) = app.register("reset@example.in", "old-pass").await;
    app.post(
        "/api/auth/forgot-password",
        json!({"email": "reset@example.in"}),
    )
    .await;
    let link = app.reset_token_from_outbox("reset@example.in").await;
    assert_eq!(link.len(), 64);

    let short = app
        .post(
            "/api/auth/reset-password",
            json!({"token": link, "password": "123"}),
        )
        .await;
    assert_eq!(
        short.error(400, "validation_failed"),
        "Password must be at least 6 characters long"
    );

    let ok = app
        .post(
            "/api/auth/reset-password",
            json!({"token": link, "password": "new-pass"}),
        )
        .await;
    assert_eq!(ok.status, 200, "{}", ok.body);
    assert_eq!(ok.body["success"], true);
    assert_eq!(ok.body["user"]["email"], "reset@example.in");
    let new_token = ok.body["token"].as_str().expect("token");
    assert_eq!(app.get("/api/auth/me", Some(new_token)).await.status, 200);
    app.get("/api/auth/me", Some(&old_token))
        .await
        .error(401, "invalid_token");
    assert_eq!(app.login("reset@example.in", "new-pass").await.status, 200);

    // The link works once.
    let again = app
        .post(
            "/api/auth/reset-password",
            json!({"token": link, "password": "third-pass"}),
        )
        .await;
    assert_eq!(
        again.error(400, "invalid_reset_token"),
        "Invalid or expired reset token"
    );
    assert_eq!(app.login("reset@example.in", "new-pass").await.status, 200);
}

#[tokio::test]
async fn reset_links_expire_and_older_links_die_with_a_reset() {
    use ca_auth::entities::password_reset_token as prt;
    let app = spawn_app().await;
    app.register("expire@example.in", "old-pass").await;
    app.post(
        "/api/auth/forgot-password",
        json!({"email": "expire@example.in"}),
    )
    .await;
    let first = app.reset_token_from_outbox("expire@example.in").await;
    app.post(
        "/api/auth/forgot-password",
        json!({"email": "expire@example.in"}),
    )
    .await;
    let second = app.reset_token_from_outbox("expire@example.in").await;
    assert_ne!(first, second);

    // Links issued an hour ago no longer work.
    prt::Entity::update_many()
        .col_expr(
            prt::Column::ExpiresAt,
            Expr::value(Utc::now() - chrono::Duration::seconds(1)),
        )
        .filter(prt::Column::UserId.is_not_null())
        .exec(&app.db.conn)
        .await
        .expect("expire links");
    for link in [&first, &second] {
        app.post(
            "/api/auth/reset-password",
            json!({"token": link, "password": "new-pass"}),
        )
        .await
        .error(400, "invalid_reset_token");
    }

    // A fresh link works, and using it kills any other outstanding link.
    app.post(
        "/api/auth/forgot-password",
        json!({"email": "expire@example.in"}),
    )
    .await;
    let third = app.reset_token_from_outbox("expire@example.in").await;
    prt::Entity::update_many()
        .col_expr(
            prt::Column::ExpiresAt,
            Expr::value(Utc::now() + chrono::Duration::minutes(30)),
        )
        .filter(prt::Column::UserId.is_not_null())
        .exec(&app.db.conn)
        .await
        .expect("revive links");
    let ok = app
        .post(
            "/api/auth/reset-password",
            json!({"token": third, "password": "new-pass"}),
        )
        .await;
    assert_eq!(ok.status, 200, "{}", ok.body);
    app.post(
        "/api/auth/reset-password",
        json!({"token": first, "password": "other-pass"}),
    )
    .await
    .error(400, "invalid_reset_token");

    let missing = app
        .post(
            "/api/auth/reset-password",
            json!({"token": "", "password": "new-pass"}),
        )
        .await;
    assert_eq!(
        missing.error(400, "validation_failed"),
        "Invalid reset token"
    );
    app.post(
        "/api/auth/reset-password",
        json!({"token": "deadbeef", "password": "new-pass"}),
    )
    .await
    .error(400, "invalid_reset_token");
}

#[tokio::test]
async fn an_ended_trial_reads_as_free() {
    use ca_auth::entities::user;
    let app = spawn_app().await;
    let (token, _) = app.register("trial@example.in", "secret1").await;
    user::Entity::update_many()
        .col_expr(
            user::Column::TrialEndsAt,
            Expr::value(Utc::now() - chrono::Duration::minutes(1)),
        )
        .filter(user::Column::Email.eq("trial@example.in"))
        .exec(&app.db.conn)
        .await
        .expect("end trial");
    let me = app.get("/api/auth/me", Some(&token)).await;
    assert_eq!(me.body["user"]["subscriptionStatus"], "free");
    assert_eq!(me.body["user"]["isInTrial"], false);
    assert_eq!(me.body["user"]["trialRemainingDays"], 0);
}
