//! Two-factor sign-in: set-up, turning it on, the sign-in challenge and its
//! second step (an authenticator code or a one-time recovery code), the
//! lock after five wrong codes, turning it off, and staff who must have it
//! once the grace period a superuser sets is over.

use sea_orm::sea_query::Expr;
use sea_orm::{ColumnTrait, EntityTrait, QueryFilter};
use serde_json::{Value, json};

use ca_auth::entities::{two_factor_recovery_code, two_factor_secret};
use ca_auth::totp;

use crate::admin::account;
use crate::helpers::{TestApp, spawn_app};

pub(crate) const PASSWORD: &str = "correct horse 1";

/// The code the app shows now. The step of the last code used is forgotten
/// first (as if the next 30 seconds had come), so a test can sign in again.
pub(crate) async fn code_now(app: &TestApp, user_id: &str, secret: &str) -> String {
    two_factor_secret::Entity::update_many()
        .col_expr(
            two_factor_secret::Column::LastUsedStep,
            Expr::value(Option::<i64>::None),
        )
        .filter(two_factor_secret::Column::UserId.eq(user_id))
        .exec(&app.db.conn)
        .await
        .expect("forget last step");
    let key = totp::base32_decode(secret).expect("base32 secret");
    let now = u64::try_from(chrono::Utc::now().timestamp()).expect("time");
    totp::code_at(&key, now, totp::DIGITS)
}

/// A code that is not the current one (nor its neighbours').
fn wrong_code(right: &str) -> String {
    let n: u32 = right.parse().expect("digits");
    format!("{:06}", (n + 500_000) % 1_000_000)
}

/// Sets up and turns on two-factor sign-in; returns the new token, the
/// secret and the recovery codes.
pub(crate) async fn enrol(
    app: &TestApp,
    token: &str,
    user_id: &str,
) -> (String, String, Vec<String>) {
    let setup = app
        .send("POST", "/api/auth/2fa/setup", Some(token), json!({}))
        .await;
    assert_eq!(setup.status, 200, "{}", setup.body);
    let secret = setup.body["secret"].as_str().expect("secret").to_string();
    let codes: Vec<String> = setup.body["recoveryCodes"]
        .as_array()
        .expect("codes")
        .iter()
        .map(|c| c.as_str().expect("code").to_string())
        .collect();
    let code = code_now(app, user_id, &secret).await;
    let on = app
        .send(
            "POST",
            "/api/auth/2fa/enable",
            Some(token),
            json!({"code": code}),
        )
        .await;
    assert_eq!(on.status, 200, "{}", on.body);
    (
        on.body["token"].as_str().expect("token").to_string(),
        secret,
        codes,
    )
}

/// Signs in with the password; asserts the challenge and returns its token.
pub(crate) async fn challenge(app: &TestApp, email: &str) -> String {
    let r = app.login(email, PASSWORD).await;
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(r.body["success"], true);
    assert_eq!(r.body["twoFactorRequired"], true, "{}", r.body);
    assert!(r.body.get("token").is_none(), "no session yet: {}", r.body);
    assert!(r.body.get("user").is_none(), "{}", r.body);
    r.body["challengeToken"]
        .as_str()
        .expect("challengeToken")
        .to_string()
}

pub(crate) async fn verify(app: &TestApp, challenge: &str, code: &str) -> crate::helpers::Reply {
    app.post(
        "/api/auth/2fa/verify",
        json!({"challengeToken": challenge, "code": code}),
    )
    .await
}

