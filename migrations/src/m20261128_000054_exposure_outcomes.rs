//! An A/B test counts leads and revenue per visitor, as it counts visitors:
//! `experiment_exposures.led_at` marks a visitor whose first lead the test
//! counted (a second lead of the same visitor adds nothing), and
//! `experiment_exposures.revenue_paise` keeps the visitor's revenue so far,
//! so the spread of revenue per visitor is taken over each visitor's total,
//! not over single orders. Visitors counted before this change have no lead
//! marked and no revenue kept. Owned by `ca-experiments`.

use sea_orm_migration::prelude::*;

#[derive(DeriveMigrationName)]
pub struct Migration;

#[derive(DeriveIden)]
enum ExperimentExposures {
    Table,
    LedAt,
    RevenuePaise,
}

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        // One column per statement: SQLite alters one at a time.
        manager
            .alter_table(
                Table::alter()
                    .table(ExperimentExposures::Table)
                    .add_column(
                        ColumnDef::new(ExperimentExposures::LedAt)
                            .timestamp_with_time_zone()
                            .null(),
                    )
                    .to_owned(),
            )
            .await?;
        manager
            .alter_table(
                Table::alter()
                    .table(ExperimentExposures::Table)
                    .add_column(
                        ColumnDef::new(ExperimentExposures::RevenuePaise)
                            .big_integer()
                            .not_null()
                            .default(0),
                    )
                    .to_owned(),
            )
            .await
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        for column in [
            ExperimentExposures::RevenuePaise,
            ExperimentExposures::LedAt,
        ] {
            manager
                .alter_table(
                    Table::alter()
                        .table(ExperimentExposures::Table)
                        .drop_column(column)
                        .to_owned(),
                )
                .await?;
        }
        Ok(())
    }
}
