//! One row per suspended account: since when, by whom, and whether the
//! owner's widget pauses meanwhile. Unsuspending deletes the row.

use sea_orm_migration::prelude::*;

#[derive(DeriveMigrationName)]
pub struct Migration;

#[derive(DeriveIden)]
enum AccountSuspensions {
    Table,
    UserId,
    SuspendedAt,
    SuspendedBy,
    PauseWidget,
}

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .create_table(
                Table::create()
                    .table(AccountSuspensions::Table)
                    .col(
                        ColumnDef::new(AccountSuspensions::UserId)
                            .string_len(36)
                            .not_null()
                            .primary_key(),
                    )
                    .col(
                        ColumnDef::new(AccountSuspensions::SuspendedAt)
                            .timestamp_with_time_zone()
                            .not_null(),
                    )
                    .col(
                        ColumnDef::new(AccountSuspensions::SuspendedBy)
                            .string_len(36)
                            .not_null(),
                    )
                    .col(
                        ColumnDef::new(AccountSuspensions::PauseWidget)
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
            .drop_table(Table::drop().table(AccountSuspensions::Table).to_owned())
            .await
    }
}
