//! The database pool: SQLite (WAL, foreign keys on) or PostgreSQL.

use std::time::Duration;

use anyhow::Context;
use sea_orm::{
    ConnectOptions, ConnectionTrait, Database, DatabaseConnection, DatabaseTransaction, DbBackend,
    DbErr, ExecResult, QueryResult, SqliteTransactionMode, Statement, TransactionOptions,
    TransactionTrait,
};

use crate::write_gate::{Lane, Turn};

/// Opens a pool on `url`, creating the SQLite file's folder when needed.
pub async fn connect(url: &str) -> anyhow::Result<DatabaseConnection> {
    open(url, if url.starts_with("sqlite:") { 8 } else { 20 }).await
}

/// On SQLite with a database file, a connection of its own for one writer
/// task (the widget events' store, the chat starts' writer): it never waits
/// for a pooled connection, and its page cache stays warm, because SQLite
/// drops a connection's cached pages whenever another connection has written
/// and a pooled connection rarely wrote last. `None` on PostgreSQL (the
/// shared pool serves it) or an in-memory database (a second connection
/// would open another database).
pub async fn connect_writer(url: &str) -> anyhow::Result<Option<DatabaseConnection>> {
    if sqlite_file(url).is_none() {
        return Ok(None);
    }
    open(url, 1).await.map(Some)
}

/// A pool of one connection to `url` for a task that writes large batches
/// one after another (the event store on PostgreSQL): a connection keeps the
/// buffers of the largest message it has sent, so batches spread over the
/// shared pool would in time leave every pooled connection holding a batch's
/// worth of memory.
pub async fn connect_one(url: &str) -> anyhow::Result<DatabaseConnection> {
    open(url, 1).await
}

async fn open(url: &str, connections: u32) -> anyhow::Result<DatabaseConnection> {
    let is_sqlite = url.starts_with("sqlite:");
    if is_sqlite {
        ensure_sqlite_dir(url)?;
    }
    let mut options = ConnectOptions::new(url.to_string());
    options
        .max_connections(connections)
        .min_connections(1)
        .connect_timeout(Duration::from_secs(10))
        .acquire_timeout(Duration::from_secs(10))
        .sqlx_logging(false);
    if is_sqlite {
        // Each pooled connection must get the pragmas, so set them on connect.
        options.map_sqlx_sqlite_opts(|opts| {
            opts.journal_mode(sea_orm::sqlx::sqlite::SqliteJournalMode::Wal)
                .foreign_keys(true)
                .busy_timeout(Duration::from_secs(5))
                .synchronous(sea_orm::sqlx::sqlite::SqliteSynchronous::Normal)
                // After a checkpoint that reaches the end of the log, the
                // log file is cut back to this size instead of keeping its
                // largest size for ever.
                .pragma("journal_size_limit", WAL_SIZE_LIMIT.to_string())
                // The server's checkpointer copies the log into the
                // database in the background; a writer does it itself only
                // when the log has grown this far without it.
                .pragma("wal_autocheckpoint", WAL_AUTOCHECKPOINT_PAGES.to_string())
        });
    }
    let db = Database::connect(options)
        .await
        .with_context(|| format!("connecting to {}", redact(url)))?;
    Ok(db)
}

/// Starts a transaction that writes, for a request someone is waiting on.
/// On SQLite it first waits its turn in the database file's write queue
/// ([`crate::write_gate`]: first come first served, ahead of background
/// writers), then takes the write lock at `BEGIN` (`BEGIN IMMEDIATE`), so a
/// transaction that reads and then writes can never fail half-way with
/// "database is locked" because another writer went first; PostgreSQL starts
/// an ordinary transaction (row locks do the same job there).
pub async fn begin_write(db: &DatabaseConnection) -> Result<WriteTxn, DbErr> {
    begin_in(db, Lane::Request).await
}

/// [`begin_write`] for background work (the event store's batches,
/// clean-ups): on SQLite it lets waiting request writes go first.
pub async fn begin_background_write(db: &DatabaseConnection) -> Result<WriteTxn, DbErr> {
    begin_in(db, Lane::Background).await
}

