//! Purchases above the campaign's largest believable order are kept but not
//! counted: `held` marks them.

use sea_orm_migration::prelude::*;

#[derive(DeriveMigrationName)]
pub struct Migration;

#[derive(DeriveIden)]
enum Purchases {
    Table,
    Held,
}

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .alter_table(
                Table::alter()
                    .table(Purchases::Table)
                    .add_column(
                        ColumnDef::new(Purchases::Held)
                            .boolean()
                            .not_null()
                            .default(false),
                    )
                    .to_owned(),
            )
            .await
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .alter_table(
                Table::alter()
                    .table(Purchases::Table)
                    .drop_column(Purchases::Held)
                    .to_owned(),
            )
            .await
    }
}
