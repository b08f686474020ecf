//! Forgetting old delivery history: the log shows the last 30 days, so
//! attempts older than that are deleted, with finished deliveries and the
//! events no delivery needs any more. A delivery still pending, and an
//! event not yet given its deliveries, are kept whatever their age.

use chrono::{DateTime, Duration, Utc};
use sea_orm::sea_query::Query;
use sea_orm::{ColumnTrait, DatabaseConnection, DbErr, EntityTrait, QueryFilter};

use crate::deliveries::LOG_DAYS;
use crate::entities::{attempt, delivery, event};

/// Deletes what is older than the log keeps; answers how many rows went.
pub async fn forget_old(db: &DatabaseConnection, now: DateTime<Utc>) -> Result<u64, DbErr> {
    let cutoff = now - Duration::days(LOG_DAYS);
    let attempts = attempt::Entity::delete_many()
        .filter(attempt::Column::CreatedAt.lt(cutoff))
        .exec(db)
        .await?
        .rows_affected;
    let deliveries = delivery::Entity::delete_many()
        .filter(delivery::Column::Status.ne("pending"))
        .filter(delivery::Column::UpdatedAt.lt(cutoff))
        .exec(db)
        .await?
        .rows_affected;
    let events = event::Entity::delete_many()
        .filter(event::Column::CreatedAt.lt(cutoff))
        // An event still waiting for its deliveries is kept, however old.
        .filter(event::Column::FannedOut.eq(true))
        .filter(
            event::Column::Id.not_in_subquery(
                Query::select()
                    .column(delivery::Column::EventId)
                    .from(delivery::Entity)
                    .to_owned(),
            ),
        )
        .exec(db)
        .await?
        .rows_affected;
    Ok(attempts + deliveries + events)
}
