//! A/B tests of a campaign: the tests, their variants (the control first)
//! and each variant's counters per day (so the cumulative metric can be
//! drawn over time). Owned by `ca-experiments`.

use sea_orm_migration::prelude::*;

#[derive(DeriveMigrationName)]
pub struct Migration;

#[derive(DeriveIden)]
enum ExperimentTests {
    Table,
    Id,
    CampaignId,
    OwnerId,
    Name,
    Metric,
    Status,
    Version,
    StartedAt,
    ClosedAt,
    Winner,
    DecidedAt,
    DecisionReason,
    CreatedAt,
    UpdatedAt,
}

#[derive(DeriveIden)]
enum ExperimentVariants {
    Table,
    Id,
    TestId,
    Position,
    Name,
    Weight,
    Overrides,
    Paused,
}

#[derive(DeriveIden)]
enum ExperimentCounts {
    Table,
    VariantId,
    Day,
    TestId,
    Impressions,
    Conversations,
    Leads,
    Purchases,
    RevenuePaise,
    RevenueSquares,
}

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        use ExperimentTests as T;
        manager
            .create_table(
                Table::create()
                    .table(T::Table)
                    .col(
                        ColumnDef::new(T::Id)
                            .string_len(36)
                            .not_null()
                            .primary_key(),
                    )
                    .col(ColumnDef::new(T::CampaignId).string_len(36).not_null())
                    .col(ColumnDef::new(T::OwnerId).string_len(36).not_null())
                    .col(ColumnDef::new(T::Name).string_len(120).not_null())
                    .col(ColumnDef::new(T::Metric).string_len(32).not_null())
                    .col(ColumnDef::new(T::Status).string_len(16).not_null())
                    .col(ColumnDef::new(T::Version).integer().not_null())
                    .col(
                        ColumnDef::new(T::StartedAt)
                            .timestamp_with_time_zone()
                            .not_null(),
                    )
                    .col(
                        ColumnDef::new(T::ClosedAt)
                            .timestamp_with_time_zone()
                            .null(),
                    )
                    .col(ColumnDef::new(T::Winner).string_len(36).null())
                    .col(
                        ColumnDef::new(T::DecidedAt)
                            .timestamp_with_time_zone()
                            .null(),
                    )
                    .col(ColumnDef::new(T::DecisionReason).string_len(500).null())
                    .col(
                        ColumnDef::new(T::CreatedAt)
                            .timestamp_with_time_zone()
                            .not_null(),
                    )
                    .col(
                        ColumnDef::new(T::UpdatedAt)
                            .timestamp_with_time_zone()
                            .not_null(),
                    )
                    .to_owned(),
            )
            .await?;
        manager
            .create_index(
                Index::create()
                    .name("ix_experiment_tests_campaign")
                    .table(T::Table)
                    .col(T::CampaignId)
                    .col(T::CreatedAt)
                    .to_owned(),
            )
            .await?;
        use ExperimentVariants as V;
        manager
            .create_table(
                Table::create()
                    .table(V::Table)
                    .col(
                        ColumnDef::new(V::Id)
                            .string_len(36)
                            .not_null()
                            .primary_key(),
                    )
                    .col(ColumnDef::new(V::TestId).string_len(36).not_null())
                    .col(ColumnDef::new(V::Position).integer().not_null())
                    .col(ColumnDef::new(V::Name).string_len(120).not_null())
                    .col(ColumnDef::new(V::Weight).integer().not_null())
                    .col(ColumnDef::new(V::Overrides).text().not_null())
                    .col(ColumnDef::new(V::Paused).boolean().not_null())
                    .to_owned(),
            )
            .await?;
        manager
            .create_index(
                Index::create()
                    .name("ix_experiment_variants_test")
                    .table(V::Table)
                    .col(V::TestId)
                    .col(V::Position)
                    .to_owned(),
            )
            .await?;
        use ExperimentCounts as C;
        manager
            .create_table(
                Table::create()
                    .table(C::Table)
                    .col(ColumnDef::new(C::VariantId).string_len(36).not_null())
                    .col(ColumnDef::new(C::Day).date().not_null())
                    .col(ColumnDef::new(C::TestId).string_len(36).not_null())
                    .col(ColumnDef::new(C::Impressions).big_integer().not_null())
                    .col(ColumnDef::new(C::Conversations).big_integer().not_null())
                    .col(ColumnDef::new(C::Leads).big_integer().not_null())
                    .col(ColumnDef::new(C::Purchases).big_integer().not_null())
                    .col(ColumnDef::new(C::RevenuePaise).big_integer().not_null())
                    .col(ColumnDef::new(C::RevenueSquares).double().not_null())
                    .primary_key(Index::create().col(C::VariantId).col(C::Day))
                    .to_owned(),
            )
            .await?;
        manager
            .create_index(
                Index::create()
                    .name("ix_experiment_counts_test")
                    .table(C::Table)
                    .col(C::TestId)
                    .col(C::Day)
                    .to_owned(),
            )
            .await
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        for table in [
            ExperimentCounts::Table.into_iden(),
            ExperimentVariants::Table.into_iden(),
            ExperimentTests::Table.into_iden(),
        ] {
            manager
                .drop_table(Table::drop().table(table).to_owned())
                .await?;
        }
        Ok(())
    }
}