async fn begin_in(db: &DatabaseConnection, lane: Lane) -> Result<WriteTxn, DbErr> {
    let turn = if is_postgres(db) {
        None
    } else {
        let options = db.get_sqlite_connection_pool().connect_options();
        Some(
            crate::write_gate::take(options.get_filename(), lane)
                .await
                .ok_or_else(|| {
                    DbErr::Custom(format!(
                        "database is locked: another write held it for {} s",
                        crate::write_gate::WAIT_AT_MOST.as_secs()
                    ))
                })?,
        )
    };
    let txn = db
        .begin_with_options(TransactionOptions {
            sqlite_transaction_mode: Some(SqliteTransactionMode::Immediate),
            ..TransactionOptions::default()
        })
        .await?;
    Ok(WriteTxn { txn, _turn: turn })
}

/// A write transaction from [`begin_write`]: used like the
/// [`DatabaseTransaction`] it holds; on SQLite the next writer's turn comes
/// when it is committed, rolled back or dropped.
pub struct WriteTxn {
    txn: DatabaseTransaction,
    _turn: Option<Turn>,
}

impl WriteTxn {
    /// Commits, then lets the next writer go.
    pub async fn commit(self) -> Result<(), DbErr> {
        self.txn.commit().await
    }

    /// Rolls back, then lets the next writer go.
    pub async fn rollback(self) -> Result<(), DbErr> {
        self.txn.rollback().await
    }
}

impl std::ops::Deref for WriteTxn {
    type Target = DatabaseTransaction;

    fn deref(&self) -> &DatabaseTransaction {
        &self.txn
    }
}

#[async_trait::async_trait]
impl ConnectionTrait for WriteTxn {
    fn get_database_backend(&self) -> DbBackend {
        self.txn.get_database_backend()
    }

    async fn execute_raw(&self, stmt: Statement) -> Result<ExecResult, DbErr> {
        self.txn.execute_raw(stmt).await
    }

    async fn execute_unprepared(&self, sql: &str) -> Result<ExecResult, DbErr> {
        self.txn.execute_unprepared(sql).await
    }

    async fn query_one_raw(&self, stmt: Statement) -> Result<Option<QueryResult>, DbErr> {
        self.txn.query_one_raw(stmt).await
    }

    async fn query_all_raw(&self, stmt: Statement) -> Result<Vec<QueryResult>, DbErr> {
        self.txn.query_all_raw(stmt).await
    }

    fn support_returning(&self) -> bool {
        self.txn.support_returning()
    }
}

/// The size, in bytes, an SQLite write-ahead log is cut back to after a
/// checkpoint.
pub const WAL_SIZE_LIMIT: u64 = 64 * 1024 * 1024;

/// Pages (4 KiB each) the SQLite log may grow to before the writer whose
/// commit crosses it copies the log into the database itself, on its
/// request's time. A safety net: [`checkpoint_in_background`] normally does
/// it long before, beside the writers.
pub const WAL_AUTOCHECKPOINT_PAGES: u32 = 8000;

/// How often the background checkpointer copies the SQLite log into the
/// database.
pub const CHECKPOINT_EVERY: Duration = Duration::from_millis(100);

/// On SQLite with a database file, starts a task that copies the
/// write-ahead log into the database every [`CHECKPOINT_EVERY`] over a
/// connection of its own (`wal_checkpoint(PASSIVE)`: it never waits for a
/// reader or writer and never holds one up). Writers then only append to the
/// log: copying pages and the database file's sync happen on another thread
/// instead of inside whichever visitor's commit crossed the log's limit.
/// `None` on PostgreSQL or an in-memory database.
pub async fn checkpoint_in_background(
    url: &str,
) -> anyhow::Result<Option<tokio::task::JoinHandle<()>>> {
    let Some(db) = connect_writer(url).await? else {
        return Ok(None);
    };
    Ok(Some(tokio::spawn(async move {
        let mut ticker = tokio::time::interval(CHECKPOINT_EVERY);
        ticker.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        let mut failing = false;
        loop {
            ticker.tick().await;
            match db
                .execute_unprepared("PRAGMA wal_checkpoint(PASSIVE)")
                .await
            {
                Ok(_) => failing = false,
                Err(err) if !failing => {
                    failing = true;
                    tracing::warn!(%err, "copying the write-ahead log into the database failed; writers will do it themselves");
                }
                Err(_) => {}
            }
        }
    })))
}

