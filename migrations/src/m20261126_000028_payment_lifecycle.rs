//! What a payment needs to be run in production:
//!
//! - two more statuses: `expired` (a checkout left unpaid past PayU's window,
//!   shown as "Not completed") and `refunded`;
//! - the mode it was made in (`simulator`, `demo`, `test` or `live`), so
//!   test and simulated payments never reach a live ad account;
//! - the buyer's browser (user agent, address, page) taken at checkout, so
//!   the server's own Purchase event is complete without the browser;
//! - the refund (when, how much, PayU's request id, whether access was kept);
//! - when a success arrived after the payment had failed (shown to staff).
//!
//! SQLite cannot change a column's CHECK in place, so there the table is
//! rebuilt with the same rows.

use sea_orm_migration::prelude::*;
use sea_orm_migration::sea_orm::{ConnectionTrait, DbBackend, Statement};

#[derive(DeriveMigrationName)]
pub struct Migration;

#[derive(DeriveIden)]
enum Payments {
    Table,
    Mode,
    ClientUserAgent,
    ClientIp,
    SourceUrl,
    RefundedAt,
    RefundAmountPaise,
    RefundId,
    RefundKeepsAccess,
    LateSuccessAt,
}

const OLD_STATUSES: &str = "'pending', 'success', 'failure'";
const NEW_STATUSES: &str = "'pending', 'success', 'failure', 'expired', 'refunded'";

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        let columns = [
            ColumnDef::new(Payments::Mode)
                .string_len(10)
                .not_null()
                .default("live")
                .to_owned(),
            ColumnDef::new(Payments::ClientUserAgent)
                .text()
                .null()
                .to_owned(),
            ColumnDef::new(Payments::ClientIp)
                .string_len(64)
                .null()
                .to_owned(),
            ColumnDef::new(Payments::SourceUrl).text().null().to_owned(),
            ColumnDef::new(Payments::RefundedAt)
                .timestamp_with_time_zone()
                .null()
                .to_owned(),
            ColumnDef::new(Payments::RefundAmountPaise)
                .big_integer()
                .null()
                .to_owned(),
            ColumnDef::new(Payments::RefundId)
                .string_len(64)
                .null()
                .to_owned(),
            ColumnDef::new(Payments::RefundKeepsAccess)
                .boolean()
                .null()
                .to_owned(),
            ColumnDef::new(Payments::LateSuccessAt)
                .timestamp_with_time_zone()
                .null()
                .to_owned(),
        ];
        for mut column in columns {
            manager
                .alter_table(
                    Table::alter()
                        .table(Payments::Table)
                        .add_column(&mut column)
                        .to_owned(),
                )
                .await?;
        }
        let db = manager.get_connection();
        db.execute_unprepared(
            "UPDATE payments SET mode = CASE provider \
             WHEN 'simulator' THEN 'simulator' WHEN 'demo' THEN 'demo' ELSE 'live' END",
        )
        .await?;
        match db.get_database_backend() {
            DbBackend::Postgres => {
                db.execute_unprepared(
                    "ALTER TABLE payments DROP CONSTRAINT IF EXISTS payments_status_check",
                )
                .await?;
                db.execute_unprepared(&format!(
                    "ALTER TABLE payments ADD CONSTRAINT payments_status_check \
                     CHECK (status IN ({NEW_STATUSES}))"
                ))
                .await?;
                db.execute_unprepared(
                    "ALTER TABLE payments ADD CONSTRAINT payments_mode_check \
                     CHECK (mode IN ('simulator', 'demo', 'test', 'live'))",
                )
                .await?;
            }
            _ => {
                // One connection for the whole rebuild: on SQLite the pool's
                // other connections could otherwise see the table half made.
                let txn = manager.begin().await?;
                rebuild_sqlite(txn.get_connection(), OLD_STATUSES, NEW_STATUSES).await?;
                txn.commit().await?;
            }
        }
        Ok(())
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        let db = manager.get_connection();
        db.execute_unprepared(
            "UPDATE payments SET status = 'failure' WHERE status IN ('expired', 'refunded')",
        )
        .await?;
        match db.get_database_backend() {
            DbBackend::Postgres => {
                db.execute_unprepared(
                    "ALTER TABLE payments DROP CONSTRAINT IF EXISTS payments_mode_check",
                )
                .await?;
                db.execute_unprepared(
                    "ALTER TABLE payments DROP CONSTRAINT IF EXISTS payments_status_check",
                )
                .await?;
                db.execute_unprepared(&format!(
                    "ALTER TABLE payments ADD CONSTRAINT payments_status_check \
                     CHECK (status IN ({OLD_STATUSES}))"
                ))
                .await?;
            }
            _ => {
                let txn = manager.begin().await?;
                rebuild_sqlite(txn.get_connection(), NEW_STATUSES, OLD_STATUSES).await?;
                txn.commit().await?;
            }
        }
        for column in [
            Payments::LateSuccessAt,
            Payments::RefundKeepsAccess,
            Payments::RefundId,
            Payments::RefundAmountPaise,
            Payments::RefundedAt,
            Payments::SourceUrl,
            Payments::ClientIp,
            Payments::ClientUserAgent,
            Payments::Mode,
        ] {
            manager
                .alter_table(
                    Table::alter()
                        .table(Payments::Table)
                        .drop_column(column)
                        .to_owned(),
                )
                .await?;
        }
        Ok(())
    }
}

/// Rebuilds SQLite's `payments` with its status CHECK listing `to` instead
/// of `from`: the same columns, rows and indexes.
async fn rebuild_sqlite<C: ConnectionTrait>(db: &C, from: &str, to: &str) -> Result<(), DbErr> {
    let row = db
        .query_one_raw(Statement::from_string(
            DbBackend::Sqlite,
            "SELECT sql FROM sqlite_master WHERE type = 'table' AND name = 'payments'",
        ))
        .await?
        .ok_or_else(|| DbErr::Migration("the payments table is missing".into()))?;
    let create: String = row.try_get("", "sql")?;
    if !create.contains(from) {
        return Err(DbErr::Migration(format!(
            "the payments table's status check is not ({from}): {create}"
        )));
    }
    let indexes: Vec<String> = db
        .query_all_raw(Statement::from_string(
            DbBackend::Sqlite,
            "SELECT sql FROM sqlite_master WHERE type = 'index' AND tbl_name = 'payments' \
             AND sql IS NOT NULL",
        ))
        .await?
        .into_iter()
        .map(|r| r.try_get::<String>("", "sql"))
        .collect::<Result<_, _>>()?;
    let rebuilt = create
        .replacen(from, to, 1)
        .replacen("\"payments\"", "\"payments_rebuilt\"", 1)
        .replacen("TABLE payments ", "TABLE payments_rebuilt ", 1);
    db.execute_unprepared(&rebuilt).await?;
    db.execute_unprepared("INSERT INTO payments_rebuilt SELECT * FROM payments")
        .await?;
    db.execute_unprepared("DROP TABLE payments").await?;
    db.execute_unprepared("ALTER TABLE payments_rebuilt RENAME TO payments")
        .await?;
    for index in indexes {
        db.execute_unprepared(&index).await?;
    }
    Ok(())
}
