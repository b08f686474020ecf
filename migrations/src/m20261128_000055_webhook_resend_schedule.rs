//! "Resend" gives a delivery a fresh retry schedule:
//! `webhook_deliveries.schedule_from` is how many attempts were made before
//! the last resend, and the wait before each retry counts from there. Before
//! this, a delivery resent after its eighth failed attempt had no retry
//! left, so one more temporary failure gave it up. Owned by `ca-webhooks`.

use sea_orm_migration::prelude::*;

#[derive(DeriveMigrationName)]
pub struct Migration;

#[derive(DeriveIden)]
enum WebhookDeliveries {
    Table,
    ScheduleFrom,
}

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .alter_table(
                Table::alter()
                    .table(WebhookDeliveries::Table)
                    .add_column(
                        ColumnDef::new(WebhookDeliveries::ScheduleFrom)
                            .integer()
                            .not_null()
                            .default(0),
                    )
                    .to_owned(),
            )
            .await
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .alter_table(
                Table::alter()
                    .table(WebhookDeliveries::Table)
                    .drop_column(WebhookDeliveries::ScheduleFrom)
                    .to_owned(),
            )
            .await
    }
}
