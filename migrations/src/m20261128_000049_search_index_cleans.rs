//! When PostgreSQL's conversation search index was last cleaned, by any
//! server. Each server cleaned the index's pending list on its own pace, so
//! n servers on one database cleaned it n times as often, each clean
//! rewriting the same long entries; with one row per index the servers
//! share one pace, and a server whose turn another has just taken skips it.
//! SQLite keeps its search index differently and has no such table.

use sea_orm_migration::prelude::*;
use sea_orm_migration::sea_orm::{ConnectionTrait, DbBackend};

#[derive(DeriveMigrationName)]
pub struct Migration;

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        if manager.get_database_backend() != DbBackend::Postgres {
            return Ok(());
        }
        let db = manager.get_connection();
        db.execute_unprepared(
            "CREATE TABLE search_index_cleans (\
                 index_name TEXT PRIMARY KEY, \
                 cleaned_at TIMESTAMPTZ NOT NULL)",
        )
        .await?;
        db.execute_unprepared(
            "INSERT INTO search_index_cleans (index_name, cleaned_at) \
             VALUES ('ix_conversations_search', 'epoch')",
        )
        .await?;
        Ok(())
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        if manager.get_database_backend() != DbBackend::Postgres {
            return Ok(());
        }
        manager
            .get_connection()
            .execute_unprepared("DROP TABLE search_index_cleans")
            .await?;
        Ok(())
    }
}
