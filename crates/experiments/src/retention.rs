//! Forgetting which visitors a finished test counted: once a test is closed
//! (promoted, or replaced by its next version) its counts are final, so the
//! list of visitors it has seen is no longer needed. Its counts stay.

use chrono::{DateTime, Duration, Utc};
use sea_orm::{DatabaseConnection, DbErr};

use crate::service::CLOSED;

/// How long after a test closes its visitor list is kept (impressions sent
/// just before the close may still be on their way).
pub const KEEP_DAYS: i64 = 1;

/// Deletes the visitor lists of tests closed more than [`KEEP_DAYS`] ago;
/// answers how many rows went.
pub async fn forget_closed(db: &DatabaseConnection, now: DateTime<Utc>) -> Result<u64, DbErr> {
    let cutoff = now - Duration::days(KEEP_DAYS);
    ca_core::db::delete_in_batches(
        db,
        "experiment_exposures",
        "test_id IN (SELECT id FROM experiment_tests WHERE status = ? AND closed_at < ?)",
        vec![CLOSED.into(), cutoff.into()],
    )
    .await
}
