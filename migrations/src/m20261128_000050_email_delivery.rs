//! Every account email is written to `email_outbox` in the transaction of
//! the fact it reports, and a sender delivers it from there when a mail
//! server is configured: `status` is `kept` (no mail server: the message
//! stays here for `ca-server outbox`), `pending`, `sent` or `failed`;
//! `attempts`, `next_attempt_at` and `claimed_until` schedule and share the
//! delivery between servers; `last_error` says why the last attempt failed.
//! Messages stored before this change stay `kept`. Owned by `ca-auth`.

use sea_orm_migration::prelude::*;

#[derive(DeriveMigrationName)]
pub struct Migration;

#[derive(DeriveIden)]
enum EmailOutbox {
    Table,
    Status,
    Attempts,
    NextAttemptAt,
    ClaimedUntil,
    SentAt,
    LastError,
}

const DUE_INDEX: &str = "ix_email_outbox_status_next";

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        // One column per statement: SQLite alters a table one change at a time.
        let columns = [
            ColumnDef::new(EmailOutbox::Status)
                .string_len(16)
                .not_null()
                .default("kept")
                .to_owned(),
            ColumnDef::new(EmailOutbox::Attempts)
                .integer()
                .not_null()
                .default(0)
                .to_owned(),
            ColumnDef::new(EmailOutbox::NextAttemptAt)
                .timestamp_with_time_zone()
                .null()
                .to_owned(),
            ColumnDef::new(EmailOutbox::ClaimedUntil)
                .timestamp_with_time_zone()
                .null()
                .to_owned(),
            ColumnDef::new(EmailOutbox::SentAt)
                .timestamp_with_time_zone()
                .null()
                .to_owned(),
            ColumnDef::new(EmailOutbox::LastError)
                .text()
                .null()
                .to_owned(),
        ];
        for mut column in columns {
            manager
                .alter_table(
                    Table::alter()
                        .table(EmailOutbox::Table)
                        .add_column(&mut column)
                        .to_owned(),
                )
                .await?;
        }
        manager
            .create_index(
                Index::create()
                    .name(DUE_INDEX)
                    .table(EmailOutbox::Table)
                    .col(EmailOutbox::Status)
                    .col(EmailOutbox::NextAttemptAt)
                    .to_owned(),
            )
            .await
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .drop_index(
                Index::drop()
                    .name(DUE_INDEX)
                    .table(EmailOutbox::Table)
                    .to_owned(),
            )
            .await?;
        for column in [
            EmailOutbox::LastError,
            EmailOutbox::SentAt,
            EmailOutbox::ClaimedUntil,
            EmailOutbox::NextAttemptAt,
            EmailOutbox::Attempts,
            EmailOutbox::Status,
        ] {
            manager
                .alter_table(
                    Table::alter()
                        .table(EmailOutbox::Table)
                        .drop_column(column)
                        .to_owned(),
                )
                .await?;
        }
        Ok(())
    }
}
