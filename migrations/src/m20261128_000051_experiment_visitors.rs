//! An A/B test counts visitors, not impressions: a visitor who sees the
//! popup on five pages is one visitor of their variant, and the test's rates
//! and intervals are per visitor. `experiment_exposures` remembers which
//! visitors each test has already counted (one row per test and visitor,
//! with the variant and when it was first seen); `experiment_counts.visitors`
//! is the number of visitors first seen that day. Counts stored before this
//! change know only impressions, so their days take `visitors =
//! impressions` (an upper bound: those visitors cannot be told apart now).
//! Owned by `ca-experiments`.

use sea_orm_migration::prelude::*;

#[derive(DeriveMigrationName)]
pub struct Migration;

#[derive(DeriveIden)]
enum ExperimentCounts {
    Table,
    Visitors,
    Impressions,
}

#[derive(DeriveIden)]
enum ExperimentExposures {
    Table,
    TestId,
    VisitorId,
    VariantId,
    FirstAt,
}

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        use ExperimentCounts as C;
        manager
            .alter_table(
                Table::alter()
                    .table(C::Table)
                    .add_column(
                        ColumnDef::new(C::Visitors)
                            .big_integer()
                            .not_null()
                            .default(0),
                    )
                    .to_owned(),
            )
            .await?;
        manager
            .exec_stmt(
                Query::update()
                    .table(C::Table)
                    .value(C::Visitors, Expr::col(C::Impressions))
                    .to_owned(),
            )
            .await?;
        use ExperimentExposures as E;
        manager
            .create_table(
                Table::create()
                    .table(E::Table)
                    .col(ColumnDef::new(E::TestId).string_len(36).not_null())
                    .col(ColumnDef::new(E::VisitorId).string_len(64).not_null())
                    .col(ColumnDef::new(E::VariantId).string_len(36).not_null())
                    .col(
                        ColumnDef::new(E::FirstAt)
                            .timestamp_with_time_zone()
                            .not_null(),
                    )
                    .primary_key(Index::create().col(E::TestId).col(E::VisitorId))
                    .to_owned(),
            )
            .await
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .drop_table(Table::drop().table(ExperimentExposures::Table).to_owned())
            .await?;
        manager
            .alter_table(
                Table::alter()
                    .table(ExperimentCounts::Table)
                    .drop_column(ExperimentCounts::Visitors)
                    .to_owned(),
            )
            .await
    }
}
