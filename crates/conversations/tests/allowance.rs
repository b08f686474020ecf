#![allow(clippy::expect_used, clippy::unwrap_used)]
//! Taking many AI conversations at once against a real database (SQLite, or
//! PostgreSQL when CA_TEST_POSTGRES_URL is set): never more than the month's
//! allowance has left, even when two servers take the last ones at once.

use std::sync::Arc;
use std::time::Duration;

use chrono::Utc;

use ca_auth::{AuthService, JwtKeys, Mailer, NewAccount, Role};
use ca_conversations::allowance::{claim_many, used};
use ca_core::rate_limit::RateLimiter;
use ca_migrations::testing::TestDb;

async fn owner(db: &TestDb, email: &str) -> String {
    AuthService::new(
        db.conn.clone(),
        JwtKeys::new("allowance-test-secret-allowance-test-secret", 1),
        Mailer::new(None, "x <x@example.in>").expect("mailer"),
        Arc::new(RateLimiter::memory()),
        "http://localhost",
    )
    .create_account(NewAccount {
        name: "Kiran".into(),
        email: email.into(),
        phone: "+91 9000000000".into(),
        password: "secret1".into(),
        role: Role::User,
    })
    .await
    .expect("owner")
    .id
}

/// Takes `n` in a write transaction of its own, holding it `hold` before committing.
async fn take(db: &TestDb, owner: &str, limit: i64, n: u64, hold: Duration) -> u64 {
    let txn = ca_core::db::begin_write(&db.conn).await.expect("begin");
    let granted = claim_many(&txn, owner, limit, n, Utc::now())
        .await
        .expect("claim");
    tokio::time::sleep(hold).await;
    txn.commit().await.expect("commit");
    granted
}

#[tokio::test]
async fn many_at_once_take_what_is_left_and_never_more() {
    let db = TestDb::new().await.expect("db");
    let owner = owner(&db, "many@example.in").await;
    let now = Utc::now();
    let none = Duration::ZERO;
    // No allowance: nothing is taken or counted.
    assert_eq!(take(&db, &owner, 0, 5, none).await, 0);
    assert_eq!(used(&db.conn, &owner, now).await.unwrap(), 0);
    // 10 a month: 4, then the 6 left of 10 asked for, then none.
    assert_eq!(take(&db, &owner, 10, 4, none).await, 4);
    assert_eq!(take(&db, &owner, 10, 10, none).await, 6);
    assert_eq!(take(&db, &owner, 10, 1, none).await, 0);
    assert_eq!(used(&db.conn, &owner, now).await.unwrap(), 10);
    // A smaller plan later (5 a month): the count stays as it was.
    assert_eq!(take(&db, &owner, 5, 3, none).await, 0);
    assert_eq!(used(&db.conn, &owner, now).await.unwrap(), 10);
    // Unlimited: everything asked for, and counted.
    assert_eq!(take(&db, &owner, -1, 7, none).await, 7);
    assert_eq!(used(&db.conn, &owner, now).await.unwrap(), 17);
    // Asking for none takes none.
    assert_eq!(take(&db, &owner, -1, 0, none).await, 0);
    assert_eq!(used(&db.conn, &owner, now).await.unwrap(), 17);
}

#[tokio::test]
async fn two_servers_taking_the_last_ones_at_once_share_them() {
    let db = Arc::new(TestDb::new().await.expect("db"));
    // The owner's first claims of the month (no counter yet), then the last
    // one: each time two transactions ask for more than is left at once.
    let first = owner(&db, "first@example.in").await;
    let last = owner(&db, "last@example.in").await;
    assert_eq!(take(&db, &last, 10, 9, Duration::ZERO).await, 9);
    for (owner, asked, left) in [(&first, 8, 10), (&last, 5, 1)] {
        let hold = Duration::from_millis(100);
        let (a, b) = tokio::join!(
            take(&db, owner, 10, asked, hold),
            take(&db, owner, 10, asked, hold)
        );
        assert_eq!(a + b, left, "{a} + {b}");
        assert_eq!(used(&db.conn, owner, Utc::now()).await.unwrap(), 10);
    }
}
