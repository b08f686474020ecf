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

/// Takes up to `n` of the owner's AI conversations for the month of `now`,
/// in the caller's write transaction ([`ca_core::db::begin_write`]), and
/// returns how many it took: all `n` while the plan's allowance (`limit` a
/// month; negative for unlimited, 0 for none) has that many left, else what
/// is left, never more. Two servers taking at once cannot both take the last
/// one: on PostgreSQL the owner's counter row is locked while it is read and
/// moved, and on SQLite the write lock the transaction holds already lets
/// one writer at a time through.
pub async fn claim_many<C: ConnectionTrait>(
    conn: &C,
    owner_id: &str,
    limit: i64,
    n: u64,
    now: DateTime<Utc>,
) -> Result<u64, DbErr> {
    let (granted, count) = claim_many_later(conn, owner_id, limit, n, now).await?;
    if let Some(count) = count {
        conn.execute_raw(count).await?;
    }
    Ok(granted)
}

/// [`claim_many`], with the counter's move handed back when it can wait:
/// the statement (if any) must run later in the same write transaction, so
/// the caller can send it together with its other writes. On PostgreSQL the
/// counter moves at once under its row lock and nothing is handed back.
pub(crate) async fn claim_many_later<C: ConnectionTrait>(
    conn: &C,
    owner_id: &str,
    limit: i64,
    n: u64,
    now: DateTime<Utc>,
) -> Result<(u64, Option<Statement>), DbErr> {
    if limit == 0 || n == 0 {
        return Ok((0, None));
    }
    let wanted = i64::try_from(n).unwrap_or(i64::MAX);
    let backend = conn.get_database_backend();
    let period = period_of(now);
    let add = |take: i64| {
        let sql = match backend {
            DatabaseBackend::Postgres => {
                "INSERT INTO ai_conversation_usage (owner_id, period, used) VALUES ($1, $2, $3) \
                 ON CONFLICT (owner_id, period) DO UPDATE SET used = ai_conversation_usage.used + $4"
            }
            _ => {
                "INSERT INTO ai_conversation_usage (owner_id, period, used) VALUES (?, ?, ?) \
                 ON CONFLICT (owner_id, period) DO UPDATE SET used = ai_conversation_usage.used + ?"
            }
        };
        Statement::from_sql_and_values(
            backend,
            sql,
            [
                owner_id.into(),
                period.clone().into(),
                take.into(),
                take.into(),
            ],
        )
    };
    if limit < 0 {
        if backend == DatabaseBackend::Postgres {
            conn.execute_raw(add(wanted)).await?;
            return Ok((n, None));
        }
        return Ok((n, Some(add(wanted))));
    }
    let granted = |before: i64| u64::try_from((limit - before).clamp(0, wanted)).unwrap_or(0);
    if backend == DatabaseBackend::Postgres {
        // The counter as it was before this claim, read under the row's lock
        // (a claim waiting for another sees the other's count), and moved up
        // to at most the limit (a count already past it, after a smaller
        // plan, stays as it is).
        let take = Statement::from_sql_and_values(
            backend,
            "UPDATE ai_conversation_usage u \
             SET used = GREATEST(prev.used, LEAST($3, prev.used + $4)) \
             FROM (SELECT owner_id, period, used FROM ai_conversation_usage \
                   WHERE owner_id = $1 AND period = $2 FOR UPDATE) prev \
             WHERE u.owner_id = prev.owner_id AND u.period = prev.period \
             RETURNING prev.used AS used",
            [
                owner_id.into(),
                period.clone().into(),
                limit.into(),
                wanted.into(),
            ],
        );
        if let Some(row) = conn.query_one_raw(take.clone()).await? {
            return Ok((granted(row.try_get::<i64>("", "used")?), None));
        }
        // The owner's first AI conversation of the month: the counter row
        // is created (or found, when another server created it meanwhile),
        // then moved as above.
        conn.execute_raw(Statement::from_sql_and_values(
            backend,
            "INSERT INTO ai_conversation_usage (owner_id, period, used) VALUES ($1, $2, 0) \
             ON CONFLICT (owner_id, period) DO NOTHING",
            [owner_id.into(), period.into()],
        ))
        .await?;
        let row = conn
            .query_one_raw(take)
            .await?
            .ok_or_else(|| DbErr::RecordNotFound("ai_conversation_usage".into()))?;
        return Ok((granted(row.try_get::<i64>("", "used")?), None));
    }
    let take = granted(used(conn, owner_id, now).await?);
    Ok((take, (take > 0).then(|| add(take as i64))))
}
