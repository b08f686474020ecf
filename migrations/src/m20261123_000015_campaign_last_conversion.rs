//! When a campaign last converted a visitor (the dashboard's activity shows
//! it), filled from the conversations that converted so far.

use sea_orm_migration::prelude::*;

#[derive(DeriveMigrationName)]
pub struct Migration;

#[derive(DeriveIden)]
enum Campaigns {
    Table,
    LastConversionAt,
}

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .alter_table(
                Table::alter()
                    .table(Campaigns::Table)
                    .add_column(
                        ColumnDef::new(Campaigns::LastConversionAt)
                            .timestamp_with_time_zone()
                            .null(),
                    )
                    .to_owned(),
            )
            .await?;
        manager
            .get_connection()
            .execute_unprepared(
                "UPDATE campaigns SET last_conversion_at = (SELECT MAX(c.last_activity_at) \
                 FROM conversations c WHERE c.campaign_id = campaigns.id AND c.outcome = 'conversion')",
            )
            .await?;
        Ok(())
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .alter_table(
                Table::alter()
                    .table(Campaigns::Table)
                    .drop_column(Campaigns::LastConversionAt)
                    .to_owned(),
            )
            .await
    }
}
