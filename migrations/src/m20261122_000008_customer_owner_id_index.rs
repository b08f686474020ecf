use sea_orm_migration::prelude::*;

#[derive(DeriveMigrationName)]
pub struct Migration;

#[derive(DeriveIden)]
enum Customers {
    Table,
    OwnerId,
    Id,
}

/// Lets the CSV export walk one owner's customers in id order, page by page.
#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .create_index(
                Index::create()
                    .name("ix_customers_owner_id")
                    .table(Customers::Table)
                    .col(Customers::OwnerId)
                    .col(Customers::Id)
                    .to_owned(),
            )
            .await
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .drop_index(
                Index::drop()
                    .name("ix_customers_owner_id")
                    .table(Customers::Table)
                    .to_owned(),
            )
            .await
    }
}
