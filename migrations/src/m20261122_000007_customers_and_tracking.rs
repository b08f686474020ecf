use sea_orm_migration::prelude::*;

use crate::m20261122_000001_users::Users;

#[derive(DeriveMigrationName)]
pub struct Migration;

#[derive(DeriveIden)]
enum Campaigns {
    Table,
    Id,
}

#[derive(DeriveIden)]
enum Customers {
    Table,
    Id,
    OwnerId,
    Email,
    Name,
    Phone,
    Company,
    Notes,
    ConversionStatus,
    LeadScore,
    TotalConversations,
    TotalMessages,
    TotalPageViews,
    TotalSessionSeconds,
    Sessions,
    TotalPurchases,
    RevenuePaise,
    SourceCampaignId,
    SourceCampaign,
    CollectedData,
    VisitorId,
    LastConversationDate,
    CreatedAt,
    UpdatedAt,
}

#[derive(DeriveIden)]
enum CampaignTouches {
    Table,
    CampaignId,
    VisitorId,
    OwnerId,
    LastAt,
}

#[derive(DeriveIden)]
enum Purchases {
    Table,
    Id,
    OwnerId,
    OrderId,
    CampaignId,
    VisitorId,
    ValuePaise,
    Currency,
    Attributed,
    CreatedAt,
}

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .create_table(
                Table::create()
                    .table(Customers::Table)
                    .col(
                        ColumnDef::new(Customers::Id)
                            .string_len(36)
                            .not_null()
                            .primary_key(),
                    )
                    .col(ColumnDef::new(Customers::OwnerId).string_len(36).not_null())
                    .col(ColumnDef::new(Customers::Email).string_len(254).not_null())
                    .col(ColumnDef::new(Customers::Name).string_len(200))
                    .col(ColumnDef::new(Customers::Phone).string_len(40))
                    .col(ColumnDef::new(Customers::Company).string_len(200))
                    .col(ColumnDef::new(Customers::Notes).text())
                    .col(
                        ColumnDef::new(Customers::ConversionStatus)
                            .string_len(16)
                            .not_null(),
                    )
                    .col(
                        ColumnDef::new(Customers::LeadScore)
                            .integer()
                            .not_null()
                            .default(0),
                    )
                    .col(
                        ColumnDef::new(Customers::TotalConversations)
                            .big_integer()
                            .not_null()
                            .default(0),
                    )
                    .col(
                        ColumnDef::new(Customers::TotalMessages)
                            .big_integer()
                            .not_null()
                            .default(0),
                    )
                    .col(
                        ColumnDef::new(Customers::TotalPageViews)
                            .big_integer()
                            .not_null()
                            .default(0),
                    )
                    .col(
                        ColumnDef::new(Customers::TotalSessionSeconds)
                            .big_integer()
                            .not_null()
                            .default(0),
                    )
                    .col(
                        ColumnDef::new(Customers::Sessions)
                            .big_integer()
                            .not_null()
                            .default(0),
                    )
                    .col(
                        ColumnDef::new(Customers::TotalPurchases)
                            .big_integer()
                            .not_null()
                            .default(0),
                    )
                    .col(
                        ColumnDef::new(Customers::RevenuePaise)
                            .big_integer()
                            .not_null()
                            .default(0),
                    )
                    .col(ColumnDef::new(Customers::SourceCampaignId).string_len(36))
                    .col(ColumnDef::new(Customers::SourceCampaign).string_len(120))
                    .col(ColumnDef::new(Customers::CollectedData).text().not_null())
                    .col(ColumnDef::new(Customers::VisitorId).string_len(64))
                    .col(ColumnDef::new(Customers::LastConversationDate).timestamp_with_time_zone())
                    .col(
                        ColumnDef::new(Customers::CreatedAt)
                            .timestamp_with_time_zone()
                            .not_null(),
                    )
                    .col(
                        ColumnDef::new(Customers::UpdatedAt)
                            .timestamp_with_time_zone()
                            .not_null(),
                    )
                    .foreign_key(
                        ForeignKey::create()
                            .name("fk_customers_owner")
                            .from(Customers::Table, Customers::OwnerId)
                            .to(Users::Table, Users::Id)
                            .on_delete(ForeignKeyAction::Cascade),
                    )
                    .foreign_key(
                        ForeignKey::create()
                            .name("fk_customers_campaign")
                            .from(Customers::Table, Customers::SourceCampaignId)
                            .to(Campaigns::Table, Campaigns::Id)
                            .on_delete(ForeignKeyAction::SetNull),
                    )
                    .to_owned(),
            )
            .await?;
        manager
            .create_index(
                Index::create()
                    .name("ux_customers_owner_email")
                    .table(Customers::Table)
                    .col(Customers::OwnerId)
                    .col(Customers::Email)
                    .unique()
                    .to_owned(),
            )
            .await?;
        for (name, col) in [
            ("ix_customers_owner_last", Customers::LastConversationDate),
            ("ix_customers_owner_score", Customers::LeadScore),
            (
                "ix_customers_owner_conversations",
                Customers::TotalConversations,
            ),
            ("ix_customers_owner_created", Customers::CreatedAt),
            ("ix_customers_owner_visitor", Customers::VisitorId),
        ] {
            manager
                .create_index(
                    Index::create()
                        .name(name)
                        .table(Customers::Table)
                        .col(Customers::OwnerId)
                        .col(col)
                        .to_owned(),
                )
                .await?;
        }
        manager
            .create_table(
                Table::create()
                    .table(CampaignTouches::Table)
                    .col(
                        ColumnDef::new(CampaignTouches::CampaignId)
                            .string_len(36)
                            .not_null(),
                    )
                    .col(
                        ColumnDef::new(CampaignTouches::VisitorId)
                            .string_len(64)
                            .not_null(),
                    )
                    .col(
                        ColumnDef::new(CampaignTouches::OwnerId)
                            .string_len(36)
                            .not_null(),
                    )
                    .col(
                        ColumnDef::new(CampaignTouches::LastAt)
                            .timestamp_with_time_zone()
                            .not_null(),
                    )
                    .primary_key(
                        Index::create()
                            .col(CampaignTouches::CampaignId)
                            .col(CampaignTouches::VisitorId),
                    )
                    .foreign_key(
                        ForeignKey::create()
                            .name("fk_campaign_touches_campaign")
                            .from(CampaignTouches::Table, CampaignTouches::CampaignId)
                            .to(Campaigns::Table, Campaigns::Id)
                            .on_delete(ForeignKeyAction::Cascade),
                    )
                    .to_owned(),
            )
            .await?;
        manager
            .create_index(
                Index::create()
                    .name("ix_campaign_touches_owner_visitor")
                    .table(CampaignTouches::Table)
                    .col(CampaignTouches::OwnerId)
                    .col(CampaignTouches::VisitorId)
                    .col(CampaignTouches::LastAt)
                    .to_owned(),
            )
            .await?;
        manager
            .create_table(
                Table::create()
                    .table(Purchases::Table)
                    .col(
                        ColumnDef::new(Purchases::Id)
                            .string_len(36)
                            .not_null()
                            .primary_key(),
                    )
                    .col(ColumnDef::new(Purchases::OwnerId).string_len(36).not_null())
                    .col(
                        ColumnDef::new(Purchases::OrderId)
                            .string_len(100)
                            .not_null(),
                    )
                    .col(ColumnDef::new(Purchases::CampaignId).string_len(36))
                    .col(
                        ColumnDef::new(Purchases::VisitorId)
                            .string_len(64)
                            .not_null(),
                    )
                    .col(
                        ColumnDef::new(Purchases::ValuePaise)
                            .big_integer()
                            .not_null(),
                    )
                    .col(ColumnDef::new(Purchases::Currency).string_len(3).not_null())
                    .col(ColumnDef::new(Purchases::Attributed).boolean().not_null())
                    .col(
                        ColumnDef::new(Purchases::CreatedAt)
                            .timestamp_with_time_zone()
                            .not_null(),
                    )
                    .foreign_key(
                        ForeignKey::create()
                            .name("fk_purchases_owner")
                            .from(Purchases::Table, Purchases::OwnerId)
                            .to(Users::Table, Users::Id)
                            .on_delete(ForeignKeyAction::Cascade),
                    )
                    .foreign_key(
                        ForeignKey::create()
                            .name("fk_purchases_campaign")
                            .from(Purchases::Table, Purchases::CampaignId)
                            .to(Campaigns::Table, Campaigns::Id)
                            .on_delete(ForeignKeyAction::SetNull),
                    )
                    .to_owned(),
            )
            .await?;
        manager
            .create_index(
                Index::create()
                    .name("ux_purchases_owner_order")
                    .table(Purchases::Table)
                    .col(Purchases::OwnerId)
                    .col(Purchases::OrderId)
                    .unique()
                    .to_owned(),
            )
            .await
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        for table in [
            Purchases::Table.into_iden(),
            CampaignTouches::Table.into_iden(),
            Customers::Table.into_iden(),
        ] {
            manager
                .drop_table(Table::drop().table(table).to_owned())
                .await?;
        }
        Ok(())
    }
}
