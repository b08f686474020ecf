//! On SQLite, a conversation's search text goes into the FTS5 index a moment
//! after it is written instead of in the same transaction: a chat start then
//! writes two rows and no index segment, and the index takes the new and
//! changed conversations in batches of hundreds (the start writer does this
//! between its batches). Until then the conversation is marked `pending` and
//! the search tests its columns directly, so it is found all the same.
//! PostgreSQL is unchanged: its trigram index already gathers new entries in
//! a pending list, which the server cleans in the background.

use sea_orm_migration::prelude::*;
use sea_orm_migration::sea_orm::{ConnectionTrait, DbBackend};

#[derive(DeriveMigrationName)]
pub struct Migration;

fn body(r: &str) -> String {
    format!("{r}.last_message || char(10) || {r}.collected_text")
}

fn rid(r: &str) -> String {
    format!("(SELECT rid FROM conversation_search_keys WHERE conversation_id = {r}.id)")
}

fn up_sqlite() -> Vec<String> {
    vec![
        "ALTER TABLE conversation_search_keys ADD COLUMN pending INTEGER NOT NULL DEFAULT 0".into(),
        "CREATE INDEX ix_conversation_search_keys_pending ON conversation_search_keys (owner_id, rid) \
         WHERE pending = 1"
            .into(),
        "DROP TRIGGER conversations_search_insert".into(),
        "CREATE TRIGGER conversations_search_insert AFTER INSERT ON conversations BEGIN
            INSERT INTO conversation_search_keys (conversation_id, owner_id, pending) VALUES (NEW.id, NEW.owner_id, 1);
        END"
        .into(),
        // An indexed conversation whose text changes leaves the index and
        // waits for the indexer like a new one.
        "DROP TRIGGER conversations_search_update".into(),
        "CREATE TRIGGER conversations_search_update
         AFTER UPDATE OF last_message, collected_text ON conversations
         WHEN OLD.last_message IS NOT NEW.last_message OR OLD.collected_text IS NOT NEW.collected_text
         BEGIN
            DELETE FROM conversations_search WHERE rowid =
                (SELECT rid FROM conversation_search_keys WHERE conversation_id = NEW.id AND pending = 0);
            UPDATE conversation_search_keys SET pending = 1 WHERE conversation_id = NEW.id AND pending = 0;
         END"
        .into(),
        "DROP TRIGGER conversations_search_delete".into(),
        "CREATE TRIGGER conversations_search_delete AFTER DELETE ON conversations BEGIN
            DELETE FROM conversations_search WHERE rowid =
                (SELECT rid FROM conversation_search_keys WHERE conversation_id = OLD.id AND pending = 0);
            DELETE FROM conversation_search_keys WHERE conversation_id = OLD.id;
        END"
        .into(),
    ]
}

/// Back to indexing in the writing transaction: the waiting conversations
/// are indexed first.
fn down_sqlite() -> Vec<String> {
    vec![
        format!(
            "INSERT INTO conversations_search (rowid, body) SELECT k.rid, {} FROM conversation_search_keys k \
             JOIN conversations c ON c.id = k.conversation_id WHERE k.pending = 1",
            body("c")
        ),
        "DROP TRIGGER conversations_search_insert".into(),
        "DROP TRIGGER conversations_search_update".into(),
        "DROP TRIGGER conversations_search_delete".into(),
        "DROP INDEX ix_conversation_search_keys_pending".into(),
        "ALTER TABLE conversation_search_keys DROP COLUMN pending".into(),
        format!(
            "CREATE TRIGGER conversations_search_insert AFTER INSERT ON conversations BEGIN
                INSERT INTO conversation_search_keys (conversation_id, owner_id) VALUES (NEW.id, NEW.owner_id);
                INSERT INTO conversations_search (rowid, body) VALUES ({rid}, {body});
            END",
            rid = rid("NEW"),
            body = body("NEW")
        ),
        format!(
            "CREATE TRIGGER conversations_search_delete AFTER DELETE ON conversations BEGIN
                DELETE FROM conversations_search WHERE rowid = {rid};
                DELETE FROM conversation_search_keys WHERE conversation_id = OLD.id;
            END",
            rid = rid("OLD")
        ),
        format!(
            "CREATE TRIGGER conversations_search_update
             AFTER UPDATE OF last_message, collected_text ON conversations
             WHEN OLD.last_message IS NOT NEW.last_message OR OLD.collected_text IS NOT NEW.collected_text
             BEGIN
                DELETE FROM conversations_search WHERE rowid = {rid};
                INSERT INTO conversations_search (rowid, body) VALUES ({rid}, {body});
            END",
            rid = rid("NEW"),
            body = body("NEW")
        ),
    ]
}

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    /// One transaction on SQLite too: the triggers are replaced all at once,
    /// on one connection, or not at all.
    fn use_transaction(&self) -> Option<bool> {
        Some(true)
    }

    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        if manager.get_database_backend() != DbBackend::Sqlite {
            return Ok(());
        }
        let db = manager.get_connection();
        for sql in up_sqlite() {
            db.execute_unprepared(&sql).await?;
        }
        Ok(())
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        if manager.get_database_backend() != DbBackend::Sqlite {
            return Ok(());
        }
        let db = manager.get_connection();
        for sql in down_sqlite() {
            db.execute_unprepared(&sql).await?;
        }
        Ok(())
    }
}
