//! One row per "login as user" session, so staff can end one such session
//! (Return to admin) without touching the owner's own sessions: a login-as
//! token names its row, and works only while the row is not ended.

use sea_orm_migration::prelude::*;

#[derive(DeriveMigrationName)]
pub struct Migration;

#[derive(DeriveIden)]
enum LoginAsSessions {
    Table,
    Id,
    ActorId,
    UserId,
    CreatedAt,
    ExpiresAt,
    EndedAt,
}

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .create_table(
                Table::create()
                    .table(LoginAsSessions::Table)
                    .col(
                        ColumnDef::new(LoginAsSessions::Id)
                            .string_len(36)
                            .not_null()
                            .primary_key(),
                    )
                    .col(
                        ColumnDef::new(LoginAsSessions::ActorId)
                            .string_len(36)
                            .not_null(),
                    )
                    .col(
                        ColumnDef::new(LoginAsSessions::UserId)
                            .string_len(36)
                            .not_null(),
                    )
                    .col(
                        ColumnDef::new(LoginAsSessions::CreatedAt)
                            .timestamp_with_time_zone()
                            .not_null(),
                    )
                    .col(
                        ColumnDef::new(LoginAsSessions::ExpiresAt)
                            .timestamp_with_time_zone()
                            .not_null(),
                    )
                    .col(
                        ColumnDef::new(LoginAsSessions::EndedAt)
                            .timestamp_with_time_zone()
                            .null(),
                    )
                    .to_owned(),
            )
            .await?;
        manager
            .create_index(
                Index::create()
                    .name("ix_login_as_sessions_actor")
                    .table(LoginAsSessions::Table)
                    .col(LoginAsSessions::ActorId)
                    .to_owned(),
            )
            .await
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .drop_table(Table::drop().table(LoginAsSessions::Table).to_owned())
            .await
    }
}
