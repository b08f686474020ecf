//! Meta outbox hardening: which events may reach only Meta's Test Events
//! (purchases made in PayU's test environment), a paused state for when
//! Meta rejects the access token, and a `skipped` status for purchases that
//! moved no money (simulator and demo payments), taken out of the queue for
//! good. SQLite cannot change a column's CHECK in place, so there the table
//! is rebuilt (same columns, rows and indexes) in one transaction.

use sea_orm_migration::prelude::*;
use sea_orm_migration::sea_orm::{ConnectionTrait, DbBackend, Statement};

const OLD_STATUSES: &str = "'pending', 'sent', 'failed', 'not_forwarded'";
const NEW_STATUSES: &str = "'pending', 'sent', 'failed', 'not_forwarded', 'skipped'";

#[derive(DeriveMigrationName)]
pub struct Migration;

#[derive(DeriveIden)]
enum MetaEvents {
    Table,
    TestEvent,
}

#[derive(DeriveIden)]
enum MetaOutboxState {
    Table,
    Id,
    PausedReason,
    PausedAt,
    TokenFingerprint,
}

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .alter_table(
                Table::alter()
                    .table(MetaEvents::Table)
                    .add_column(
                        ColumnDef::new(MetaEvents::TestEvent)
                            .boolean()
                            .not_null()
                            .default(false),
                    )
                    .to_owned(),
            )
            .await?;
        manager
            .create_table(
                Table::create()
                    .table(MetaOutboxState::Table)
                    .if_not_exists()
                    .col(
                        ColumnDef::new(MetaOutboxState::Id)
                            .string_len(16)
                            .not_null()
                            .primary_key(),
                    )
                    .col(ColumnDef::new(MetaOutboxState::PausedReason).text().null())
                    .col(
                        ColumnDef::new(MetaOutboxState::PausedAt)
                            .timestamp_with_time_zone()
                            .null(),
                    )
                    .col(
                        ColumnDef::new(MetaOutboxState::TokenFingerprint)
                            .string_len(64)
                            .null(),
                    )
                    .to_owned(),
            )
            .await?;
        let conn = manager.get_connection();
        match conn.get_database_backend() {
            DbBackend::Postgres => set_postgres_check(conn, NEW_STATUSES).await?,
            _ => {
                // One connection for the whole rebuild: on SQLite the pool's
                // other connections could otherwise see the table half made.
                let txn = manager.begin().await?;
                rebuild_sqlite(txn.get_connection(), OLD_STATUSES, NEW_STATUSES).await?;
                txn.commit().await?;
            }
        }
        // A Purchase's event id is `purchase-` and the payment's txnid.
        conn.execute_unprepared(
            "UPDATE meta_events SET status = 'skipped', \
             last_error = 'No money moved (simulator or demo payment): never sent to Meta' \
             WHERE event_name = 'Purchase' AND status IN ('pending', 'not_forwarded') \
             AND substr(event_id, 10) IN \
             (SELECT txnid FROM payments WHERE mode IN ('simulator', 'demo'))",
        )
        .await?;
        conn.execute_unprepared(
            "UPDATE meta_events SET test_event = true \
             WHERE event_name = 'Purchase' \
             AND substr(event_id, 10) IN (SELECT txnid FROM payments WHERE mode = 'test')",
        )
        .await?;
        Ok(())
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        let conn = manager.get_connection();
        conn.execute_unprepared("DELETE FROM meta_events WHERE status = 'skipped'")
            .await?;
        match conn.get_database_backend() {
            DbBackend::Postgres => set_postgres_check(conn, OLD_STATUSES).await?,
            _ => {
                let txn = manager.begin().await?;
                rebuild_sqlite(txn.get_connection(), NEW_STATUSES, OLD_STATUSES).await?;
                txn.commit().await?;
            }
        }
        manager
            .drop_table(Table::drop().table(MetaOutboxState::Table).to_owned())
            .await?;
        manager
            .alter_table(
                Table::alter()
                    .table(MetaEvents::Table)
                    .drop_column(MetaEvents::TestEvent)
                    .to_owned(),
            )
            .await
    }
}

async fn set_postgres_check<C: ConnectionTrait>(db: &C, statuses: &str) -> Result<(), DbErr> {
    db.execute_unprepared(
        "ALTER TABLE meta_events DROP CONSTRAINT IF EXISTS meta_events_status_check",
    )
    .await?;
    db.execute_unprepared(&format!(
        "ALTER TABLE meta_events ADD CONSTRAINT meta_events_status_check \
         CHECK (status IN ({statuses}))"
    ))
    .await?;
    Ok(())
}

/// Rebuilds SQLite's `meta_events` with its status CHECK listing `to`
/// instead of `from`: the same columns, rows and indexes.
async fn rebuild_sqlite<C: ConnectionTrait>(db: &C, from: &str, to: &str) -> Result<(), DbErr> {
    let row = db
        .query_one_raw(Statement::from_string(
            DbBackend::Sqlite,
            "SELECT sql FROM sqlite_master WHERE type = 'table' AND name = 'meta_events'",
        ))
        .await?
        .ok_or_else(|| DbErr::Migration("the meta_events table is missing".into()))?;
    let create: String = row.try_get("", "sql")?;
    if !create.contains(from) {
        return Err(DbErr::Migration(format!(
            "the meta_events table's status check is not ({from}): {create}"
        )));
    }
    let indexes: Vec<String> = db
        .query_all_raw(Statement::from_string(
            DbBackend::Sqlite,
            "SELECT sql FROM sqlite_master WHERE type = 'index' AND tbl_name = 'meta_events' \
             AND sql IS NOT NULL",
        ))
        .await?
        .into_iter()
        .map(|r| r.try_get::<String>("", "sql"))
        .collect::<Result<_, _>>()?;
    let rebuilt = create
        .replacen(from, to, 1)
        .replacen("\"meta_events\"", "\"meta_events_rebuilt\"", 1)
        .replacen("TABLE meta_events ", "TABLE meta_events_rebuilt ", 1);
    db.execute_unprepared(&rebuilt).await?;
    db.execute_unprepared("INSERT INTO meta_events_rebuilt SELECT * FROM meta_events")
        .await?;
    db.execute_unprepared("DROP TABLE meta_events").await?;
    db.execute_unprepared("ALTER TABLE meta_events_rebuilt RENAME TO meta_events")
        .await?;
    for index in indexes {
        db.execute_unprepared(&index).await?;
    }
    Ok(())
}
