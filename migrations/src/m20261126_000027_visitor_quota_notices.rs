//! The monthly-visitor warnings sent to owners (at 80 % and 100 % of their
//! plan's visitors), so each goes out once a month.

use sea_orm_migration::prelude::*;

#[derive(DeriveMigrationName)]
pub struct Migration;

#[derive(DeriveIden)]
enum VisitorQuotaNotices {
    Table,
    OwnerId,
    Period,
    Level,
    Visitors,
    VisitorLimit,
    SentAt,
}

#[derive(DeriveIden)]
enum Users {
    Table,
    Id,
}

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .create_table(
                Table::create()
                    .table(VisitorQuotaNotices::Table)
                    .col(
                        ColumnDef::new(VisitorQuotaNotices::OwnerId)
                            .string_len(36)
                            .not_null(),
                    )
                    .col(
                        ColumnDef::new(VisitorQuotaNotices::Period)
                            .string_len(7)
                            .not_null(),
                    )
                    .col(
                        ColumnDef::new(VisitorQuotaNotices::Level)
                            .integer()
                            .not_null(),
                    )
                    .col(
                        ColumnDef::new(VisitorQuotaNotices::Visitors)
                            .big_integer()
                            .not_null(),
                    )
                    .col(
                        ColumnDef::new(VisitorQuotaNotices::VisitorLimit)
                            .big_integer()
                            .not_null(),
                    )
                    .col(
                        ColumnDef::new(VisitorQuotaNotices::SentAt)
                            .timestamp_with_time_zone()
                            .not_null(),
                    )
                    .primary_key(
                        Index::create()
                            .col(VisitorQuotaNotices::OwnerId)
                            .col(VisitorQuotaNotices::Period)
                            .col(VisitorQuotaNotices::Level),
                    )
                    .foreign_key(
                        ForeignKey::create()
                            .name("fk_visitor_quota_notices_owner")
                            .from(VisitorQuotaNotices::Table, VisitorQuotaNotices::OwnerId)
                            .to(Users::Table, Users::Id)
                            .on_delete(ForeignKeyAction::Cascade),
                    )
                    .to_owned(),
            )
            .await
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .drop_table(Table::drop().table(VisitorQuotaNotices::Table).to_owned())
            .await
    }
}
