//! A refund PayU accepted is only queued: PayU makes it later, or fails to.
//! `payments.refund_requested_at` marks one waiting on PayU (the payment
//! stays successful, with PayU's request id in `refund_id`, until PayU says
//! it is done); `refund_checked_at` is when PayU was last asked about it;
//! `refund_error` is why PayU could not make the last one. Owned by
//! `ca-billing`.

use sea_orm_migration::prelude::*;

#[derive(DeriveMigrationName)]
pub struct Migration;

#[derive(DeriveIden)]
enum Payments {
    Table,
    RefundRequestedAt,
    RefundCheckedAt,
    RefundError,
}

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        // One column per statement: SQLite adds one at a time.
        for column in [
            ColumnDef::new(Payments::RefundRequestedAt)
                .timestamp_with_time_zone()
                .null()
                .to_owned(),
            ColumnDef::new(Payments::RefundCheckedAt)
                .timestamp_with_time_zone()
                .null()
                .to_owned(),
            ColumnDef::new(Payments::RefundError)
                .text()
                .null()
                .to_owned(),
        ] {
            manager
                .alter_table(
                    Table::alter()
                        .table(Payments::Table)
                        .add_column(column)
                        .to_owned(),
                )
                .await?;
        }
        Ok(())
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        for column in [
            Payments::RefundError,
            Payments::RefundCheckedAt,
            Payments::RefundRequestedAt,
        ] {
            manager
                .alter_table(
                    Table::alter()
                        .table(Payments::Table)
                        .drop_column(column)
                        .to_owned(),
                )
                .await?;
        }
        Ok(())
    }
}
