#![allow(clippy::expect_used, clippy::unwrap_used)]
//! PostgreSQL's conversation search index is cleaned on one pace shared by
//! every server on the database (run when CA_TEST_POSTGRES_URL is set; on
//! SQLite the index is kept by the start writer and has no shared pace).

use std::time::Duration;

use ca_conversations::search_index::{clean_shared, clean_unless_within};
use ca_migrations::testing::TestDb;
use sea_orm::{ConnectionTrait, DbBackend, Statement, TransactionTrait};

async fn cleaned_at(db: &TestDb) -> f64 {
    db.conn
        .query_one_raw(Statement::from_string(
            DbBackend::Postgres,
            "SELECT extract(epoch FROM cleaned_at)::float8 AS at FROM search_index_cleans \
             WHERE index_name = 'ix_conversations_search'",
        ))
        .await
        .expect("read")
        .expect("the index's row")
        .try_get("", "at")
        .expect("at")
}

/// Makes the last clean long ago.
async fn long_ago(db: &TestDb) {
    db.conn
        .execute_raw(Statement::from_string(
            DbBackend::Postgres,
            "UPDATE search_index_cleans SET cleaned_at = 'epoch'",
        ))
        .await
        .expect("reset");
}

#[tokio::test]
async fn servers_on_one_database_take_turns_cleaning_the_search_index() {
    let db = TestDb::new().await.expect("db");
    if db.conn.get_database_backend() != DbBackend::Postgres {
        return;
    }
    // A gap far longer than any pause of the machine between two calls.
    let gap = Duration::from_secs(30);
    let never = cleaned_at(&db).await;
    // The first server to ask cleans, and the time is kept for all.
    assert!(clean_shared(&db.conn).await.expect("clean").is_some());
    let first = cleaned_at(&db).await;
    assert!(first > never);
    // Another asking within the gap skips its turn; nothing moves.
    assert_eq!(
        clean_unless_within(&db.conn, gap).await.expect("clean"),
        None
    );
    assert_eq!(cleaned_at(&db).await, first);

    // Past the gap, two servers asking together clean once.
    long_ago(&db).await;
    let (a, b) = tokio::join!(
        clean_unless_within(&db.conn, gap),
        clean_unless_within(&db.conn, gap)
    );
    let cleans = [a.expect("a"), b.expect("b")];
    assert_eq!(
        cleans.iter().filter(|c| c.is_some()).count(),
        1,
        "{cleans:?}"
    );
    let second = cleaned_at(&db).await;
    assert!(second > first, "{second} after {first}");

    // A server holding the turn (its clean still running) is not waited
    // for: the others skip, even past the gap.
    long_ago(&db).await;
    let holder = db.conn.begin().await.expect("begin");
    holder
        .execute_raw(Statement::from_string(
            DbBackend::Postgres,
            "SELECT 1 FROM search_index_cleans FOR UPDATE",
        ))
        .await
        .expect("lock");
    let skipped = tokio::time::timeout(Duration::from_secs(5), clean_shared(&db.conn))
        .await
        .expect("not waited for")
        .expect("clean");
    assert_eq!(skipped, None);
    holder.rollback().await.expect("rollback");
    assert!(clean_shared(&db.conn).await.expect("clean").is_some());
    assert!(cleaned_at(&db).await > second);
}
