//! A conversation started by a visitor in a running A/B test keeps the
//! test variant it was counted for, so its lead counts for the same variant
//! and its greeting and forms are the variant's. Owned by `ca-conversations`.

use sea_orm_migration::prelude::*;

#[derive(DeriveMigrationName)]
pub struct Migration;

#[derive(DeriveIden)]
enum Conversations {
    Table,
    VariantId,
}

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .alter_table(
                Table::alter()
                    .table(Conversations::Table)
                    .add_column(
                        ColumnDef::new(Conversations::VariantId)
                            .string_len(36)
                            .null(),
                    )
                    .to_owned(),
            )
            .await?;
        Ok(())
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .alter_table(
                Table::alter()
                    .table(Conversations::Table)
                    .drop_column(Conversations::VariantId)
                    .to_owned(),
            )
            .await?;
        Ok(())
    }
}
