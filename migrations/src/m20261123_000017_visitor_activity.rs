//! What each of an owner's visitors did before (and after) leaving their
//! email: page views and engaged time, so a new customer starts with the
//! visits that led to the lead.

use sea_orm_migration::prelude::*;

use crate::m20261122_000001_users::Users;

#[derive(DeriveMigrationName)]
pub struct Migration;

#[derive(DeriveIden)]
enum VisitorActivity {
    Table,
    OwnerId,
    VisitorId,
    PageViews,
    Sessions,
    SessionSeconds,
    UpdatedAt,
}

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .create_table(
                Table::create()
                    .table(VisitorActivity::Table)
                    .col(
                        ColumnDef::new(VisitorActivity::OwnerId)
                            .string_len(36)
                            .not_null(),
                    )
                    .col(
                        ColumnDef::new(VisitorActivity::VisitorId)
                            .string_len(64)
                            .not_null(),
                    )
                    .col(
                        ColumnDef::new(VisitorActivity::PageViews)
                            .big_integer()
                            .not_null()
                            .default(0),
                    )
                    .col(
                        ColumnDef::new(VisitorActivity::Sessions)
                            .big_integer()
                            .not_null()
                            .default(0),
                    )
                    .col(
                        ColumnDef::new(VisitorActivity::SessionSeconds)
                            .big_integer()
                            .not_null()
                            .default(0),
                    )
                    .col(
                        ColumnDef::new(VisitorActivity::UpdatedAt)
                            .timestamp_with_time_zone()
                            .not_null(),
                    )
                    .primary_key(
                        Index::create()
                            .col(VisitorActivity::OwnerId)
                            .col(VisitorActivity::VisitorId),
                    )
                    .foreign_key(
                        ForeignKey::create()
                            .name("fk_visitor_activity_owner")
                            .from(VisitorActivity::Table, VisitorActivity::OwnerId)
                            .to(Users::Table, Users::Id)
                            .on_delete(ForeignKeyAction::Cascade),
                    )
                    .to_owned(),
            )
            .await
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .drop_table(Table::drop().table(VisitorActivity::Table).to_owned())
            .await
    }
}
