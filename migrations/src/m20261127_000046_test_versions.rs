//! An A/B test whose variants the owner edits is closed and replaced by its
//! next version, which counts from zero: `replaced_by` is the id of the
//! version that took its place (none for a test that ended any other way).
//! Owned by `ca-experiments`.

use sea_orm_migration::prelude::*;

#[derive(DeriveMigrationName)]
pub struct Migration;

#[derive(DeriveIden)]
enum ExperimentTests {
    Table,
    ReplacedBy,
}

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .alter_table(
                Table::alter()
                    .table(ExperimentTests::Table)
                    .add_column(ColumnDef::new(ExperimentTests::ReplacedBy).string().null())
                    .to_owned(),
            )
            .await
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .alter_table(
                Table::alter()
                    .table(ExperimentTests::Table)
                    .drop_column(ExperimentTests::ReplacedBy)
                    .to_owned(),
            )
            .await
    }
}