#[tokio::test]
async fn set_up_turn_on_and_sign_in_with_a_code() {
    let app = spawn_app().await;
    let (token, id) = account(&app, "root@example.in", "superuser").await;

    // Before set-up: nothing to turn on, and sign-in gives a session at once.
    app.send(
        "POST",
        "/api/auth/2fa/enable",
        Some(&token),
        json!({"code": "123456"}),
    )
    .await
    .error(422, "two_factor_not_set_up");
    let plain = app.login("root@example.in", PASSWORD).await;
    assert!(plain.body["token"].is_string(), "{}", plain.body);

    let setup = app
        .send("POST", "/api/auth/2fa/setup", Some(&token), json!({}))
        .await;
    assert_eq!(setup.status, 200, "{}", setup.body);
    let secret = setup.body["secret"].as_str().expect("secret");
    assert_eq!(totp::base32_decode(secret).expect("base32").len(), 20);
    let url = setup.body["otpauthUrl"].as_str().expect("url");
    assert!(
        url.starts_with("otpauth://totp/ConvertAssist:root@example.in?secret="),
        "{url}"
    );
    assert!(url.contains(&format!("secret={secret}&issuer=ConvertAssist")));
    assert!(setup.body["qrSvg"].as_str().expect("svg").contains("<svg"));
    let codes = setup.body["recoveryCodes"].as_array().expect("codes");
    assert_eq!(codes.len(), 10);
    // Stored as hashes only.
    let stored = two_factor_recovery_code::Entity::find()
        .filter(two_factor_recovery_code::Column::UserId.eq(&id))
        .all(&app.db.conn)
        .await
        .expect("codes");
    assert_eq!(stored.len(), 10);
    for row in &stored {
        assert!(codes.iter().all(|c| {
            let c = c.as_str().expect("code");
            !row.code_hash.contains(&c.replace('-', "")) && row.code_hash != c
        }));
    }
    // Set up but not on yet: sign-in still gives a session.
    assert!(app.login("root@example.in", PASSWORD).await.body["token"].is_string());

    let right = code_now(&app, &id, secret).await;
    app.send(
        "POST",
        "/api/auth/2fa/enable",
        Some(&token),
        json!({"code": wrong_code(&right)}),
    )
    .await
    .error(400, "invalid_two_factor_code");
    let on = app
        .send(
            "POST",
            "/api/auth/2fa/enable",
            Some(&token),
            json!({"code": right}),
        )
        .await;
    assert_eq!(on.status, 200, "{}", on.body);
    let new_token = on.body["token"].as_str().expect("token");
    // Other sessions are signed out; the new token works.
    app.get("/api/auth/me", Some(&token))
        .await
        .error(401, "invalid_token");
    let me = app.get("/api/auth/me", Some(new_token)).await;
    assert_eq!(me.body["twoFactor"]["enabled"], true, "{}", me.body);
    // A second set-up while on is refused (the secret stays).
    app.send("POST", "/api/auth/2fa/setup", Some(new_token), json!({}))
        .await
        .error(409, "two_factor_already_enabled");

    // Sign-in now stops at the challenge; the code completes it.
    let ch = challenge(&app, "root@example.in").await;
    let code = code_now(&app, &id, secret).await;
    let signed_in = verify(&app, &ch, &code).await;
    assert_eq!(signed_in.status, 200, "{}", signed_in.body);
    assert_eq!(signed_in.body["success"], true);
    assert_eq!(signed_in.body["user"]["email"], "root@example.in");
    let session = signed_in.body["token"].as_str().expect("token");
    assert_eq!(
        app.get("/api/admin/dashboard/stats", Some(session))
            .await
            .status,
        200
    );
    // The same code does not work twice, nor the same challenge.
    let again = challenge(&app, "root@example.in").await;
    verify(&app, &again, &code)
        .await
        .error(400, "invalid_two_factor_code");
    let fresh = code_now(&app, &id, secret).await;
    verify(&app, &ch, &fresh)
        .await
        .error(401, "invalid_challenge");
    verify(&app, "not-a-challenge", &fresh)
        .await
        .error(401, "invalid_challenge");
    assert_eq!(verify(&app, &again, &fresh).await.status, 200);
}

#[tokio::test]
async fn a_recovery_code_signs_in_once() {
    let app = spawn_app().await;
    let (token, id) = account(&app, "admin@example.in", "admin").await;
    let (_, _, codes) = enrol(&app, &token, &id).await;

    let ch = challenge(&app, "admin@example.in").await;
    let r = verify(&app, &ch, &codes[0]).await;
    assert_eq!(r.status, 200, "{}", r.body);
    assert!(r.body["token"].is_string());

    let ch = challenge(&app, "admin@example.in").await;
    verify(&app, &ch, &codes[0])
        .await
        .error(400, "invalid_two_factor_code");
    // Another one works, typed in capitals and without the dash.
    let typed = codes[1].replace('-', "").to_uppercase();
    assert_eq!(verify(&app, &ch, &typed).await.status, 200);
    let used = two_factor_recovery_code::Entity::find()
        .filter(two_factor_recovery_code::Column::UserId.eq(&id))
        .filter(two_factor_recovery_code::Column::UsedAt.is_not_null())
        .all(&app.db.conn)
        .await
        .expect("codes");
    assert_eq!(used.len(), 2);
}

#[tokio::test]
async fn five_wrong_codes_lock_the_challenge() {
    let app = spawn_app().await;
    let (token, id) = account(&app, "root@example.in", "superuser").await;
    let (_, secret, codes) = enrol(&app, &token, &id).await;

    let ch = challenge(&app, "root@example.in").await;
    let right = code_now(&app, &id, &secret).await;
    for _ in 0..4 {
        verify(&app, &ch, &wrong_code(&right))
            .await
            .error(400, "invalid_two_factor_code");
    }
    verify(&app, &ch, &wrong_code(&right))
        .await
        .error(403, "two_factor_locked");
    // Locked: neither the right code nor a recovery code opens it now.
    verify(&app, &ch, &right)
        .await
        .error(403, "two_factor_locked");
    verify(&app, &ch, &codes[0])
        .await
        .error(403, "two_factor_locked");
    // Signing in again with the password gives a new challenge.
    let next = challenge(&app, "root@example.in").await;
    assert_eq!(verify(&app, &next, &right).await.status, 200);
}