/// The SQLite database file behind `url` (None for PostgreSQL or in memory).
pub fn sqlite_file(url: &str) -> Option<std::path::PathBuf> {
    if !url.starts_with("sqlite:") {
        return None;
    }
    let path = sqlite_path(url);
    (!path.is_empty() && path != ":memory:").then(|| std::path::PathBuf::from(path))
}

/// The size of the SQLite write-ahead log next to `file`, 0 when there is none.
pub fn wal_bytes(file: &std::path::Path) -> u64 {
    let mut wal = file.as_os_str().to_owned();
    wal.push("-wal");
    std::fs::metadata(wal).map_or(0, |m| m.len())
}

/// Moves the SQLite write-ahead log into the database and empties it
/// (`wal_checkpoint(TRUNCATE)`), giving up at once when a reader or writer is
/// in the way (the next round tries again), so it never holds up requests.
/// Returns whether the log was emptied. Does nothing on PostgreSQL.
pub async fn checkpoint(db: &DatabaseConnection) -> Result<bool, DbErr> {
    if is_postgres(db) {
        return Ok(true);
    }
    use sea_orm::sqlx::{Connection, Row};
    let pool = db.get_sqlite_connection_pool();
    let mut conn = pool
        .acquire()
        .await
        .map_err(|e| DbErr::Conn(sea_orm::RuntimeErr::SqlxError(e.into())))?;
    let run = async {
        sea_orm::sqlx::query("PRAGMA busy_timeout = 0")
            .execute(&mut *conn)
            .await?;
        let row = sea_orm::sqlx::query("PRAGMA wal_checkpoint(TRUNCATE)")
            .fetch_one(&mut *conn)
            .await;
        sea_orm::sqlx::query("PRAGMA busy_timeout = 5000")
            .execute(&mut *conn)
            .await?;
        let busy: i64 = row?.try_get(0)?;
        Ok::<bool, sea_orm::sqlx::Error>(busy == 0)
    };
    let result = run.await;
    if result.is_err() {
        // A connection left with another busy timeout must not go back to the pool.
        let _ = conn.detach().close().await;
    }
    result.map_err(|e| DbErr::Conn(sea_orm::RuntimeErr::SqlxError(e.into())))
}

/// Deletes the rows of `table` matching `condition` (SQL with `?` for each of
/// `values`) a few thousand at a time, each batch in its own short write
/// transaction, so a large clean-up never holds the write lock for long.
/// Returns how many rows went. Only for the crate that owns `table`.
pub async fn delete_in_batches(
    db: &DatabaseConnection,
    table: &str,
    condition: &str,
    values: Vec<sea_orm::Value>,
) -> Result<u64, DbErr> {
    const BATCH: u64 = 5000;
    let backend = db.get_database_backend();
    let (row, condition) = if backend == DbBackend::Postgres {
        let mut n = 0;
        let numbered = condition
            .split('?')
            .enumerate()
            .map(|(i, part)| {
                if i == 0 {
                    part.to_string()
                } else {
                    n += 1;
                    format!("${n}{part}")
                }
            })
            .collect::<String>();
        ("ctid", numbered)
    } else {
        ("rowid", condition.to_string())
    };
    // PostgreSQL: ARRAY(...) picks the batch once; `ctid IN (subquery)` may
    // run the subquery again and delete a different, smaller set.
    let sql = if backend == DbBackend::Postgres {
        format!(
            "DELETE FROM {table} WHERE ctid = ANY(ARRAY(SELECT ctid FROM {table} WHERE {condition} LIMIT {BATCH}))"
        )
    } else {
        format!(
            "DELETE FROM {table} WHERE {row} IN (SELECT {row} FROM {table} WHERE {condition} LIMIT {BATCH})"
        )
    };
    let mut total = 0;
    loop {
        let txn = begin_background_write(db).await?;
        let done = txn
            .execute_raw(sea_orm::Statement::from_sql_and_values(
                backend,
                sql.clone(),
                values.clone(),
            ))
            .await?
            .rows_affected();
        txn.commit().await?;
        total += done;
        // Stop only when a round finds nothing: on PostgreSQL a round may
        // remove fewer than a batch while more rows still match.
        if done == 0 {
            return Ok(total);
        }
        tokio::task::yield_now().await;
    }
}

