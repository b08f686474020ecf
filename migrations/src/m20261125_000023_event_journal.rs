//! How far the widget's event journal (SQLite) is stored in the database: one
//! row, updated in the same transaction as the events it covers, so events
//! journalled before a crash are stored exactly once at the next start.

use sea_orm_migration::prelude::*;

#[derive(DeriveMigrationName)]
pub struct Migration;

#[derive(DeriveIden)]
enum EventJournal {
    Table,
    Id,
    StoredThrough,
}

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .create_table(
                Table::create()
                    .table(EventJournal::Table)
                    .col(
                        ColumnDef::new(EventJournal::Id)
                            .integer()
                            .not_null()
                            .primary_key(),
                    )
                    .col(
                        ColumnDef::new(EventJournal::StoredThrough)
                            .big_integer()
                            .not_null(),
                    )
                    .to_owned(),
            )
            .await
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .drop_table(Table::drop().table(EventJournal::Table).to_owned())
            .await
    }
}
