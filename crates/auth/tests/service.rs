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
    let token = reset_link(&svc, &db, "race@example.in").await;
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

fn login_in(email: &str, password: &str) -> LoginIn {
    LoginIn {
        email: email.into(),
        password: password.into(),
    }
}

/// Guesses sent in parallel share the sign-in limit: after four failures
/// only one more password is checked, however many arrive at once, so the
/// right one among them does not get in.
#[tokio::test]
async fn parallel_guesses_share_the_sign_in_limit() {
    let (svc, _db) = service().await;
    svc.register(signup("guess@example.in"), "1.2.3.4")
        .await
        .expect("register");
    for _ in 0..4 {
        assert!(matches!(
            svc.login(login_in("guess@example.in", "wrong-1"), "5.6.7.8")
                .await,
            Err(AuthError::InvalidCredentials)
        ));
    }
    let mut attempts: Vec<_> = (0..20)
        .map(|i| {
            svc.login(
                login_in("guess@example.in", &format!("wrong-{i}")),
                "5.6.7.8",
            )
        })
        .collect();
    attempts.push(svc.login(login_in("guess@example.in", "secret1"), "5.6.7.8"));
    let answers = futures_util::future::join_all(attempts).await;
    let checked = answers
        .iter()
        .filter(|a| !matches!(a, Err(AuthError::RateLimited(_))))
        .count();
    assert_eq!(checked, 1, "only one more password is checked: {answers:?}");
    assert!(
        matches!(answers.last(), Some(Err(AuthError::RateLimited(_)))),
        "{:?}",
        answers.last()
    );
    // From another address the owner still signs in, and a right password
    // does not use up that address's allowance.
    for _ in 0..25 {
        let ok = svc
            .login(login_in("guess@example.in", "secret1"), "9.9.9.9")
            .await;
        assert!(ok.is_ok(), "{ok:?}");
    }
}

/// Asks for a reset link for `email` and returns the token of the link in
/// the email that was queued.
async fn reset_link(svc: &AuthService, db: &TestDb, email: &str) -> String {
    svc.forgot_password(
        ForgotPasswordIn {
            email: email.into(),
        },
        "1.2.3.4",
    )
    .await
    .expect("forgot");
    let mail = ca_auth::mailer::outbox(&db.conn, Some(email), 1)
        .await
        .expect("outbox");
    let marker = "https://app.example.in/reset-password?token=";
    let start = mail[0].body.find(marker).expect("the link") + marker.len();
    mail[0].body[start..]
        .chars()
        .take_while(char::is_ascii_hexdigit)
        .collect()
}

/// A reset link stops working once the password is changed another way or
/// the account signs out everywhere: an owner who suspects a link leaked
/// ends it by doing either.
#[tokio::test]
async fn a_reset_link_ends_when_the_password_changes_or_every_session_ends() {
    let (svc, db) = service().await;
    let session = svc
        .register(signup("links@example.in"), "1.2.3.4")
        .await
        .expect("register");
    let reset = |token: String| {
        svc.reset_password(
            ResetPasswordIn {
                token,
                password: "attacker-pass".into(),
            },
            "1.2.3.4",
        )
    };

    let leaked = reset_link(&svc, &db, "links@example.in").await;
    let user = svc.authenticate(&session.token).await.expect("user");
    let changed = svc
        .change_password(
            user,
            ca_auth::dto::ChangePasswordIn {
                current_password: "secret1".into(),
                new_password: "secret2-new".into(),
            },
        )
        .await
        .expect("change");
    assert!(matches!(
        reset(leaked).await,
        Err(AuthError::InvalidResetToken)
    ));

    let leaked = reset_link(&svc, &db, "links@example.in").await;
    let user = svc.authenticate(&changed.token).await.expect("user");
    svc.logout_all(user).await.expect("sign out everywhere");
    assert!(matches!(
        reset(leaked).await,
        Err(AuthError::InvalidResetToken)
    ));
    // The password is the owner's own all along; a new link still works.
    assert!(
        svc.login(login_in("links@example.in", "secret2-new"), "1.2.3.4")
            .await
            .is_ok()
    );
    let fresh = reset_link(&svc, &db, "links@example.in").await;
    assert!(reset(fresh).await.is_ok());
}
