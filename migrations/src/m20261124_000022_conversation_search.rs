//! Keeps the owner's conversation search fast with a hundred thousand
//! conversations: the text it looks in (the last message and the values the
//! conversation collected, one per line) gets a trigram index, `pg_trgm`
//! (GIN, on the same expression the query uses) on PostgreSQL, an FTS5
//! `trigram` table kept by triggers on SQLite.

use sea_orm_migration::prelude::*;
use sea_orm_migration::sea_orm::{ConnectionTrait, DbBackend};

#[derive(DeriveMigrationName)]
pub struct Migration;

/// The text the search looks in for the row `r` (`""` or `"NEW."`),
/// lower-cased. The PostgreSQL index is on this very expression, which
/// `ca_conversations::dashboard` repeats in its queries.
fn search_text(r: &str, line_break: &str) -> String {
    format!("lower({r}last_message || {line_break} || {r}collected_text)")
}

fn postgres() -> Vec<String> {
    vec![
        "CREATE EXTENSION IF NOT EXISTS pg_trgm".into(),
        format!(
            "CREATE INDEX ix_conversations_search ON conversations USING gin (({}) gin_trgm_ops)",
            search_text("", "E'\\n'")
        ),
    ]
}

/// SQLite: the FTS5 rows are keyed by `conversation_search_keys.rid` (the
/// rowid of `conversations` is not stable across VACUUM, since its key is
/// text), which also carries the owner so a count reads no conversation.
/// The trigram tokenizer folds case itself (Unicode, not only ASCII).
fn sqlite() -> Vec<String> {
    let body = |r: &str| format!("{r}.last_message || char(10) || {r}.collected_text");
    let rid = |r: &str| {
        format!("(SELECT rid FROM conversation_search_keys WHERE conversation_id = {r}.id)")
    };
    vec![
        "CREATE TABLE conversation_search_keys (rid INTEGER PRIMARY KEY, \
         conversation_id VARCHAR(36) NOT NULL UNIQUE, owner_id VARCHAR(36) NOT NULL)"
            .into(),
        "CREATE INDEX ix_conversation_search_keys_owner ON conversation_search_keys (owner_id, rid)"
            .into(),
        "CREATE VIRTUAL TABLE conversations_search USING fts5(body, tokenize = 'trigram', content = '', contentless_delete = 1)".into(),
        "INSERT INTO conversation_search_keys (conversation_id, owner_id) SELECT id, owner_id FROM conversations".into(),
        format!(
            "INSERT INTO conversations_search (rowid, body) SELECT k.rid, {} FROM conversations c \
             JOIN conversation_search_keys k ON k.conversation_id = c.id",
            body("c")
        ),
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
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        let db = manager.get_connection();
        let statements = match manager.get_database_backend() {
            DbBackend::Postgres => postgres(),
            DbBackend::Sqlite => sqlite(),
            other => return Err(DbErr::Migration(format!("{other:?} is not supported"))),
        };
        for sql in statements {
            db.execute_unprepared(&sql).await?;
        }
        Ok(())
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        let db = manager.get_connection();
        let statements: &[&str] = match manager.get_database_backend() {
            DbBackend::Postgres => &["DROP INDEX ix_conversations_search"],
            _ => &[
                "DROP TRIGGER conversations_search_update",
                "DROP TRIGGER conversations_search_delete",
                "DROP TRIGGER conversations_search_insert",
                "DROP TABLE conversations_search",
                "DROP TABLE conversation_search_keys",
            ],
        };
        for sql in statements {
            db.execute_unprepared(sql).await?;
        }
        Ok(())
    }
}
