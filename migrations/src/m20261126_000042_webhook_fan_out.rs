//! A webhook event is stored on the request path by one statement, and the
//! delivery worker gives it a delivery per endpoint that wants it
//! afterwards: `fanned_out` says whether that was done. Events stored
//! before this change already have their deliveries, so they start as done;
//! a partial index keeps the worker's look-up for the few not done yet cheap.

use sea_orm_migration::prelude::*;
use sea_orm_migration::sea_orm::{ConnectionTrait, Statement};

#[derive(DeriveMigrationName)]
pub struct Migration;

#[derive(DeriveIden)]
enum WebhookEvents {
    Table,
    FannedOut,
}

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .alter_table(
                Table::alter()
                    .table(WebhookEvents::Table)
                    .add_column(
                        ColumnDef::new(WebhookEvents::FannedOut)
                            .boolean()
                            .not_null()
                            .default(true),
                    )
                    .to_owned(),
            )
            .await?;
        // Partial indexes are written the same way on SQLite and PostgreSQL.
        let db = manager.get_connection();
        db.execute_raw(Statement::from_string(
            manager.get_database_backend(),
            "CREATE INDEX ix_webhook_events_not_fanned_out ON webhook_events (created_at) \
             WHERE fanned_out = false",
        ))
        .await?;
        Ok(())
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .drop_index(
                Index::drop()
                    .name("ix_webhook_events_not_fanned_out")
                    .table(WebhookEvents::Table)
                    .to_owned(),
            )
            .await?;
        manager
            .alter_table(
                Table::alter()
                    .table(WebhookEvents::Table)
                    .drop_column(WebhookEvents::FannedOut)
                    .to_owned(),
            )
            .await?;
        Ok(())
    }
}
