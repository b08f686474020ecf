//! A refund is asked of PayU once: `payments.refund_started_at` is set when
//! staff start one, before PayU is called, so a double click, a second staff
//! member or a retry while the first request is still out cannot send PayU a
//! second request for the same money. Cleared when PayU refuses. Owned by
//! `ca-billing`.

use sea_orm_migration::prelude::*;

#[derive(DeriveMigrationName)]
pub struct Migration;

#[derive(DeriveIden)]
enum Payments {
    Table,
    RefundStartedAt,
}

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .alter_table(
                Table::alter()
                    .table(Payments::Table)
                    .add_column(
                        ColumnDef::new(Payments::RefundStartedAt)
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
                    .table(Payments::Table)
                    .drop_column(Payments::RefundStartedAt)
                    .to_owned(),
            )
            .await
    }
}
