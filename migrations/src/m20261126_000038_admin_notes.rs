//! Staff-only notes on an account, and the audit log's indexes for its
//! page (newest first, filtered by actor, target or action).

use sea_orm_migration::prelude::*;

#[derive(DeriveMigrationName)]
pub struct Migration;

#[derive(DeriveIden)]
enum AdminNotes {
    Table,
    Id,
    UserId,
    AuthorId,
    AuthorName,
    AuthorEmail,
    Body,
    CreatedAt,
}

#[derive(DeriveIden)]
enum AuditLog {
    Table,
    CreatedAt,
    ActorId,
    Action,
}

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .create_table(
                Table::create()
                    .table(AdminNotes::Table)
                    .col(
                        ColumnDef::new(AdminNotes::Id)
                            .string_len(36)
                            .not_null()
                            .primary_key(),
                    )
                    .col(ColumnDef::new(AdminNotes::UserId).string_len(36).not_null())
                    .col(
                        ColumnDef::new(AdminNotes::AuthorId)
                            .string_len(36)
                            .not_null(),
                    )
                    .col(
                        ColumnDef::new(AdminNotes::AuthorName)
                            .string_len(120)
                            .not_null(),
                    )
                    .col(
                        ColumnDef::new(AdminNotes::AuthorEmail)
                            .string_len(254)
                            .not_null(),
                    )
                    .col(ColumnDef::new(AdminNotes::Body).text().not_null())
                    .col(
                        ColumnDef::new(AdminNotes::CreatedAt)
                            .timestamp_with_time_zone()
                            .not_null(),
                    )
                    .to_owned(),
            )
            .await?;
        manager
            .create_index(
                Index::create()
                    .name("ix_admin_notes_user")
                    .table(AdminNotes::Table)
                    .col(AdminNotes::UserId)
                    .col(AdminNotes::CreatedAt)
                    .to_owned(),
            )
            .await?;
        for (name, col) in [
            ("ix_audit_log_created", AuditLog::CreatedAt),
            ("ix_audit_log_actor", AuditLog::ActorId),
            ("ix_audit_log_action", AuditLog::Action),
        ] {
            manager
                .create_index(
                    Index::create()
                        .if_not_exists()
                        .name(name)
                        .table(AuditLog::Table)
                        .col(col)
                        .to_owned(),
                )
                .await?;
        }
        Ok(())
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        for name in [
            "ix_audit_log_created",
            "ix_audit_log_actor",
            "ix_audit_log_action",
        ] {
            manager
                .drop_index(Index::drop().name(name).table(AuditLog::Table).to_owned())
                .await?;
        }
        manager
            .drop_table(Table::drop().table(AdminNotes::Table).to_owned())
            .await
    }
}
