//! The subscription fields kept on the user row. Billing decides; this crate
//! owns the table, so billing changes them only through this function.

use chrono::{DateTime, Utc};
use sea_orm::{ActiveModelTrait, ConnectionTrait, EntityTrait, Set};

use crate::AuthError;
use crate::entities::user;

/// Puts `user_id` on `plan_id` with `status` until `ends_at`.
pub async fn set_subscription<C: ConnectionTrait>(
    conn: &C,
    user_id: &str,
    plan_id: &str,
    status: &str,
    ends_at: Option<DateTime<Utc>>,
) -> Result<user::Model, AuthError> {
    let found = user::Entity::find_by_id(user_id.to_string())
        .one(conn)
        .await?
        .ok_or(AuthError::InvalidToken)?;
    let mut active: user::ActiveModel = found.into();
    active.plan_id = Set(plan_id.to_string());
    active.subscription_status = Set(status.to_string());
    active.subscription_ends_at = Set(ends_at);
    active.updated_at = Set(Utc::now());
    Ok(active.update(conn).await?)
}

/// Puts `user_id` on a trial ending at `ends_at` (the free plan's id; limits
/// come from the trial settings).
pub async fn set_trial<C: ConnectionTrait>(
    conn: &C,
    user_id: &str,
    ends_at: DateTime<Utc>,
) -> Result<user::Model, AuthError> {
    let found = user::Entity::find_by_id(user_id.to_string())
        .one(conn)
        .await?
        .ok_or(AuthError::UserNotFound)?;
    let mut active: user::ActiveModel = found.into();
    active.plan_id = Set("free".to_string());
    active.subscription_status = Set("trial".to_string());
    active.trial_ends_at = Set(Some(ends_at));
    active.subscription_ends_at = Set(None);
    active.updated_at = Set(Utc::now());
    Ok(active.update(conn).await?)
}
