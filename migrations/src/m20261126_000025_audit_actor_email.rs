//! Audit entries keep the actor's email, so an entry still says who acted
//! after that person's account is deleted. Existing entries get the email
//! of accounts that still exist.

use sea_orm_migration::prelude::*;

#[derive(DeriveMigrationName)]
pub struct Migration;

#[derive(DeriveIden)]
enum AuditLog {
    Table,
    ActorEmail,
}

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .alter_table(
                Table::alter()
                    .table(AuditLog::Table)
                    .add_column(
                        ColumnDef::new(AuditLog::ActorEmail)
                            .string_len(254)
                            .not_null()
                            .default(""),
                    )
                    .to_owned(),
            )
            .await?;
        manager
            .get_connection()
            .execute_unprepared(
                "UPDATE audit_log SET actor_email = \
                 COALESCE((SELECT email FROM users WHERE users.id = audit_log.actor_id), '')",
            )
            .await?;
        Ok(())
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .alter_table(
                Table::alter()
                    .table(AuditLog::Table)
                    .drop_column(AuditLog::ActorEmail)
                    .to_owned(),
            )
            .await
    }
}
