//! Keeps the conversations' search index caught up behind the writes.
//!
//! On SQLite a conversation written or changed waits (`pending`) until it is
//! indexed here, hundreds at a time: indexing each chat start in its own
//! transaction cost as much as the rest of the start. The search tests the
//! waiting conversations' columns directly, so nothing is missed meanwhile.
//! On PostgreSQL the trigram index gathers new entries in its pending list;
//! cleaning that list here keeps the clean-up out of a visitor's insert.
//! Servers sharing a database share one pace: a clean is skipped when any
//! server cleaned less than [`CLEAN_GAP`] ago (each clean rewrites the
//! index's long entries, so n servers each cleaning on their own pace did
//! n times the work for the same index).

use std::time::{Duration, Instant};

use sea_orm::{ConnectionTrait, DatabaseConnection, DbBackend, DbErr, Statement};

/// Most conversations indexed in one transaction (SQLite).
pub const INDEX_BATCH: u64 = 1000;

/// How often the chat-start writer indexes the waiting conversations
/// (SQLite): a few milliseconds of writing each time, never a long pause.
pub const INDEX_EVERY: Duration = Duration::from_millis(50);

/// How often PostgreSQL's pending list is cleaned while chat starts are
/// being written. A clean holds the list, and every conversation inserted
/// meanwhile waits for it: cleaning a burst's starts every 2 s held them for
/// tens of milliseconds each time, many small cleans hold them briefly.
pub const CLEAN_BUSY_EVERY: Duration = Duration::from_millis(200);

/// How often PostgreSQL's pending list is cleaned when no chat start was
/// written since the last clean (messages change the indexed text too).
pub const CLEAN_EVERY: Duration = Duration::from_secs(2);

/// The least time between two cleans of PostgreSQL's pending list by any
/// of the servers on the database: a little under [`CLEAN_BUSY_EVERY`], so
/// a server alone still cleans at its own pace when its timer runs late.
pub const CLEAN_GAP: Duration = Duration::from_millis(150);

/// When the next clean of PostgreSQL's pending list is due: soon after
/// chat starts were written, otherwise every [`CLEAN_EVERY`].
#[derive(Debug, Clone, Copy)]
pub(crate) struct CleanPace {
    last: Instant,
    written: bool,
}

impl CleanPace {
    pub(crate) fn new(now: Instant) -> Self {
        Self {
            last: now,
            written: false,
        }
    }

    /// Chat starts were written.
    pub(crate) fn wrote(&mut self) {
        self.written = true;
    }

    /// Whether to clean now (asked every [`CLEAN_BUSY_EVERY`]).
    pub(crate) fn due(&self, now: Instant) -> bool {
        self.written || now.saturating_duration_since(self.last) >= CLEAN_EVERY
    }

    /// A clean started.
    pub(crate) fn cleaning(&mut self, now: Instant) {
        self.last = now;
        self.written = false;
    }
}

/// Brings the search index up to date by one step: on SQLite indexes up to
/// `limit` waiting conversations in one transaction and returns how many;
/// on PostgreSQL moves the trigram index's pending entries into it and
/// returns the pages cleaned (0 when another server's clean was recent:
/// see [`clean_shared`]).
pub async fn catch_up(db: &DatabaseConnection, limit: u64) -> Result<u64, DbErr> {
    match db.get_database_backend() {
        DbBackend::Postgres => Ok(clean_shared(db).await?.unwrap_or(0)),
        DbBackend::Sqlite => index_waiting(db, limit).await,
        _ => Ok(0),
    }
}

/// Cleans PostgreSQL's pending list unless another server on the database
/// cleaned it less than [`CLEAN_GAP`] ago or is cleaning it now: the pages
/// cleaned, or `None` when the turn was skipped. The turn is taken and the
/// clean made in one statement (the turn's row stays locked until the clean
/// ends, and a server finding it locked skips rather than waits).
pub async fn clean_shared(db: &DatabaseConnection) -> Result<Option<u64>, DbErr> {
    clean_unless_within(db, CLEAN_GAP).await
}

/// [`clean_shared`] with the gap given.
pub async fn clean_unless_within(
    db: &DatabaseConnection,
    gap: Duration,
) -> Result<Option<u64>, DbErr> {
    let row = db
        .query_one_raw(Statement::from_string(
            DbBackend::Postgres,
            format!(
                "WITH turn AS (\
                     SELECT index_name FROM search_index_cleans \
                     WHERE index_name = 'ix_conversations_search' \
                       AND cleaned_at <= clock_timestamp() - interval '{} milliseconds' \
                     FOR UPDATE SKIP LOCKED), \
                 taken AS (\
                     UPDATE search_index_cleans c SET cleaned_at = clock_timestamp() \
                     FROM turn WHERE c.index_name = turn.index_name RETURNING 1) \
                 SELECT gin_clean_pending_list('ix_conversations_search'::regclass) AS pages \
                 FROM taken",
                gap.as_millis()
            ),
        ))
        .await?;
    row.map(|r| {
        r.try_get::<i64>("", "pages")
            .map(|pages| u64::try_from(pages).unwrap_or(0))
    })
    .transpose()
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_clean_follows_written_starts_soon_and_an_idle_server_cleans_every_two_seconds() {
        let t0 = Instant::now();
        let mut pace = CleanPace::new(t0);
        assert!(!pace.due(t0 + CLEAN_BUSY_EVERY), "nothing written yet");
        assert!(!pace.due(t0 + CLEAN_EVERY - CLEAN_BUSY_EVERY));
        assert!(pace.due(t0 + CLEAN_EVERY), "idle: every 2 s");

        pace.cleaning(t0 + CLEAN_EVERY);
        pace.wrote();
        let t1 = t0 + CLEAN_EVERY + CLEAN_BUSY_EVERY;
        assert!(pace.due(t1), "starts written: the next tick cleans");
        pace.cleaning(t1);
        assert!(!pace.due(t1 + CLEAN_BUSY_EVERY), "cleaned, nothing new");
        assert!(pace.due(t1 + CLEAN_EVERY));
    }
}
