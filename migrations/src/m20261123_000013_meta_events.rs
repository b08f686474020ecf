//! The outbox of Meta Conversions API events: stored first, sent in batches
//! by a background worker, retried, never lost on restart.

use sea_orm_migration::prelude::*;

#[derive(DeriveMigrationName)]
pub struct Migration;

#[derive(DeriveIden)]
enum MetaEvents {
    Table,
    Id,
    EventId,
    EventName,
    EventTime,
    Payload,
    Status,
    Attempts,
    NextAttemptAt,
    ClaimToken,
    ClaimedUntil,
    LastError,
    CreatedAt,
    SentAt,
}

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .create_table(
                Table::create()
                    .table(MetaEvents::Table)
                    .col(
                        ColumnDef::new(MetaEvents::Id)
                            .string_len(36)
                            .not_null()
                            .primary_key(),
                    )
                    .col(
                        ColumnDef::new(MetaEvents::EventId)
                            .string_len(100)
                            .not_null(),
                    )
                    .col(
                        ColumnDef::new(MetaEvents::EventName)
                            .string_len(32)
                            .not_null(),
                    )
                    .col(
                        ColumnDef::new(MetaEvents::EventTime)
                            .timestamp_with_time_zone()
                            .not_null(),
                    )
                    .col(ColumnDef::new(MetaEvents::Payload).text().not_null())
                    .col(
                        ColumnDef::new(MetaEvents::Status)
                            .string_len(16)
                            .not_null()
                            .check(Expr::col(MetaEvents::Status).is_in([
                                "pending",
                                "sent",
                                "failed",
                                "not_forwarded",
                            ])),
                    )
                    .col(
                        ColumnDef::new(MetaEvents::Attempts)
                            .integer()
                            .not_null()
                            .default(0),
                    )
                    .col(
                        ColumnDef::new(MetaEvents::NextAttemptAt)
                            .timestamp_with_time_zone()
                            .not_null(),
                    )
                    .col(ColumnDef::new(MetaEvents::ClaimToken).string_len(36).null())
                    .col(
                        ColumnDef::new(MetaEvents::ClaimedUntil)
                            .timestamp_with_time_zone()
                            .null(),
                    )
                    .col(ColumnDef::new(MetaEvents::LastError).text().null())
                    .col(
                        ColumnDef::new(MetaEvents::CreatedAt)
                            .timestamp_with_time_zone()
                            .not_null(),
                    )
                    .col(
                        ColumnDef::new(MetaEvents::SentAt)
                            .timestamp_with_time_zone()
                            .null(),
                    )
                    .to_owned(),
            )
            .await?;
        manager
            .create_index(
                Index::create()
                    .name("ux_meta_events_event_id")
                    .table(MetaEvents::Table)
                    .col(MetaEvents::EventId)
                    .unique()
                    .to_owned(),
            )
            .await?;
        manager
            .create_index(
                Index::create()
                    .name("ix_meta_events_due")
                    .table(MetaEvents::Table)
                    .col(MetaEvents::Status)
                    .col(MetaEvents::NextAttemptAt)
                    .to_owned(),
            )
            .await
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .drop_table(Table::drop().table(MetaEvents::Table).to_owned())
            .await
    }
}
