use sea_orm_migration::prelude::*;

use crate::m20261122_000001_users::Users;

#[derive(DeriveMigrationName)]
pub struct Migration;

#[derive(DeriveIden)]
enum Campaigns {
    Table,
    Id,
    OwnerId,
    Name,
    WebsiteUrl,
    IsActive,
    Settings,
    Impressions,
    Conversions,
    RevenuePaise,
    CreatedAt,
    UpdatedAt,
}

#[derive(DeriveIden)]
enum MonthlyVisitors {
    Table,
    OwnerId,
    Period,
    VisitorId,
    FirstSeenAt,
}

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .create_table(
                Table::create()
                    .table(Campaigns::Table)
                    .col(
                        ColumnDef::new(Campaigns::Id)
                            .string_len(36)
                            .not_null()
                            .primary_key(),
                    )
                    .col(ColumnDef::new(Campaigns::OwnerId).string_len(36).not_null())
                    .col(ColumnDef::new(Campaigns::Name).string_len(120).not_null())
                    .col(
                        ColumnDef::new(Campaigns::WebsiteUrl)
                            .string_len(500)
                            .not_null(),
                    )
                    .col(
                        ColumnDef::new(Campaigns::IsActive)
                            .boolean()
                            .not_null()
                            .default(true),
                    )
                    .col(ColumnDef::new(Campaigns::Settings).text().not_null())
                    .col(
                        ColumnDef::new(Campaigns::Impressions)
                            .big_integer()
                            .not_null()
                            .default(0),
                    )
                    .col(
                        ColumnDef::new(Campaigns::Conversions)
                            .big_integer()
                            .not_null()
                            .default(0),
                    )
                    .col(
                        ColumnDef::new(Campaigns::RevenuePaise)
                            .big_integer()
                            .not_null()
                            .default(0),
                    )
                    .col(
                        ColumnDef::new(Campaigns::CreatedAt)
                            .timestamp_with_time_zone()
                            .not_null(),
                    )
                    .col(
                        ColumnDef::new(Campaigns::UpdatedAt)
                            .timestamp_with_time_zone()
                            .not_null(),
                    )
                    .foreign_key(
                        ForeignKey::create()
                            .name("fk_campaigns_owner")
                            .from(Campaigns::Table, Campaigns::OwnerId)
                            .to(Users::Table, Users::Id)
                            .on_delete(ForeignKeyAction::Cascade),
                    )
                    .to_owned(),
            )
            .await?;
        manager
            .create_index(
                Index::create()
                    .name("ix_campaigns_owner_created")
                    .table(Campaigns::Table)
                    .col(Campaigns::OwnerId)
                    .col(Campaigns::CreatedAt)
                    .to_owned(),
            )
            .await?;
        manager
            .create_table(
                Table::create()
                    .table(MonthlyVisitors::Table)
                    .col(
                        ColumnDef::new(MonthlyVisitors::OwnerId)
                            .string_len(36)
                            .not_null(),
                    )
                    .col(
                        ColumnDef::new(MonthlyVisitors::Period)
                            .string_len(7)
                            .not_null(),
                    )
                    .col(
                        ColumnDef::new(MonthlyVisitors::VisitorId)
                            .string_len(64)
                            .not_null(),
                    )
                    .col(
                        ColumnDef::new(MonthlyVisitors::FirstSeenAt)
                            .timestamp_with_time_zone()
                            .not_null(),
                    )
                    .primary_key(
                        Index::create()
                            .col(MonthlyVisitors::OwnerId)
                            .col(MonthlyVisitors::Period)
                            .col(MonthlyVisitors::VisitorId),
                    )
                    .foreign_key(
                        ForeignKey::create()
                            .name("fk_monthly_visitors_owner")
                            .from(MonthlyVisitors::Table, MonthlyVisitors::OwnerId)
                            .to(Users::Table, Users::Id)
                            .on_delete(ForeignKeyAction::Cascade),
                    )
                    .to_owned(),
            )
            .await
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .drop_table(Table::drop().table(MonthlyVisitors::Table).to_owned())
            .await?;
        manager
            .drop_table(Table::drop().table(Campaigns::Table).to_owned())
            .await
    }
}
