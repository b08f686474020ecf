//! Keeps the owner's customer list and overview fast with a million customers.
//!
//! - `customer_counts`: how many customers an owner has per status and source
//!   campaign, kept by triggers on `customers` (inserts, deletes, status
//!   changes, and the campaign being deleted, whose foreign key sets the id to
//!   NULL). The list's total and the overview read it instead of counting rows.
//! - Search by substring of name, email, phone and company through a trigram
//!   index: `pg_trgm` (GIN, on the same expression the query uses) on
//!   PostgreSQL, an FTS5 `trigram` table kept by triggers on SQLite.
//! - Indexes for the overview's ranges by status.

use sea_orm_migration::prelude::*;
use sea_orm_migration::sea_orm::{ConnectionTrait, DbBackend};

#[derive(DeriveMigrationName)]
pub struct Migration;

#[derive(DeriveIden)]
enum Customers {
    Table,
    OwnerId,
    ConversionStatus,
    CreatedAt,
    LastConversationDate,
}

/// The text the search looks in, lower-cased, one field a line (a search term
/// never holds a line break, so it cannot match across two fields), for the
/// row `r` (`""`, `"NEW."`, `"c."`). The PostgreSQL index is on this very
/// expression, which `ca_customers::service` repeats in its queries.
fn search_text(r: &str, line_break: &str) -> String {
    format!(
        "lower(COALESCE({r}name, '') || {line_break} || {r}email || {line_break} || \
         COALESCE({r}phone, '') || {line_break} || COALESCE({r}company, ''))"
    )
}

const COUNTS_TABLE: &str = "CREATE TABLE customer_counts (
    owner_id VARCHAR(36) NOT NULL,
    conversion_status VARCHAR(20) NOT NULL,
    campaign_id VARCHAR(36) NOT NULL,
    campaign_name VARCHAR(120) NOT NULL,
    n BIGINT NOT NULL,
    PRIMARY KEY (owner_id, conversion_status, campaign_id, campaign_name)
)";

const BACKFILL: &str = "INSERT INTO customer_counts (owner_id, conversion_status, campaign_id, campaign_name, n)
    SELECT owner_id, conversion_status, COALESCE(source_campaign_id, ''), COALESCE(source_campaign, ''), COUNT(*)
    FROM customers
    GROUP BY owner_id, conversion_status, COALESCE(source_campaign_id, ''), COALESCE(source_campaign, '')";

/// `{r}` is `OLD` or `NEW`.
fn key(r: &str) -> String {
    format!(
        "owner_id = {r}.owner_id AND conversion_status = {r}.conversion_status \
         AND campaign_id = COALESCE({r}.source_campaign_id, '') \
         AND campaign_name = COALESCE({r}.source_campaign, '')"
    )
}

fn count_in() -> String {
    "INSERT INTO customer_counts (owner_id, conversion_status, campaign_id, campaign_name, n) \
     VALUES (NEW.owner_id, NEW.conversion_status, COALESCE(NEW.source_campaign_id, ''), \
     COALESCE(NEW.source_campaign, ''), 1) \
     ON CONFLICT (owner_id, conversion_status, campaign_id, campaign_name) \
     DO UPDATE SET n = customer_counts.n + 1;"
        .into()
}

fn count_out() -> String {
    let k = key("OLD");
    format!(
        "UPDATE customer_counts SET n = n - 1 WHERE {k};
         DELETE FROM customer_counts WHERE {k} AND n <= 0;"
    )
}

const MOVED: &str = "OLD.conversion_status IS DISTINCT FROM NEW.conversion_status \
    OR OLD.source_campaign_id IS DISTINCT FROM NEW.source_campaign_id \
    OR OLD.source_campaign IS DISTINCT FROM NEW.source_campaign";

const RESEARCHED: &str = "OLD.name IS DISTINCT FROM NEW.name OR OLD.email IS DISTINCT FROM NEW.email \
    OR OLD.phone IS DISTINCT FROM NEW.phone OR OLD.company IS DISTINCT FROM NEW.company";

fn postgres() -> Vec<String> {
    vec![
        "CREATE EXTENSION IF NOT EXISTS pg_trgm".into(),
        format!(
            "CREATE INDEX ix_customers_search ON customers USING gin (({}) gin_trgm_ops)",
            search_text("", "E'\\n'")
        ),
        format!(
            "CREATE FUNCTION customer_counts_apply() RETURNS trigger LANGUAGE plpgsql AS $fn$
            BEGIN
                IF TG_OP = 'UPDATE' OR TG_OP = 'DELETE' THEN
                    {out}
                END IF;
                IF TG_OP = 'UPDATE' OR TG_OP = 'INSERT' THEN
                    {inn}
                END IF;
                RETURN NULL;
            END
            $fn$",
            out = count_out(),
            inn = count_in()
        ),
        "CREATE TRIGGER customers_counts_insert AFTER INSERT ON customers \
         FOR EACH ROW EXECUTE FUNCTION customer_counts_apply()"
            .into(),
        "CREATE TRIGGER customers_counts_delete AFTER DELETE ON customers \
         FOR EACH ROW EXECUTE FUNCTION customer_counts_apply()"
            .into(),
        format!(
            "CREATE TRIGGER customers_counts_update \
             AFTER UPDATE OF conversion_status, source_campaign_id, source_campaign ON customers \
             FOR EACH ROW WHEN ({MOVED}) EXECUTE FUNCTION customer_counts_apply()"
        ),
    ]
}

