//! Forgetting campaign touches no purchase can be attributed to any more.

use chrono::{DateTime, Utc};
use sea_orm::{DatabaseConnection, DbErr};

/// Forgets when visitors last saw or used a campaign once that is longer ago
/// than the attribution window (`attribution_days`): a purchase after that
/// goes to no campaign anyway. Returns the rows removed.
pub async fn forget_old_touches(
    db: &DatabaseConnection,
    attribution_days: i64,
    now: DateTime<Utc>,
) -> Result<u64, DbErr> {
    let before = now - chrono::Duration::days(attribution_days.max(1));
    ca_core::db::delete_in_batches(db, "campaign_touches", "last_at < ?", vec![before.into()]).await
}
