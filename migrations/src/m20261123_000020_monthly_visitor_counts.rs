//! How many visitors each owner has this month, kept as a number so the
//! widget's visitor-limit check reads one row instead of counting them.
//!
//! `monthly_visitor_counts` holds, per owner and month, the number of rows of
//! `monthly_visitors`. Triggers on `monthly_visitors` keep it: every visitor
//! stored adds one (a visitor already counted this month is not stored again,
//! so adds nothing), every row deleted takes one away. Nothing in Rust writes
//! it.

use sea_orm_migration::prelude::*;
use sea_orm_migration::sea_orm::{ConnectionTrait, DbBackend};

#[derive(DeriveMigrationName)]
pub struct Migration;

const TABLE: &str = "CREATE TABLE monthly_visitor_counts (
    owner_id VARCHAR(36) NOT NULL,
    period VARCHAR(7) NOT NULL,
    visitors BIGINT NOT NULL,
    PRIMARY KEY (owner_id, period),
    CONSTRAINT fk_monthly_visitor_counts_owner FOREIGN KEY (owner_id)
        REFERENCES users (id) ON DELETE CASCADE
)";

const BACKFILL: &str = "INSERT INTO monthly_visitor_counts (owner_id, period, visitors)
    SELECT owner_id, period, COUNT(*) FROM monthly_visitors GROUP BY owner_id, period";

fn sqlite() -> Vec<&'static str> {
    vec![
        "CREATE TRIGGER monthly_visitors_count_insert AFTER INSERT ON monthly_visitors BEGIN
            INSERT INTO monthly_visitor_counts (owner_id, period, visitors)
            VALUES (NEW.owner_id, NEW.period, 1)
            ON CONFLICT (owner_id, period)
            DO UPDATE SET visitors = monthly_visitor_counts.visitors + 1;
        END",
        "CREATE TRIGGER monthly_visitors_count_delete AFTER DELETE ON monthly_visitors BEGIN
            UPDATE monthly_visitor_counts SET visitors = visitors - 1
            WHERE owner_id = OLD.owner_id AND period = OLD.period;
        END",
    ]
}

/// PostgreSQL: once per statement over the rows it inserted or deleted (a
/// batch of visitors moves each owner's count once), owners in a fixed
/// order so two batches never wait on each other's rows crosswise.
fn postgres() -> Vec<&'static str> {
    vec![
        "CREATE FUNCTION monthly_visitor_counts_add() RETURNS trigger LANGUAGE plpgsql AS $fn$
        BEGIN
            INSERT INTO monthly_visitor_counts (owner_id, period, visitors)
            SELECT owner_id, period, COUNT(*) FROM added
            GROUP BY owner_id, period ORDER BY owner_id, period
            ON CONFLICT (owner_id, period)
            DO UPDATE SET visitors = monthly_visitor_counts.visitors + EXCLUDED.visitors;
            RETURN NULL;
        END
        $fn$",
        "CREATE FUNCTION monthly_visitor_counts_remove() RETURNS trigger LANGUAGE plpgsql AS $fn$
        BEGIN
            UPDATE monthly_visitor_counts c SET visitors = c.visitors - d.n
            FROM (SELECT owner_id, period, COUNT(*) AS n FROM removed
                  GROUP BY owner_id, period) d
            WHERE c.owner_id = d.owner_id AND c.period = d.period;
            RETURN NULL;
        END
        $fn$",
        "CREATE TRIGGER monthly_visitors_count_insert AFTER INSERT ON monthly_visitors
         REFERENCING NEW TABLE AS added
         FOR EACH STATEMENT EXECUTE FUNCTION monthly_visitor_counts_add()",
        "CREATE TRIGGER monthly_visitors_count_delete AFTER DELETE ON monthly_visitors
         REFERENCING OLD TABLE AS removed
         FOR EACH STATEMENT EXECUTE FUNCTION monthly_visitor_counts_remove()",
    ]
}

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        let db = manager.get_connection();
        db.execute_unprepared(TABLE).await?;
        db.execute_unprepared(BACKFILL).await?;
        let statements = match manager.get_database_backend() {
            DbBackend::Postgres => postgres(),
            DbBackend::Sqlite => sqlite(),
            other => return Err(DbErr::Migration(format!("{other:?} is not supported"))),
        };
        for sql in statements {
            db.execute_unprepared(sql).await?;
        }
        Ok(())
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        let db = manager.get_connection();
        let statements: &[&str] = match manager.get_database_backend() {
            DbBackend::Postgres => &[
                "DROP TRIGGER monthly_visitors_count_delete ON monthly_visitors",
                "DROP TRIGGER monthly_visitors_count_insert ON monthly_visitors",
                "DROP FUNCTION monthly_visitor_counts_remove()",
                "DROP FUNCTION monthly_visitor_counts_add()",
            ],
            _ => &[
                "DROP TRIGGER monthly_visitors_count_delete",
                "DROP TRIGGER monthly_visitors_count_insert",
            ],
        };
        for sql in statements {
            db.execute_unprepared(sql).await?;
        }
        db.execute_unprepared("DROP TABLE monthly_visitor_counts")
            .await?;
        Ok(())
    }
}