/// Wrong codes sent at once share the challenge's five tries: each waits
/// for the one before it, so ten guesses in parallel test five codes, not
/// ten, and the challenge is locked after them.
#[tokio::test]
async fn parallel_wrong_codes_share_the_five_tries() {
    use ca_auth::entities::two_factor_challenge;
    let app = spawn_app().await;
    let (token, id) = account(&app, "burst@example.in", "superuser").await;
    let (_, secret, _) = enrol(&app, &token, &id).await;
    let ch = challenge(&app, "burst@example.in").await;
    let right = code_now(&app, &id, &secret).await;
    let wrong = wrong_code(&right);
    let answers = futures_util::future::join_all((0..10).map(|_| verify(&app, &ch, &wrong))).await;
    let tested = answers
        .iter()
        .filter(|r| r.body["code"] == "invalid_two_factor_code")
        .count();
    assert_eq!(
        tested,
        4,
        "{:?}",
        answers.iter().map(|r| &r.body).collect::<Vec<_>>()
    );
    let row = two_factor_challenge::Entity::find()
        .filter(two_factor_challenge::Column::UserId.eq(&id))
        .one(&app.db.conn)
        .await
        .expect("challenge")
        .expect("row");
    assert_eq!(row.failed_attempts, 5);
    verify(&app, &ch, &right)
        .await
        .error(403, "two_factor_locked");
}

/// A sign-in waiting for its code does not finish once staff suspend the
/// account or the account signs out everywhere.
#[tokio::test]
async fn an_open_challenge_ends_with_a_suspension_or_signing_out_everywhere() {
    let app = spawn_app().await;
    let (su, _) = account(&app, "root@example.in", "superuser").await;
    let (token, id) = account(&app, "owner-2fa@example.in", "user").await;
    let (token, secret, _) = enrol(&app, &token, &id).await;

    let ch = challenge(&app, "owner-2fa@example.in").await;
    let r = app
        .send("POST", "/api/auth/logout-all", Some(&token), json!({}))
        .await;
    assert!(r.status.is_success(), "{} {}", r.status, r.body);
    verify(&app, &ch, &code_now(&app, &id, &secret).await)
        .await
        .error(401, "invalid_challenge");

    let ch = challenge(&app, "owner-2fa@example.in").await;
    let r = app
        .send(
            "POST",
            &format!("/api/admin/users/{id}/suspend"),
            Some(&su),
            json!({"pauseWidget": false}),
        )
        .await;
    assert_eq!(r.status, 200, "{}", r.body);
    // The suspension ended the waiting sign-in, so no session either.
    verify(&app, &ch, &code_now(&app, &id, &secret).await)
        .await
        .error(401, "invalid_challenge");
}

#[tokio::test]
async fn turning_it_off_needs_a_code() {
    let app = spawn_app().await;
    let (token, id) = account(&app, "root@example.in", "superuser").await;
    let (token, secret, codes) = enrol(&app, &token, &id).await;

    let right = code_now(&app, &id, &secret).await;
    app.send(
        "POST",
        "/api/auth/2fa/disable",
        Some(&token),
        json!({"code": wrong_code(&right)}),
    )
    .await
    .error(400, "invalid_two_factor_code");
    assert!(challenge(&app, "root@example.in").await.len() > 10);

    // A recovery code turns it off too.
    let off = app
        .send(
            "POST",
            "/api/auth/2fa/disable",
            Some(&token),
            json!({"code": codes[3]}),
        )
        .await;
    assert_eq!(off.status, 200, "{}", off.body);
    let plain = app.login("root@example.in", PASSWORD).await;
    assert!(plain.body["token"].is_string(), "{}", plain.body);
    assert!(
        two_factor_recovery_code::Entity::find()
            .filter(two_factor_recovery_code::Column::UserId.eq(&id))
            .all(&app.db.conn)
            .await
            .expect("codes")
            .is_empty()
    );
    app.send(
        "POST",
        "/api/auth/2fa/disable",
        Some(&token),
        json!({"code": right}),
    )
    .await
    .error(422, "two_factor_not_enabled");
    // And it can be set up again with a new secret.
    let (_, new_secret, _) = enrol(&app, &token, &id).await;
    assert_ne!(new_secret, secret);
}

