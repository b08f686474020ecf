//! Suspended accounts: staff suspend an account instead of deleting it. A
//! suspended account cannot sign in (nor sign in through a reset link), its
//! sessions end when it is suspended, and its owner's widget either keeps
//! working or pauses, as staff chose. Unsuspending restores sign-in and the
//! widget; nothing else about the account changes either way.

use chrono::{DateTime, Utc};
use sea_orm::{ActiveModelTrait, ColumnTrait, ConnectionTrait, EntityTrait, QueryFilter, Set};

use crate::AuthError;
use crate::entities::{account_suspension, user};

/// The suspension of `user_id`, if suspended.
pub async fn of<C: ConnectionTrait>(
    conn: &C,
    user_id: &str,
) -> Result<Option<account_suspension::Model>, AuthError> {
    Ok(account_suspension::Entity::find_by_id(user_id.to_string())
        .one(conn)
        .await?)
}

/// Which of `ids` are suspended, with their suspension.
pub async fn of_many<C: ConnectionTrait>(
    conn: &C,
    ids: Vec<String>,
) -> Result<std::collections::HashMap<String, account_suspension::Model>, AuthError> {
    if ids.is_empty() {
        return Ok(Default::default());
    }
    Ok(account_suspension::Entity::find()
        .filter(account_suspension::Column::UserId.is_in(ids))
        .all(conn)
        .await?
        .into_iter()
        .map(|s| (s.user_id.clone(), s))
        .collect())
}

/// Refuses signing in to a suspended account.
pub async fn refuse_if_suspended<C: ConnectionTrait>(
    conn: &C,
    user_id: &str,
) -> Result<(), AuthError> {
    match of(conn, user_id).await? {
        Some(_) => Err(AuthError::AccountSuspended),
        None => Ok(()),
    }
}

/// Whether the owner's widget is paused by a suspension.
pub async fn widget_paused<C: ConnectionTrait>(
    conn: &C,
    owner_id: &str,
) -> Result<bool, AuthError> {
    Ok(of(conn, owner_id).await?.is_some_and(|s| s.pause_widget))
}

/// Suspends `target` (or changes whether its widget pauses, when already
/// suspended) and ends every session of it, in the caller's transaction.
/// Answers the suspension as stored.
pub async fn suspend<C: ConnectionTrait>(
    conn: &C,
    target: &user::Model,
    by: &str,
    pause_widget: bool,
    now: DateTime<Utc>,
) -> Result<account_suspension::Model, AuthError> {
    let stored = match of(conn, &target.id).await? {
        Some(existing) => {
            let mut active: account_suspension::ActiveModel = existing.into();
            active.pause_widget = Set(pause_widget);
            active.update(conn).await?
        }
        None => {
            account_suspension::ActiveModel {
                user_id: Set(target.id.clone()),
                suspended_at: Set(now),
                suspended_by: Set(by.to_string()),
                pause_widget: Set(pause_widget),
            }
            .insert(conn)
            .await?
        }
    };
    end_sessions(conn, target, now).await?;
    Ok(stored)
}

/// Lifts the suspension of `user_id`; answers whether there was one.
pub async fn unsuspend<C: ConnectionTrait>(conn: &C, user_id: &str) -> Result<bool, AuthError> {
    let gone = account_suspension::Entity::delete_by_id(user_id.to_string())
        .exec(conn)
        .await?;
    Ok(gone.rows_affected > 0)
}

/// Ends every session of `target` ("sign out everywhere"): every token
/// issued so far stops working at once, login-as ones included, and a
/// two-factor sign-in waiting for its code does not finish.
pub async fn end_sessions<C: ConnectionTrait>(
    conn: &C,
    target: &user::Model,
    now: DateTime<Utc>,
) -> Result<user::Model, AuthError> {
    crate::links::end_open_challenges(conn, &target.id, now).await?;
    let mut active: user::ActiveModel = target.clone().into();
    active.token_version = Set(target.token_version + 1);
    active.updated_at = Set(now);
    Ok(active.update(conn).await?)
}
