//! What can still sign in to an account without its current password (reset
//! and invitation links, two-factor sign-ins waiting for their code), and
//! ending it when the account's sessions end. A leaf: the account service,
//! staff changes and suspensions all call it.

use chrono::{DateTime, Utc};
use sea_orm::sea_query::Expr;
use sea_orm::{ColumnTrait, ConnectionTrait, EntityTrait, QueryFilter};

use crate::AuthError;
use crate::entities::{password_reset_token, two_factor_challenge};

/// Ends what could still sign in to `user_id` without its current
/// password: unused reset and invitation links, and two-factor sign-ins
/// whose password step is done but whose code is not yet given. Done when
/// the password changes, when the account signs out everywhere, and when
/// staff change its email (a link sent to the old address must not set the
/// password of the account at its new one).
pub async fn end_open_links<C: ConnectionTrait>(
    conn: &C,
    user_id: &str,
    now: DateTime<Utc>,
) -> Result<(), AuthError> {
    password_reset_token::Entity::update_many()
        .col_expr(password_reset_token::Column::UsedAt, Expr::value(now))
        .filter(password_reset_token::Column::UserId.eq(user_id))
        .filter(password_reset_token::Column::UsedAt.is_null())
        .exec(conn)
        .await?;
    end_open_challenges(conn, user_id, now).await
}

/// Ends the two-factor sign-ins of `user_id` whose password step is done
/// but whose code is not yet given: with every session ended, a sign-in
/// half done before that does not finish after it.
pub async fn end_open_challenges<C: ConnectionTrait>(
    conn: &C,
    user_id: &str,
    now: DateTime<Utc>,
) -> Result<(), AuthError> {
    two_factor_challenge::Entity::update_many()
        .col_expr(two_factor_challenge::Column::UsedAt, Expr::value(now))
        .filter(two_factor_challenge::Column::UserId.eq(user_id))
        .filter(two_factor_challenge::Column::UsedAt.is_null())
        .exec(conn)
        .await?;
    Ok(())
}