#[tokio::test]
async fn a_password_reset_does_not_pass_the_second_factor() {
    let app = spawn_app().await;
    let (token, id) = account(&app, "admin@example.in", "admin").await;
    enrol(&app, &token, &id).await;
    let r = app
        .post(
            "/api/auth/forgot-password",
            json!({"email": "admin@example.in"}),
        )
        .await;
    assert_eq!(r.status, 200);
    let link = app.reset_token_from_outbox("admin@example.in").await;
    let reset = app
        .post(
            "/api/auth/reset-password",
            json!({"token": link, "password": "a new password 2"}),
        )
        .await;
    assert_eq!(reset.status, 200, "{}", reset.body);
    assert!(reset.body.get("token").is_none(), "{}", reset.body);
    let r = app.login("admin@example.in", "a new password 2").await;
    assert_eq!(r.body["twoFactorRequired"], true, "{}", r.body);
}

async fn set_grace(app: &TestApp, token: &str, days: Value) -> crate::helpers::Reply {
    app.send(
        "PUT",
        "/api/admin/settings/two-factor",
        Some(token),
        json!({"graceDays": days}),
    )
    .await
}

#[tokio::test]
async fn staff_past_the_grace_period_can_only_enrol() {
    let app = spawn_app().await;
    let (root, root_id) = account(&app, "root@example.in", "superuser").await;
    let (admin, admin_id) = account(&app, "admin@example.in", "admin").await;
    let (owner, _) = account(&app, "owner@example.in", "user").await;

    // Within the grace period (14 days by default) staff work as before.
    let me = app.get("/api/auth/me", Some(&admin)).await;
    assert_eq!(me.body["twoFactor"]["required"], true, "{}", me.body);
    assert_eq!(me.body["twoFactor"]["enrolmentRequired"], false);
    assert!(me.body["twoFactor"]["requiredFrom"].is_string());
    assert_eq!(
        app.get("/api/admin/dashboard/stats", Some(&admin))
            .await
            .status,
        200
    );
    let policy = app
        .get("/api/admin/settings/two-factor", Some(&admin))
        .await;
    assert_eq!(policy.body["data"]["graceDays"], 14, "{}", policy.body);

    // Only a superuser sets it, 0 to 90 days.
    set_grace(&app, &admin, json!(0))
        .await
        .error(403, "superuser_required");
    set_grace(&app, &root, json!(91))
        .await
        .error(400, "validation_failed");
    set_grace(&app, &root, json!(-1))
        .await
        .error(400, "validation_failed");
    let saved = set_grace(&app, &root, json!(0)).await;
    assert_eq!(saved.status, 200, "{}", saved.body);
    assert_eq!(saved.body["data"]["graceDays"], 0);

    // Now staff without the second factor reach only their own account.
    for (token, path) in [
        (&admin, "/api/admin/dashboard/stats"),
        (&admin, "/api/admin/users"),
        (&root, "/api/admin/superadmin"),
        (&admin, "/api/campaigns"),
    ] {
        app.get(path, Some(token))
            .await
            .error(403, "two_factor_enrolment_required");
    }
    let me = app.get("/api/auth/me", Some(&admin)).await;
    assert_eq!(me.status, 200);
    assert_eq!(me.body["twoFactor"]["enrolmentRequired"], true);
    // Owners are not staff: nothing changes for them.
    let me = app.get("/api/auth/me", Some(&owner)).await;
    assert_eq!(me.body["twoFactor"]["required"], false);
    assert_eq!(app.get("/api/campaigns", Some(&owner)).await.status, 200);

    // Enrolling opens the admin area again.
    let (admin, secret, _) = enrol(&app, &admin, &admin_id).await;
    assert_eq!(
        app.get("/api/admin/dashboard/stats", Some(&admin))
            .await
            .status,
        200
    );
    // Turning it off closes it.
    let code = code_now(&app, &admin_id, &secret).await;
    let off = app
        .send(
            "POST",
            "/api/auth/2fa/disable",
            Some(&admin),
            json!({"code": code}),
        )
        .await;
    assert_eq!(off.status, 200);
    app.get("/api/admin/dashboard/stats", Some(&admin))
        .await
        .error(403, "two_factor_enrolment_required");

    // The grace period counts from the account's creation when that is later.
    let (late, _) = account(&app, "late@example.in", "admin").await;
    let (root, _, _) = enrol(&app, &root, &root_id).await;
    assert_eq!(set_grace(&app, &root, json!(7)).await.status, 200);
    assert_eq!(
        app.get("/api/admin/dashboard/stats", Some(&late))
            .await
            .status,
        200
    );
    // The change is on record.
    let audit = ca_admin::entities::audit_entry::Entity::find()
        .filter(ca_admin::entities::audit_entry::Column::Action.eq("update_staff_two_factor"))
        .all(&app.db.conn)
        .await
        .expect("audit");
    assert_eq!(audit.len(), 2);
}
