//! Forgetting the activity of visitors who stopped coming.

use chrono::{DateTime, Utc};
use sea_orm::{DatabaseConnection, DbErr};

/// How long the page views and engaged time of a visitor who is not (yet) a
/// customer are kept after their last visit: a visitor who becomes a lead
/// later starts with the visits of this period.
pub const KEEP_VISITOR_ACTIVITY_DAYS: i64 = 90;

/// Forgets the activity of visitors not seen for
/// [`KEEP_VISITOR_ACTIVITY_DAYS`]. Returns the rows removed.
pub async fn forget_idle_visitors(
    db: &DatabaseConnection,
    now: DateTime<Utc>,
) -> Result<u64, DbErr> {
    let before = now - chrono::Duration::days(KEEP_VISITOR_ACTIVITY_DAYS);
    ca_core::db::delete_in_batches(
        db,
        "visitor_activity",
        "updated_at < ?",
        vec![before.into()],
    )
    .await
}