/// SQLite: the FTS5 rows are keyed by `customer_search_keys.rid` (the rowid of
/// `customers` is not stable across VACUUM, since its key is text).
fn sqlite() -> Vec<String> {
    let body = |r: &str| search_text(&format!("{r}."), "char(10)");
    let rid =
        |r: &str| format!("(SELECT rid FROM customer_search_keys WHERE customer_id = {r}.id)");
    let moved = MOVED.replace("IS DISTINCT FROM", "IS NOT");
    let researched = RESEARCHED.replace("IS DISTINCT FROM", "IS NOT");
    vec![
        "CREATE TABLE customer_search_keys (rid INTEGER PRIMARY KEY, customer_id VARCHAR(36) NOT NULL UNIQUE)".into(),
        "CREATE VIRTUAL TABLE customers_search USING fts5(body, tokenize = 'trigram', content = '', contentless_delete = 1)".into(),
        "INSERT INTO customer_search_keys (customer_id) SELECT id FROM customers".into(),
        format!(
            "INSERT INTO customers_search (rowid, body) SELECT k.rid, {} FROM customers c JOIN customer_search_keys k ON k.customer_id = c.id",
            body("c")
        ),
        format!(
            "CREATE TRIGGER customers_after_insert AFTER INSERT ON customers BEGIN
                {inn}
                INSERT INTO customer_search_keys (customer_id) VALUES (NEW.id);
                INSERT INTO customers_search (rowid, body) VALUES ({rid}, {body});
            END",
            inn = count_in(),
            rid = rid("NEW"),
            body = body("NEW")
        ),
        format!(
            "CREATE TRIGGER customers_after_delete AFTER DELETE ON customers BEGIN
                {out}
                DELETE FROM customers_search WHERE rowid = {rid};
                DELETE FROM customer_search_keys WHERE customer_id = OLD.id;
            END",
            out = count_out(),
            rid = rid("OLD")
        ),
        format!(
            "CREATE TRIGGER customers_counts_update
             AFTER UPDATE OF conversion_status, source_campaign_id, source_campaign ON customers
             WHEN {moved} BEGIN
                {out}
                {inn}
            END",
            out = count_out(),
            inn = count_in()
        ),
        format!(
            "CREATE TRIGGER customers_search_update
             AFTER UPDATE OF name, email, phone, company ON customers
             WHEN {researched} BEGIN
                DELETE FROM customers_search WHERE rowid = {rid};
                INSERT INTO customers_search (rowid, body) VALUES ({rid}, {body});
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
        let backend = manager.get_database_backend();
        db.execute_unprepared(COUNTS_TABLE).await?;
        db.execute_unprepared(BACKFILL).await?;
        let statements = match backend {
            DbBackend::Postgres => postgres(),
            DbBackend::Sqlite => sqlite(),
            other => return Err(DbErr::Migration(format!("{other:?} is not supported"))),
        };
        for sql in statements {
            db.execute_unprepared(&sql).await?;
        }
        for (name, col) in [
            ("ix_customers_owner_status_created", Customers::CreatedAt),
            (
                "ix_customers_owner_status_last",
                Customers::LastConversationDate,
            ),
        ] {
            manager
                .create_index(
                    Index::create()
                        .name(name)
                        .table(Customers::Table)
                        .col(Customers::OwnerId)
                        .col(Customers::ConversionStatus)
                        .col(col)
                        .to_owned(),
                )
                .await?;
        }
        Ok(())
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        let db = manager.get_connection();
        for name in [
            "ix_customers_owner_status_created",
            "ix_customers_owner_status_last",
        ] {
            manager
                .drop_index(Index::drop().name(name).table(Customers::Table).to_owned())
                .await?;
        }
        let statements: &[&str] = match manager.get_database_backend() {
            DbBackend::Postgres => &[
                "DROP TRIGGER customers_counts_update ON customers",
                "DROP TRIGGER customers_counts_delete ON customers",
                "DROP TRIGGER customers_counts_insert ON customers",
                "DROP FUNCTION customer_counts_apply()",
                "DROP INDEX ix_customers_search",
            ],
            _ => &[
                "DROP TRIGGER customers_search_update",
                "DROP TRIGGER customers_counts_update",
                "DROP TRIGGER customers_after_delete",
                "DROP TRIGGER customers_after_insert",
                "DROP TABLE customers_search",
                "DROP TABLE customer_search_keys",
            ],
        };
        for sql in statements {
            db.execute_unprepared(sql).await?;
        }
        db.execute_unprepared("DROP TABLE customer_counts").await?;
        Ok(())
    }
}
