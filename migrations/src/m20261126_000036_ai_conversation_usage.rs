//! Each owner's AI conversations per calendar month (UTC), counted as they
//! start, so a chat start checks the plan's monthly allowance by reading one
//! row instead of counting the month's conversations. Filled from the
//! current month's conversations.

use sea_orm_migration::prelude::*;
use sea_orm_migration::sea_orm::{ConnectionTrait, Statement};

#[derive(DeriveMigrationName)]
pub struct Migration;

#[derive(DeriveIden)]
enum AiConversationUsage {
    Table,
    OwnerId,
    Period,
    Used,
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
                    .table(AiConversationUsage::Table)
                    .col(
                        ColumnDef::new(AiConversationUsage::OwnerId)
                            .string_len(36)
                            .not_null(),
                    )
                    .col(
                        ColumnDef::new(AiConversationUsage::Period)
                            .string_len(7)
                            .not_null(),
                    )
                    .col(
                        ColumnDef::new(AiConversationUsage::Used)
                            .big_integer()
                            .not_null()
                            .default(0),
                    )
                    .primary_key(
                        Index::create()
                            .col(AiConversationUsage::OwnerId)
                            .col(AiConversationUsage::Period),
                    )
                    .foreign_key(
                        ForeignKey::create()
                            .name("fk_ai_conversation_usage_owner")
                            .from(AiConversationUsage::Table, AiConversationUsage::OwnerId)
                            .to(Users::Table, Users::Id)
                            .on_delete(ForeignKeyAction::Cascade),
                    )
                    .to_owned(),
            )
            .await?;
        let now = chrono::Utc::now();
        let period = now.format("%Y-%m").to_string();
        let start = format!("{period}-01");
        let db = manager.get_connection();
        let backend = manager.get_database_backend();
        let sql = match backend {
            sea_orm_migration::sea_orm::DatabaseBackend::Postgres => {
                "INSERT INTO ai_conversation_usage (owner_id, period, used) \
                 SELECT owner_id, $1, COUNT(*) FROM conversations \
                 WHERE ai_enabled AND created_at >= CAST($2 AS date) GROUP BY owner_id"
            }
            _ => {
                "INSERT INTO ai_conversation_usage (owner_id, period, used) \
                 SELECT owner_id, ?, COUNT(*) FROM conversations \
                 WHERE ai_enabled AND created_at >= ? GROUP BY owner_id"
            }
        };
        db.execute_raw(Statement::from_sql_and_values(
            backend,
            sql,
            [period.into(), start.into()],
        ))
        .await?;
        Ok(())
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .drop_table(Table::drop().table(AiConversationUsage::Table).to_owned())
            .await
    }
}
