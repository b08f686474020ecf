//! The plan's monthly AI conversations, counted as conversations start: one
//! row per owner and calendar month (UTC) in `ai_conversation_usage`, so a
//! chat start checks the allowance by moving one counter instead of counting
//! the month's conversations (which grew with every start).

use chrono::{DateTime, Utc};
use sea_orm::{ConnectionTrait, DatabaseBackend, DbErr, Statement};

/// The month an AI conversation counts towards (`2026-11`): the same
/// calendar month (UTC) the monthly visitor counts use.
pub use ca_campaigns::counters::period_of;

/// Takes one of the owner's AI conversations for the month of `now`, in the
/// caller's transaction: true when the plan's allowance (`limit` a month;
/// negative for unlimited) had one left, which is then counted as used. Two
/// starts at once cannot both take the last one: the check and the count are
/// one statement.
pub async fn claim<C: ConnectionTrait>(
    conn: &C,
    owner_id: &str,
    limit: i64,
    now: DateTime<Utc>,
) -> Result<bool, DbErr> {
    if limit == 0 {
        return Ok(false);
    }
    let backend = conn.get_database_backend();
    let sql = match backend {
        DatabaseBackend::Postgres => {
            "INSERT INTO ai_conversation_usage (owner_id, period, used) VALUES ($1, $2, 1) \
             ON CONFLICT (owner_id, period) DO UPDATE SET used = ai_conversation_usage.used + 1 \
             WHERE $3 < 0 OR ai_conversation_usage.used < $4"
        }
        _ => {
            "INSERT INTO ai_conversation_usage (owner_id, period, used) VALUES (?, ?, 1) \
             ON CONFLICT (owner_id, period) DO UPDATE SET used = ai_conversation_usage.used + 1 \
             WHERE ? < 0 OR ai_conversation_usage.used < ?"
        }
    };
    let done = conn
        .execute_raw(Statement::from_sql_and_values(
            backend,
            sql,
            [
                owner_id.into(),
                period_of(now).into(),
                limit.into(),
                limit.into(),
            ],
        ))
        .await?;
    Ok(done.rows_affected() > 0)
}

/// The owner's AI conversations counted for the month of `now`.
pub async fn used<C: ConnectionTrait>(
    conn: &C,
    owner_id: &str,
    now: DateTime<Utc>,
) -> Result<i64, DbErr> {
    let backend = conn.get_database_backend();
    let sql = match backend {
        DatabaseBackend::Postgres => {
            "SELECT used FROM ai_conversation_usage WHERE owner_id = $1 AND period = $2"
        }
        _ => "SELECT used FROM ai_conversation_usage WHERE owner_id = ? AND period = ?",
    };
    let row = conn
        .query_one_raw(Statement::from_sql_and_values(
            backend,
            sql,
            [owner_id.into(), period_of(now).into()],
        ))
        .await?;
    match row {
        Some(r) => r.try_get::<i64>("", "used"),
        None => Ok(0),
    }
}
