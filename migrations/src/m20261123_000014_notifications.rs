//! Owner notifications: leads waiting to be emailed to their owner (sent one
//! by one, or as a digest when many arrive within minutes), and when a
//! payment's receipt was sent.

use sea_orm_migration::prelude::*;

use crate::m20261122_000001_users::Users;

#[derive(DeriveMigrationName)]
pub struct Migration;

#[derive(DeriveIden)]
enum LeadNotifications {
    Table,
    Id,
    OwnerId,
    CustomerEmail,
    CustomerName,
    CampaignName,
    CreatedAt,
    SentAt,
}

#[derive(DeriveIden)]
enum Payments {
    Table,
    ReceiptSentAt,
}

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .create_table(
                Table::create()
                    .table(LeadNotifications::Table)
                    .col(
                        ColumnDef::new(LeadNotifications::Id)
                            .string_len(36)
                            .not_null()
                            .primary_key(),
                    )
                    .col(
                        ColumnDef::new(LeadNotifications::OwnerId)
                            .string_len(36)
                            .not_null(),
                    )
                    .col(
                        ColumnDef::new(LeadNotifications::CustomerEmail)
                            .string_len(254)
                            .not_null(),
                    )
                    .col(
                        ColumnDef::new(LeadNotifications::CustomerName)
                            .string_len(200)
                            .null(),
                    )
                    .col(
                        ColumnDef::new(LeadNotifications::CampaignName)
                            .string_len(200)
                            .not_null(),
                    )
                    .col(
                        ColumnDef::new(LeadNotifications::CreatedAt)
                            .timestamp_with_time_zone()
                            .not_null(),
                    )
                    .col(
                        ColumnDef::new(LeadNotifications::SentAt)
                            .timestamp_with_time_zone()
                            .null(),
                    )
                    .foreign_key(
                        ForeignKey::create()
                            .name("fk_lead_notifications_owner")
                            .from(LeadNotifications::Table, LeadNotifications::OwnerId)
                            .to(Users::Table, Users::Id)
                            .on_delete(ForeignKeyAction::Cascade),
                    )
                    .to_owned(),
            )
            .await?;
        manager
            .create_index(
                Index::create()
                    .name("ix_lead_notifications_unsent")
                    .table(LeadNotifications::Table)
                    .col(LeadNotifications::SentAt)
                    .col(LeadNotifications::OwnerId)
                    .to_owned(),
            )
            .await?;
        manager
            .alter_table(
                Table::alter()
                    .table(Payments::Table)
                    .add_column(
                        ColumnDef::new(Payments::ReceiptSentAt)
                            .timestamp_with_time_zone()
                            .null(),
                    )
                    .to_owned(),
            )
            .await
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .alter_table(
                Table::alter()
                    .table(Payments::Table)
                    .drop_column(Payments::ReceiptSentAt)
                    .to_owned(),
            )
            .await?;
        manager
            .drop_table(Table::drop().table(LeadNotifications::Table).to_owned())
            .await
    }
}
