//! Fresh, migrated databases for tests: a temporary SQLite file, or a new
//! PostgreSQL database when `CA_TEST_POSTGRES_URL` is set.

use sea_orm::{ConnectionTrait, DatabaseConnection};
use sea_orm_migration::MigratorTrait;

use crate::Migrator;

/// Databases older than this, left by earlier runs, are dropped when a new one is made.
const STALE_AFTER_SECS: u64 = 2 * 3600;

/// A migrated database that belongs to one test.
pub struct TestDb {
    /// The pool.
    pub conn: DatabaseConnection,
    /// The URL it was opened with (to start a server on the same database).
    pub url: String,
    _dir: Option<TempDir>,
}

/// A folder removed when dropped.
struct TempDir(std::path::PathBuf);

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// Which backend the tests run on, from `CA_TEST_POSTGRES_URL`.
pub fn postgres_url() -> Option<String> {
    std::env::var("CA_TEST_POSTGRES_URL")
        .ok()
        .filter(|v| !v.trim().is_empty())
}

impl TestDb {
    /// A new, migrated database on the backend the test run targets.
    pub async fn new() -> anyhow::Result<Self> {
        let db = match postgres_url() {
            Some(admin_url) => Self::postgres(&admin_url).await?,
            None => Self::sqlite().await?,
        };
        Migrator::up(&db.conn, None).await?;
        Ok(db)
    }

    async fn sqlite() -> anyhow::Result<Self> {
        let dir = std::env::temp_dir().join(format!("ca-test-{}", uuid::Uuid::now_v7()));
        std::fs::create_dir_all(&dir)?;
        let url = format!("sqlite://{}/test.db?mode=rwc", dir.display());
        let conn = ca_core::db::connect(&url).await?;
        Ok(Self {
            conn,
            url,
            _dir: Some(TempDir(dir)),
        })
    }

    async fn postgres(admin_url: &str) -> anyhow::Result<Self> {
        let admin = ca_core::db::connect(admin_url).await?;
        let now = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)?
            .as_secs();
        drop_stale(&admin, now).await;
        let name = format!("ca_t_{now}_{}", uuid::Uuid::now_v7().simple());
        admin
            .execute_unprepared(&format!("CREATE DATABASE \"{name}\""))
            .await?;
        admin.close().await?;
        let url = replace_database(admin_url, &name);
        let conn = ca_core::db::connect(&url).await?;
        Ok(Self {
            conn,
            url,
            _dir: None,
        })
    }
}

async fn drop_stale(admin: &DatabaseConnection, now: u64) {
    use sea_orm::{FromQueryResult, Statement};
    #[derive(FromQueryResult)]
    struct Row {
        datname: String,
    }
    let rows = Row::find_by_statement(Statement::from_string(
        admin.get_database_backend(),
        "SELECT datname FROM pg_database WHERE datname LIKE 'ca\\_t\\_%'",
    ))
    .all(admin)
    .await
    .unwrap_or_default();
    for row in rows {
        let created = row
            .datname
            .split('_')
            .nth(2)
            .and_then(|s| s.parse::<u64>().ok());
        if created.is_some_and(|t| t + STALE_AFTER_SECS < now) {
            let _ = admin
                .execute_unprepared(&format!(
                    "DROP DATABASE IF EXISTS \"{}\" WITH (FORCE)",
                    row.datname
                ))
                .await;
        }
    }
}

fn replace_database(url: &str, name: &str) -> String {
    let (base, query) = match url.split_once('?') {
        Some((b, q)) => (b, Some(q)),
        None => (url, None),
    };
    let prefix_end = base
        .find("://")
        .map(|i| i + 3)
        .and_then(|start| base[start..].find('/').map(|j| start + j))
        .unwrap_or(base.len());
    let mut out = format!("{}/{}", &base[..prefix_end], name);
    if let Some(q) = query {
        out.push('?');
        out.push_str(q);
    }
    out
}

/// The one migration whose name contains `name`.
fn only(name: &str) -> anyhow::Result<Box<dyn sea_orm_migration::MigrationTrait>> {
    let mut found: Vec<_> = Migrator::migrations()
        .into_iter()
        .filter(|m| m.name().contains(name))
        .collect();
    anyhow::ensure!(
        found.len() == 1,
        "{} migrations are named like {name:?}",
        found.len()
    );
    Ok(found.remove(0))
}

/// Undoes only the migration named like `name` (not the ones after it), for
/// a test of how that migration fills its tables from rows written before
/// it; [`redo_only`] applies it again.
pub async fn undo_only(conn: &DatabaseConnection, name: &str) -> anyhow::Result<()> {
    only(name)?
        .down(&sea_orm_migration::SchemaManager::new(conn))
        .await?;
    Ok(())
}

/// Applies again the migration [`undo_only`] undid.
pub async fn redo_only(conn: &DatabaseConnection, name: &str) -> anyhow::Result<()> {
    only(name)?
        .up(&sea_orm_migration::SchemaManager::new(conn))
        .await?;
    Ok(())
}
