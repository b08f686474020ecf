//! The index of unanswered questions holds only the messages that are one.
//! Every message used to get an entry, nearly all of them empty (greetings,
//! answers, the visitor's other messages), so each chat start and message
//! wrote to it for nothing; the owner's list of unanswered questions only
//! ever reads the marked messages, which the smaller index still covers.

use sea_orm_migration::prelude::*;
use sea_orm_migration::sea_orm::ConnectionTrait;

#[derive(DeriveMigrationName)]
pub struct Migration;

const NAME: &str = "ix_conversation_messages_unanswered";

async fn replace(manager: &SchemaManager<'_>, condition: &str) -> Result<(), DbErr> {
    let db = manager.get_connection();
    db.execute_unprepared(&format!("DROP INDEX {NAME}")).await?;
    db.execute_unprepared(&format!(
        "CREATE INDEX {NAME} ON conversation_messages (unanswered_key, conversation_id){condition}"
    ))
    .await?;
    Ok(())
}

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    /// The index is dropped and made again in one transaction, so a failure
    /// leaves the old one in place.
    fn use_transaction(&self) -> Option<bool> {
        Some(true)
    }

    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        replace(manager, " WHERE unanswered_key IS NOT NULL").await
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        replace(manager, "").await
    }
}
