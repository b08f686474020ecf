//! Forgetting what the plan limits no longer need.

use chrono::{DateTime, Datelike, Utc};
use sea_orm::{DatabaseConnection, DbErr};

use crate::counters::period_of;

/// Forgets which visitors an owner had in months before last month: only the
/// current month counts against the plan, and last month is kept for owners
/// who look back at it. Returns the rows removed.
pub async fn forget_old_visitors(
    db: &DatabaseConnection,
    now: DateTime<Utc>,
) -> Result<u64, DbErr> {
    let first_of_month = now
        .date_naive()
        .with_day(1)
        .unwrap_or_else(|| now.date_naive());
    let last_month = first_of_month
        .pred_opt()
        .map_or_else(|| period_of(now), |d| d.format("%Y-%m").to_string());
    ca_core::db::delete_in_batches(
        db,
        "monthly_visitors",
        "period < ?",
        vec![last_month.into()],
    )
    .await
}
