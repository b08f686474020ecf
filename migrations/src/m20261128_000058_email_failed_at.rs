//! When an email was given up (`email_outbox.failed_at`): staff's "Given up,
//! last 7 days", the last failure shown and "Send failed emails again" go by
//! when the mail server refused an email, not by when it was written (an
//! email written last week and given up today is today's failure). Emails
//! given up before this count from when they were written. Owned by
//! `ca-auth`.

use sea_orm_migration::prelude::*;
use sea_orm_migration::sea_orm::ConnectionTrait;

#[derive(DeriveMigrationName)]
pub struct Migration;

#[derive(DeriveIden)]
enum EmailOutbox {
    Table,
    FailedAt,
}

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .alter_table(
                Table::alter()
                    .table(EmailOutbox::Table)
                    .add_column(
                        ColumnDef::new(EmailOutbox::FailedAt)
                            .timestamp_with_time_zone()
                            .null(),
                    )
                    .to_owned(),
            )
            .await?;
        manager
            .get_connection()
            .execute_unprepared(
                "UPDATE email_outbox SET failed_at = created_at WHERE status = 'failed'",
            )
            .await?;
        Ok(())
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .alter_table(
                Table::alter()
                    .table(EmailOutbox::Table)
                    .drop_column(EmailOutbox::FailedAt)
                    .to_owned(),
            )
            .await
    }
}
