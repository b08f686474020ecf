//! Platform settings (the trial new owners get, owned by accounts), the audit
//! log of staff actions, and the admin area's own settings (ad spend).

use sea_orm_migration::prelude::*;

#[derive(DeriveMigrationName)]
pub struct Migration;

#[derive(DeriveIden)]
enum PlatformSettings {
    Table,
    Key,
    Value,
    UpdatedAt,
}

#[derive(DeriveIden)]
enum AuditLog {
    Table,
    Id,
    ActorId,
    ActorName,
    ActingAsId,
    Action,
    TargetType,
    TargetId,
    Before,
    After,
    CreatedAt,
}

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
        manager
            .create_table(
                Table::create()
                    .table(PlatformSettings::Table)
                    .col(
                        ColumnDef::new(PlatformSettings::Key)
                            .string_len(64)
                            .not_null()
                            .primary_key(),
                    )
                    .col(ColumnDef::new(PlatformSettings::Value).text().not_null())
                    .col(
                        ColumnDef::new(PlatformSettings::UpdatedAt)
                            .timestamp_with_time_zone()
                            .not_null(),
                    )
                    .to_owned(),
            )
            .await?;
        manager
            .create_table(
                Table::create()
                    .table(AuditLog::Table)
                    .col(
                        ColumnDef::new(AuditLog::Id)
                            .string_len(36)
                            .not_null()
                            .primary_key(),
                    )
                    .col(ColumnDef::new(AuditLog::ActorId).string_len(36).not_null())
                    .col(
                        ColumnDef::new(AuditLog::ActorName)
                            .string_len(120)
                            .not_null(),
                    )
                    .col(ColumnDef::new(AuditLog::ActingAsId).string_len(36).null())
                    .col(ColumnDef::new(AuditLog::Action).string_len(64).not_null())
                    .col(
                        ColumnDef::new(AuditLog::TargetType)
                            .string_len(32)
                            .not_null(),
                    )
                    .col(ColumnDef::new(AuditLog::TargetId).string_len(64).not_null())
                    .col(ColumnDef::new(AuditLog::Before).text().null())
                    .col(ColumnDef::new(AuditLog::After).text().null())
                    .col(
                        ColumnDef::new(AuditLog::CreatedAt)
                            .timestamp_with_time_zone()
                            .not_null(),
                    )
                    .to_owned(),
            )
            .await?;
        manager
            .create_index(
                Index::create()
                    .name("ix_audit_log_target")
                    .table(AuditLog::Table)
                    .col(AuditLog::TargetId)
                    .col(AuditLog::CreatedAt)
                    .to_owned(),
            )
            .await?;
        manager
            .create_index(
                Index::create()
                    .name("ix_audit_log_acting_as")
                    .table(AuditLog::Table)
                    .col(AuditLog::ActingAsId)
                    .col(AuditLog::CreatedAt)
                    .to_owned(),
            )
            .await?;
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
            .await
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        for t in [
            AdminSettings::Table.into_iden(),
            AuditLog::Table.into_iden(),
            PlatformSettings::Table.into_iden(),
        ] {
            manager
                .drop_table(Table::drop().table(t).to_owned())
                .await?;
        }
        Ok(())
    }
}
