#![allow(clippy::expect_used, clippy::unwrap_used)]
//! Accounts service against a real database (SQLite, or PostgreSQL when
//! CA_TEST_POSTGRES_URL is set).

use std::sync::Arc;

use ca_auth::dto::{ForgotPasswordIn, LoginIn, RegisterIn, ResetPasswordIn};
use ca_auth::{AuthError, AuthService, JwtKeys, Mailer, NewAccount, Role};
use ca_core::rate_limit::RateLimiter;
use ca_migrations::testing::TestDb;

async fn service() -> (AuthService, TestDb) {
    let db = TestDb::new().await.expect("db");
    let svc = AuthService::new(
        db.conn.clone(),
        JwtKeys::new("service-test-secret-service-test-secret", 24),
        Mailer::new(None, "ConvertAssist <no-reply@example.in>").expect("mailer"),
        Arc::new(RateLimiter::memory()),
        "https://app.example.in/",
    );
    (svc, db)
}

fn signup(email: &str) -> RegisterIn {
    RegisterIn {
        name: "Ravi Kumar".into(),
        email: email.into(),
        password: "secret1".into(),
        phone: "+91 9123456789".into(),
    }
}

#[tokio::test]
async fn staff_accounts_have_no_trial_and_owners_do() {
    let (svc, _db) = service().await;
    let admin = svc
        .create_account(NewAccount {
            name: "Staff".into(),
            email: "staff@example.in".into(),
            phone: "+91 9000000001".into(),
            password: "staff-pass".into(),
            role: Role::Superuser,
        })
        .await
        .expect("superuser");
    assert_eq!(admin.role, "superuser");
    assert_eq!(admin.subscription_status, "free");
    assert!(admin.trial_ends_at.is_none());

    let owner = svc
        .register(signup("owner@example.in"), "1.2.3.4")
        .await
        .expect("owner");
    assert!(owner.user.is_in_trial);
    assert!(svc.has_users().await.expect("count"));
}

#[tokio::test]
async fn tokens_authenticate_until_revoked() {
    let (svc, _db) = service().await;
    let session = svc
        .register(signup("t@example.in"), "1.2.3.4")
        .await
        .expect("register");
    let user = svc.authenticate(&session.token).await.expect("valid");
    assert_eq!(user.email, "t@example.in");
    svc.logout_all(user).await.expect("revoke");
    assert!(matches!(
        svc.authenticate(&session.token).await,
        Err(AuthError::InvalidToken)
    ));
    let again = svc
        .login(
            LoginIn {
                email: "t@example.in".into(),
                password: "secret1".into(),
            },
            "1.2.3.4",
        )
        .await
        .expect("login");
    let ca_auth::dto::LoginOut::Session(again) = again else {
        panic!("no second factor: a session");
    };
    assert!(svc.authenticate(&again.token).await.is_ok());
}

#[tokio::test]
async fn a_reset_link_can_be_used_only_once_even_concurrently() {
    let (svc, db) = service().await;
    svc.register(signup("race@example.in"), "1.2.3.4")
        .await
        .expect("register");
    svc.forgot_password(
        ForgotPasswordIn {
            email: "race@example.in".into(),
        },
        "1.2.3.4",
    )
    .await
    .expect("forgot");
    let mail = ca_auth::mailer::outbox(&db.conn, Some("race@example.in"), 1)
        .await
        .expect("outbox");
    assert!(
        mail[0]
            .body
            .contains("https://app.example.in/reset-password?token=")
    );
    let token: String = mail[0]
        .body
        .split("token=")
        .nth(1)
        .expect("token")
        .chars()
        .take_while(char::is_ascii_hexdigit)
        .collect();
    let attempt = |password: &str| {
        svc.reset_password(
            ResetPasswordIn {
                token: token.clone(),
                password: password.into(),
            },
            "1.2.3.4",
        )
    };
    let (a, b) = tokio::join!(attempt("first-pass"), attempt("second-pass"));
    let successes = [a.is_ok(), b.is_ok()].iter().filter(|ok| **ok).count();
    assert_eq!(successes, 1, "exactly one reset wins: {a:?} / {b:?}");
}
