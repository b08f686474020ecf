//! Two-factor secrets are stored sealed with the server's data key (about
//! 93 characters where the plain base32 secret took 32), so the column is
//! widened to 200 characters on PostgreSQL (SQLite does not enforce text
//! lengths). The sealing itself happens when the server starts, as it needs
//! the key, which never reaches the database. Owned by `ca-auth`.

use sea_orm_migration::prelude::*;
use sea_orm_migration::sea_orm::DatabaseBackend;

#[derive(DeriveMigrationName)]
pub struct Migration;

#[derive(DeriveIden)]
enum TwoFactorSecrets {
    Table,
    Secret,
}

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        if manager.get_database_backend() != DatabaseBackend::Postgres {
            return Ok(());
        }
        manager
            .alter_table(
                Table::alter()
                    .table(TwoFactorSecrets::Table)
                    .modify_column(
                        ColumnDef::new(TwoFactorSecrets::Secret)
                            .string_len(200)
                            .not_null(),
                    )
                    .to_owned(),
            )
            .await
    }

    /// Kept wide: the sealed secrets stored since would not fit the old
    /// width, and the wider column holds everything older versions write.
    async fn down(&self, _manager: &SchemaManager) -> Result<(), DbErr> {
        Ok(())
    }
}
