//! An email carrying a link that stops working (a password reset, an
//! invitation to choose a password) keeps when the link expires:
//! `email_outbox.expires_at`. The sender gives up such an email once its
//! link has expired instead of delivering a dead link, and staff putting
//! failed emails back in the queue leave those out. Null for every other
//! email, and for emails stored before this change. Owned by `ca-auth`.

use sea_orm_migration::prelude::*;

#[derive(DeriveMigrationName)]
pub struct Migration;

#[derive(DeriveIden)]
enum EmailOutbox {
    Table,
    ExpiresAt,
}

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .alter_table(
                Table::alter()
                    .table(EmailOutbox::Table)
                    .add_column(
                        ColumnDef::new(EmailOutbox::ExpiresAt)
                            .timestamp_with_time_zone()
                            .null(),
                    )
                    .to_owned(),
            )
            .await
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .alter_table(
                Table::alter()
                    .table(EmailOutbox::Table)
                    .drop_column(EmailOutbox::ExpiresAt)
                    .to_owned(),
            )
            .await
    }
}
