//! Keeps every Customers list call fast with a million customers.
//!
//! - One index per sort of the list, with and without the status filter,
//!   ending with the id that breaks ties, exactly the list's order: a page is
//!   read off the index (deep pages skip index entries, not rows) and no
//!   match is ever sorted. They replace the indexes without the id.
//! - SQLite: the search keys carry the customer's owner, so counting an
//!   owner's matches reads no customer row.
//! - Conversations: the list's order (newest first, ties by id) with and
//!   without the status or outcome filter, so their counts and pages read
//!   the index only.

use sea_orm_migration::prelude::*;
use sea_orm_migration::sea_orm::{ConnectionTrait, DbBackend};

#[derive(DeriveMigrationName)]
pub struct Migration;

#[derive(DeriveIden, Clone, Copy)]
enum Customers {
    Table,
    Id,
    OwnerId,
    ConversionStatus,
    LastConversationDate,
    LeadScore,
    TotalConversations,
    CreatedAt,
}

/// The list's sorts: (index name part, column).
const SORTS: [(&str, Customers); 4] = [
    ("last", Customers::LastConversationDate),
    ("score", Customers::LeadScore),
    ("conversations", Customers::TotalConversations),
    ("created", Customers::CreatedAt),
];

/// The indexes this migration replaces: (name, with status, column).
const REPLACED: [(&str, bool, Customers); 6] = [
    (
        "ix_customers_owner_last",
        false,
        Customers::LastConversationDate,
    ),
    ("ix_customers_owner_score", false, Customers::LeadScore),
    (
        "ix_customers_owner_conversations",
        false,
        Customers::TotalConversations,
    ),
    ("ix_customers_owner_created", false, Customers::CreatedAt),
    (
        "ix_customers_owner_status_created",
        true,
        Customers::CreatedAt,
    ),
    (
        "ix_customers_owner_status_last",
        true,
        Customers::LastConversationDate,
    ),
];

fn index(name: &str, status: bool, col: Customers, id: bool) -> IndexCreateStatement {
    let mut index = Index::create();
    index
        .name(name)
        .table(Customers::Table)
        .col(Customers::OwnerId);
    if status {
        index.col(Customers::ConversionStatus);
    }
    index.col(col);
    if id {
        index.col(Customers::Id);
    }
    index.to_owned()
}

fn new_indexes() -> Vec<(String, bool, Customers)> {
    let mut all = Vec::new();
    for (part, col) in SORTS {
        all.push((format!("ix_customers_owner_{part}_id"), false, col));
        all.push((format!("ix_customers_owner_status_{part}_id"), true, col));
    }
    all
}

/// The insert trigger of `m20261122_000009` with the owner added to the key.
const SQLITE_INSERT_TRIGGER: &str =
    "CREATE TRIGGER customers_after_insert AFTER INSERT ON customers BEGIN
    INSERT INTO customer_counts (owner_id, conversion_status, campaign_id, campaign_name, n)
    VALUES (NEW.owner_id, NEW.conversion_status, COALESCE(NEW.source_campaign_id, ''),
    COALESCE(NEW.source_campaign, ''), 1)
    ON CONFLICT (owner_id, conversion_status, campaign_id, campaign_name)
    DO UPDATE SET n = customer_counts.n + 1;
    INSERT INTO customer_search_keys (customer_id, owner_id) VALUES (NEW.id, NEW.owner_id);
    INSERT INTO customers_search (rowid, body) VALUES (
        (SELECT rid FROM customer_search_keys WHERE customer_id = NEW.id),
        lower(COALESCE(NEW.name, '') || char(10) || NEW.email || char(10) ||
        COALESCE(NEW.phone, '') || char(10) || COALESCE(NEW.company, '')));
END";

