//! The last run of each background billing job (the reconciliation with
//! PayU), for the staff's System tab.

use sea_orm_migration::prelude::*;

#[derive(DeriveMigrationName)]
pub struct Migration;

#[derive(DeriveIden)]
enum BillingJobs {
    Table,
    Name,
    RanAt,
    Checked,
    Settled,
    Expired,
    Error,
}

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .create_table(
                Table::create()
                    .table(BillingJobs::Table)
                    .col(
                        ColumnDef::new(BillingJobs::Name)
                            .string_len(32)
                            .not_null()
                            .primary_key(),
                    )
                    .col(
                        ColumnDef::new(BillingJobs::RanAt)
                            .timestamp_with_time_zone()
                            .not_null(),
                    )
                    .col(
                        ColumnDef::new(BillingJobs::Checked)
                            .big_integer()
                            .not_null(),
                    )
                    .col(
                        ColumnDef::new(BillingJobs::Settled)
                            .big_integer()
                            .not_null(),
                    )
                    .col(
                        ColumnDef::new(BillingJobs::Expired)
                            .big_integer()
                            .not_null(),
                    )
                    .col(ColumnDef::new(BillingJobs::Error).text().null())
                    .to_owned(),
            )
            .await
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .drop_table(Table::drop().table(BillingJobs::Table).to_owned())
            .await
    }
}
