//! Keeps the conversations' search index caught up behind the writes.
//!
//! On SQLite a conversation written or changed waits (`pending`) until it is
//! indexed here, hundreds at a time: indexing each chat start in its own
//! transaction cost as much as the rest of the start. The search tests the
//! waiting conversations' columns directly, so nothing is missed meanwhile.
//! On PostgreSQL the trigram index gathers new entries in its pending list;
//! cleaning that list here keeps the clean-up out of a visitor's insert.

use std::time::Duration;

use sea_orm::{ConnectionTrait, DatabaseConnection, DbBackend, DbErr, Statement};

/// Most conversations indexed in one transaction (SQLite).
pub const INDEX_BATCH: u64 = 1000;

/// How often the chat-start writer indexes the waiting conversations
/// (SQLite): a few milliseconds of writing each time, never a long pause.
pub const INDEX_EVERY: Duration = Duration::from_millis(50);

/// How often PostgreSQL's pending list is cleaned.
pub const CLEAN_EVERY: Duration = Duration::from_secs(2);

/// Brings the search index up to date by one step: on SQLite indexes up to
/// `limit` waiting conversations in one transaction and returns how many;
/// on PostgreSQL moves the trigram index's pending entries into it and
/// returns the pages cleaned.
pub async fn catch_up(db: &DatabaseConnection, limit: u64) -> Result<u64, DbErr> {
    match db.get_database_backend() {
        DbBackend::Postgres => {
            let row = db
                .query_one_raw(Statement::from_string(
                    DbBackend::Postgres,
                    "SELECT gin_clean_pending_list('ix_conversations_search'::regclass) AS pages",
                ))
                .await?;
            let pages: i64 = row.map_or(Ok(0), |r| r.try_get("", "pages"))?;
            Ok(u64::try_from(pages).unwrap_or(0))
        }
        DbBackend::Sqlite => index_waiting(db, limit).await,
        _ => Ok(0),
    }
}

/// Conversations waiting for the SQLite index (0 on PostgreSQL).
pub async fn waiting(db: &DatabaseConnection) -> Result<u64, DbErr> {
    if db.get_database_backend() != DbBackend::Sqlite {
        return Ok(0);
    }
    let row = db
        .query_one_raw(Statement::from_string(
            DbBackend::Sqlite,
            "SELECT COUNT(*) AS n FROM conversation_search_keys WHERE pending = 1",
        ))
        .await?;
    let n: i64 = row.map_or(Ok(0), |r| r.try_get("", "n"))?;
    Ok(u64::try_from(n).unwrap_or(0))
}

async fn index_waiting(db: &DatabaseConnection, limit: u64) -> Result<u64, DbErr> {
    // A read first: an idle server takes no write lock.
    let any = db
        .query_one_raw(Statement::from_string(
            DbBackend::Sqlite,
            "SELECT EXISTS (SELECT 1 FROM conversation_search_keys WHERE pending = 1) AS any",
        ))
        .await?
        .map_or(Ok(false), |r| r.try_get::<bool>("", "any"))?;
    if !any {
        return Ok(0);
    }
    let txn = ca_core::db::begin_background_write(db).await?;
    let rows = txn
        .query_all_raw(Statement::from_sql_and_values(
            DbBackend::Sqlite,
            "UPDATE conversation_search_keys SET pending = 0 WHERE rid IN \
             (SELECT rid FROM conversation_search_keys WHERE pending = 1 LIMIT ?) RETURNING rid",
            [i64::try_from(limit).unwrap_or(i64::MAX).into()],
        ))
        .await?;
    let rids = rows
        .iter()
        .map(|r| r.try_get::<i64>("", "rid"))
        .collect::<Result<Vec<_>, _>>()?;
    if !rids.is_empty() {
        txn.execute_raw(Statement::from_sql_and_values(
            DbBackend::Sqlite,
            "INSERT INTO conversations_search (rowid, body) \
             SELECT k.rid, c.last_message || char(10) || c.collected_text \
             FROM json_each(?) j JOIN conversation_search_keys k ON k.rid = j.value \
             JOIN conversations c ON c.id = k.conversation_id",
            [serde_json::to_string(&rids)
                .map_err(|e| DbErr::Custom(e.to_string()))?
                .into()],
        ))
        .await?;
    }
    txn.commit().await?;
    Ok(rids.len() as u64)
}
