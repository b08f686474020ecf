//! Staff page through the Meta outbox newest first, all of it or one state
//! at a time. Without an index on the order, every page sorted the whole
//! table (millions of sent events on a busy install) to find fifty rows.
//! These two indexes serve the page in its own order: one for the whole
//! outbox, one per state. Owned by `ca-meta`.

use sea_orm_migration::prelude::*;

#[derive(DeriveMigrationName)]
pub struct Migration;

#[derive(DeriveIden)]
enum MetaEvents {
    Table,
    Status,
    CreatedAt,
    EventId,
}

const NEWEST: &str = "ix_meta_events_newest";
const NEWEST_BY_STATUS: &str = "ix_meta_events_status_newest";

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .create_index(
                Index::create()
                    .name(NEWEST)
                    .table(MetaEvents::Table)
                    .col(MetaEvents::CreatedAt)
                    .col(MetaEvents::EventId)
                    .to_owned(),
            )
            .await?;
        manager
            .create_index(
                Index::create()
                    .name(NEWEST_BY_STATUS)
                    .table(MetaEvents::Table)
                    .col(MetaEvents::Status)
                    .col(MetaEvents::CreatedAt)
                    .col(MetaEvents::EventId)
                    .to_owned(),
            )
            .await
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        for name in [NEWEST_BY_STATUS, NEWEST] {
            manager
                .drop_index(Index::drop().name(name).table(MetaEvents::Table).to_owned())
                .await?;
        }
        Ok(())
    }
}