const SQLITE_OLD_INSERT_TRIGGER: &str =
    "CREATE TRIGGER customers_after_insert AFTER INSERT ON customers BEGIN
    INSERT INTO customer_counts (owner_id, conversion_status, campaign_id, campaign_name, n)
    VALUES (NEW.owner_id, NEW.conversion_status, COALESCE(NEW.source_campaign_id, ''),
    COALESCE(NEW.source_campaign, ''), 1)
    ON CONFLICT (owner_id, conversion_status, campaign_id, campaign_name)
    DO UPDATE SET n = customer_counts.n + 1;
    INSERT INTO customer_search_keys (customer_id) VALUES (NEW.id);
    INSERT INTO customers_search (rowid, body) VALUES (
        (SELECT rid FROM customer_search_keys WHERE customer_id = NEW.id),
        lower(COALESCE(NEW.name, '') || char(10) || NEW.email || char(10) ||
        COALESCE(NEW.phone, '') || char(10) || COALESCE(NEW.company, '')));
END";

#[derive(DeriveIden, Clone, Copy)]
enum Conversations {
    Table,
    Id,
    OwnerId,
    Status,
    Outcome,
    CreatedAt,
}

/// (name, filter column) of the conversation list's indexes.
const CONVERSATION_INDEXES: [(&str, Option<Conversations>); 3] = [
    ("ix_conversations_owner_created_id", None),
    (
        "ix_conversations_owner_status_created_id",
        Some(Conversations::Status),
    ),
    (
        "ix_conversations_owner_outcome_created_id",
        Some(Conversations::Outcome),
    ),
];

fn conversation_index(name: &str, filter: Option<Conversations>, id: bool) -> IndexCreateStatement {
    let mut index = Index::create();
    index
        .name(name)
        .table(Conversations::Table)
        .col(Conversations::OwnerId);
    if let Some(col) = filter {
        index.col(col);
    }
    index.col(Conversations::CreatedAt);
    if id {
        index.col(Conversations::Id);
    }
    index.to_owned()
}

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        for (name, filter) in CONVERSATION_INDEXES {
            manager
                .create_index(conversation_index(name, filter, true))
                .await?;
        }
        manager
            .drop_index(
                Index::drop()
                    .name("ix_conversations_owner_created")
                    .table(Conversations::Table)
                    .to_owned(),
            )
            .await?;
        for (name, status, col) in new_indexes() {
            manager
                .create_index(index(&name, status, col, true))
                .await?;
        }
        for (name, _, _) in REPLACED {
            manager
                .drop_index(Index::drop().name(name).table(Customers::Table).to_owned())
                .await?;
        }
        if manager.get_database_backend() == DbBackend::Sqlite {
            // One batch, so one connection: another one could still have the
            // old trigger in its copy of the schema.
            let sql = format!(
                "ALTER TABLE customer_search_keys ADD COLUMN owner_id VARCHAR(36) NOT NULL DEFAULT '';
                UPDATE customer_search_keys SET owner_id = \
                 (SELECT c.owner_id FROM customers c WHERE c.id = customer_search_keys.customer_id);
                DROP TRIGGER customers_after_insert;
                {SQLITE_INSERT_TRIGGER};"
            );
            manager.get_connection().execute_unprepared(&sql).await?;
        }
        Ok(())
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        if manager.get_database_backend() == DbBackend::Sqlite {
            let sql = format!(
                "DROP TRIGGER customers_after_insert;
                {SQLITE_OLD_INSERT_TRIGGER};
                ALTER TABLE customer_search_keys DROP COLUMN owner_id;"
            );
            manager.get_connection().execute_unprepared(&sql).await?;
        }
        for (name, status, col) in REPLACED {
            manager
                .create_index(index(name, status, col, false))
                .await?;
        }
        for (name, _, _) in new_indexes() {
            manager
                .drop_index(
                    Index::drop()
                        .name(name.as_str())
                        .table(Customers::Table)
                        .to_owned(),
                )
                .await?;
        }
        manager
            .create_index(conversation_index(
                "ix_conversations_owner_created",
                None,
                false,
            ))
            .await?;
        for (name, _) in CONVERSATION_INDEXES {
            manager
                .drop_index(
                    Index::drop()
                        .name(name)
                        .table(Conversations::Table)
                        .to_owned(),
                )
                .await?;
        }
        Ok(())
    }
}