/// Whether the database answers a trivial query (for `/readyz`).
pub async fn ping(db: &DatabaseConnection) -> bool {
    db.execute_unprepared("SELECT 1").await.is_ok()
}

/// True for PostgreSQL, false for SQLite.
pub fn is_postgres(db: &DatabaseConnection) -> bool {
    db.get_database_backend() == DbBackend::Postgres
}

fn sqlite_path(url: &str) -> &str {
    url.trim_start_matches("sqlite://")
        .trim_start_matches("sqlite:")
        .split('?')
        .next()
        .unwrap_or_default()
}

fn ensure_sqlite_dir(url: &str) -> anyhow::Result<()> {
    let path = sqlite_path(url);
    if path.is_empty() || path == ":memory:" {
        return Ok(());
    }
    if let Some(parent) = std::path::Path::new(path).parent()
        && !parent.as_os_str().is_empty()
    {
        std::fs::create_dir_all(parent)
            .with_context(|| format!("creating the database folder {}", parent.display()))?;
    }
    Ok(())
}

/// A database URL with any password replaced, for logs and errors.
pub fn redact(url: &str) -> String {
    match (url.find("://"), url.rfind('@')) {
        (Some(scheme_end), Some(at)) if at > scheme_end => {
            let creds = &url[scheme_end + 3..at];
            match creds.find(':') {
                Some(colon) => format!(
                    "{}{}:***{}",
                    &url[..scheme_end + 3],
                    &creds[..colon],
                    &url[at..]
                ),
                None => url.to_string(),
            }
        }
        _ => url.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn redacts_passwords() {
        assert_eq!(
            redact("postgres://ca:secret@db:5432/ca"),
            "postgres://ca:***@db:5432/ca"
        );
        assert_eq!(redact("postgres://ca@db/ca"), "postgres://ca@db/ca");
        assert_eq!(redact("sqlite://data/x.db"), "sqlite://data/x.db");
    }

    /// Writers leave the log to the background checkpointer: a commit well
    /// under the writers' own limit reaches the database file only through
    /// it, and does so within a few of its rounds.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn the_log_reaches_the_database_file_in_the_background() {
        let dir = tempfile::tempdir().expect("dir");
        let file = dir.path().join("ckpt.db");
        let url = format!("sqlite://{}?mode=rwc", file.display());
        let db = connect(&url).await.expect("connect");
        let limit = db
            .query_one_raw(Statement::from_string(
                DbBackend::Sqlite,
                "PRAGMA wal_autocheckpoint",
            ))
            .await
            .expect("pragma")
            .expect("row")
            .try_get_by_index::<i64>(0)
            .expect("pages");
        assert_eq!(limit, i64::from(WAL_AUTOCHECKPOINT_PAGES));
        db.execute_unprepared("CREATE TABLE t (b BLOB)")
            .await
            .expect("table");
        let size = || std::fs::metadata(&file).map_or(0, |m| m.len());
        // About 2 MiB: 500 pages, far below the writers' own limit.
        db.execute_unprepared(
            "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 512) \
             INSERT INTO t SELECT randomblob(4000) FROM n",
        )
        .await
        .expect("insert");
        tokio::time::sleep(CHECKPOINT_EVERY * 3).await;
        assert!(
            size() < 1 << 20,
            "copied without the checkpointer: {}",
            size()
        );
        assert!(wal_bytes(&file) > 3 << 19, "the log holds the rows");

        let task = checkpoint_in_background(&url)
            .await
            .expect("start")
            .expect("a file");
        let mut waited = Duration::ZERO;
        while size() < 3 << 19 && waited < Duration::from_secs(5) {
            tokio::time::sleep(CHECKPOINT_EVERY).await;
            waited += CHECKPOINT_EVERY;
        }
        task.abort();
        assert!(
            size() >= 3 << 19,
            "the log was not copied: {} bytes",
            size()
        );
        assert!(
            checkpoint_in_background("sqlite::memory:")
                .await
                .expect("memory")
                .is_none()
        );
    }
}
