//! When the browser's copy of a Meta event was taken: the first copy is
//! kept and later ones ignored, so an event's attribution cannot be
//! rewritten by whoever learns its id.

use sea_orm_migration::prelude::*;

#[derive(DeriveMigrationName)]
pub struct Migration;

#[derive(DeriveIden)]
enum MetaEvents {
    Table,
    BrowserAt,
}

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .alter_table(
                Table::alter()
                    .table(MetaEvents::Table)
                    .add_column(
                        ColumnDef::new(MetaEvents::BrowserAt)
                            .timestamp_with_time_zone()
                            .null(),
                    )
                    .to_owned(),
            )
            .await?;
        // Copies already merged (they carry a browser's user agent) count
        // as the first.
        manager
            .get_connection()
            .execute_unprepared(
                "UPDATE meta_events SET browser_at = created_at \
                 WHERE payload LIKE '%\"client_user_agent\"%'",
            )
            .await?;
        Ok(())
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .alter_table(
                Table::alter()
                    .table(MetaEvents::Table)
                    .drop_column(MetaEvents::BrowserAt)
                    .to_owned(),
            )
            .await
    }
}
