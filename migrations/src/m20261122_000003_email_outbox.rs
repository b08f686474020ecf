use sea_orm_migration::prelude::*;

#[derive(DeriveMigrationName)]
pub struct Migration;

#[derive(DeriveIden)]
enum EmailOutbox {
    Table,
    Id,
    ToAddress,
    Subject,
    Body,
    CreatedAt,
}

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .create_table(
                Table::create()
                    .table(EmailOutbox::Table)
                    .col(
                        ColumnDef::new(EmailOutbox::Id)
                            .string_len(36)
                            .not_null()
                            .primary_key(),
                    )
                    .col(
                        ColumnDef::new(EmailOutbox::ToAddress)
                            .string_len(254)
                            .not_null(),
                    )
                    .col(
                        ColumnDef::new(EmailOutbox::Subject)
                            .string_len(255)
                            .not_null(),
                    )
                    .col(ColumnDef::new(EmailOutbox::Body).text().not_null())
                    .col(
                        ColumnDef::new(EmailOutbox::CreatedAt)
                            .timestamp_with_time_zone()
                            .not_null(),
                    )
                    .to_owned(),
            )
            .await?;
        manager
            .create_index(
                Index::create()
                    .name("ix_email_outbox_to_created")
                    .table(EmailOutbox::Table)
                    .col(EmailOutbox::ToAddress)
                    .col(EmailOutbox::CreatedAt)
                    .to_owned(),
            )
            .await
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .drop_table(Table::drop().table(EmailOutbox::Table).to_owned())
            .await
    }
}
