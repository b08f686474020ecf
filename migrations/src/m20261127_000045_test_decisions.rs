//! The owner's say over how an A/B test ends: the maximum duration in days
//! after which a test without a winner is called inconclusive (30 for the
//! tests that exist; 14 to 90), whether the winner is promoted into the
//! campaign by itself, and when the owner was told of the call. Owned by
//! `ca-experiments`.
//!
//! Calls that a look at the results recorded on open tests before owners
//! were told are taken back, so the decision worker makes them again and
//! tells the owner.
//!
//! Browser notices gain the kind `test` (a test's call), next to `lead` and
//! `payment` (owned by `ca-push`).

use sea_orm::{ConnectionTrait, DbBackend, Statement};
use sea_orm_migration::prelude::*;

#[derive(DeriveMigrationName)]
pub struct Migration;

#[derive(DeriveIden)]
enum ExperimentTests {
    Table,
    Status,
    Winner,
    DecidedAt,
    DecisionReason,
    MaxDays,
    AutoPromote,
    NotifiedAt,
}

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        use ExperimentTests as T;
        manager
            .alter_table(
                Table::alter()
                    .table(T::Table)
                    .add_column(ColumnDef::new(T::MaxDays).integer().not_null().default(30))
                    .to_owned(),
            )
            .await?;
        manager
            .alter_table(
                Table::alter()
                    .table(T::Table)
                    .add_column(
                        ColumnDef::new(T::AutoPromote)
                            .boolean()
                            .not_null()
                            .default(false),
                    )
                    .to_owned(),
            )
            .await?;
        manager
            .alter_table(
                Table::alter()
                    .table(T::Table)
                    .add_column(
                        ColumnDef::new(T::NotifiedAt)
                            .timestamp_with_time_zone()
                            .null(),
                    )
                    .to_owned(),
            )
            .await?;
        manager
            .exec_stmt(
                Query::update()
                    .table(T::Table)
                    .value(T::Winner, Expr::cust("NULL"))
                    .value(T::DecidedAt, Expr::cust("NULL"))
                    .value(T::DecisionReason, Expr::cust("NULL"))
                    .and_where(Expr::col(T::Status).ne("closed"))
                    .to_owned(),
            )
            .await?;
        notice_kinds(manager, &["lead", "payment", "test"]).await?;
        Ok(())
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        use ExperimentTests as T;
        let db = manager.get_connection();
        db.execute_unprepared("DELETE FROM push_events WHERE kind = 'test'")
            .await?;
        notice_kinds(manager, &["lead", "payment"]).await?;
        for column in [T::NotifiedAt, T::AutoPromote, T::MaxDays] {
            manager
                .alter_table(
                    Table::alter()
                        .table(T::Table)
                        .drop_column(column)
                        .to_owned(),
                )
                .await?;
        }
        Ok(())
    }
}

/// Sets the kinds a browser notice (`push_events.kind`) may have. PostgreSQL
/// replaces the column's check; SQLite cannot change a check in place, so the
/// table is made again from its own definition with the new list, its rows
/// copied over.
async fn notice_kinds(manager: &SchemaManager<'_>, kinds: &[&str]) -> Result<(), DbErr> {
    let db = manager.get_connection();
    let list = kinds
        .iter()
        .map(|k| format!("'{k}'"))
        .collect::<Vec<_>>()
        .join(", ");
    match db.get_database_backend() {
        DbBackend::Postgres => {
            db.execute_unprepared(
                "ALTER TABLE push_events DROP CONSTRAINT IF EXISTS push_events_kind_check",
            )
            .await?;
            db.execute_unprepared(&format!(
                "ALTER TABLE push_events ADD CONSTRAINT push_events_kind_check CHECK (kind IN ({list}))"
            ))
            .await?;
        }
        _ => {
            let row = db
                .query_one_raw(Statement::from_string(
                    DbBackend::Sqlite,
                    "SELECT sql FROM sqlite_master WHERE type = 'table' AND name = 'push_events'",
                ))
                .await?
                .ok_or_else(|| DbErr::Custom("push_events is missing".into()))?;
            let create: String = row.try_get("", "sql")?;
            let start = create
                .find("\"kind\" IN (")
                .ok_or_else(|| DbErr::Custom(format!("no kind check in: {create}")))?
                + "\"kind\" IN (".len();
            let end = start
                + create[start..]
                    .find(')')
                    .ok_or_else(|| DbErr::Custom(format!("no kind check in: {create}")))?;
            let next = format!("{}{list}{}", &create[..start], &create[end..]).replacen(
                "\"push_events\"",
                "\"push_events_next\"",
                1,
            );
            // One batch, so every step runs on the same connection.
            db.execute_unprepared(&format!(
                "{next};\n\
                 INSERT INTO push_events_next SELECT * FROM push_events;\n\
                 DROP TABLE push_events;\n\
                 ALTER TABLE push_events_next RENAME TO push_events;\n\
                 CREATE INDEX IF NOT EXISTS ix_push_events_waiting ON push_events (notified_at, owner_id);"
            ))
            .await?;
        }
    }
    Ok(())
}
