//! Staff settings live in one table, `platform_settings`: the rows of
//! `admin_settings` (the ad spend) move there and that table goes.

use sea_orm_migration::prelude::*;

#[derive(DeriveMigrationName)]
pub struct Migration;

#[derive(DeriveIden)]
enum AdminSettings {
    Table,
    Key,
    Value,
    UpdatedAt,
}

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        let db = manager.get_connection();
        db.execute_unprepared(
            "INSERT INTO platform_settings (key, value, updated_at) \
             SELECT a.key, a.value, a.updated_at FROM admin_settings a \
             WHERE NOT EXISTS (SELECT 1 FROM platform_settings p WHERE p.key = a.key)",
        )
        .await?;
        manager
            .drop_table(Table::drop().table(AdminSettings::Table).to_owned())
            .await
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .create_table(
                Table::create()
                    .table(AdminSettings::Table)
                    .col(
                        ColumnDef::new(AdminSettings::Key)
                            .string_len(64)
                            .not_null()
                            .primary_key(),
                    )
                    .col(ColumnDef::new(AdminSettings::Value).text().not_null())
                    .col(
                        ColumnDef::new(AdminSettings::UpdatedAt)
                            .timestamp_with_time_zone()
                            .not_null(),
                    )
                    .to_owned(),
            )
            .await?;
        manager
            .get_connection()
            .execute_unprepared(
                "INSERT INTO admin_settings (key, value, updated_at) \
                 SELECT key, value, updated_at FROM platform_settings WHERE key <> 'trial'",
            )
            .await?;
        Ok(())
    }
}
