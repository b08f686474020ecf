//! Forgetting old notifications: events told of and deliveries finished
//! more than 7 days ago are deleted (nothing shows them; they were kept for
//! the grouping window and for support). Pending deliveries stay.

use chrono::{DateTime, Duration, Utc};
use sea_orm::{ColumnTrait, DatabaseConnection, DbErr, EntityTrait, QueryFilter};

use crate::entities::{delivery, event};

/// How long finished notifications are kept.
pub const KEEP_DAYS: i64 = 7;

/// Deletes what is older than [`KEEP_DAYS`]; answers how many rows went.
pub async fn forget_old(db: &DatabaseConnection, now: DateTime<Utc>) -> Result<u64, DbErr> {
    let cutoff = now - Duration::days(KEEP_DAYS);
    let deliveries = delivery::Entity::delete_many()
        .filter(delivery::Column::Status.ne("pending"))
        .filter(delivery::Column::UpdatedAt.lt(cutoff))
        .exec(db)
        .await?
        .rows_affected;
    let events = event::Entity::delete_many()
        .filter(event::Column::NotifiedAt.lt(cutoff))
        .exec(db)
        .await?
        .rows_affected;
    Ok(deliveries + events)
}
