//! What visitors who became customers do on the owner's site: page views
//! and engaged time, added to their customer rows in batches from the event
//! writer, with their lead scores refreshed in the same transaction.

use std::collections::HashMap;

use chrono::Utc;
use sea_orm::sea_query::Expr;
use sea_orm::{ColumnTrait, ConnectionTrait, DbErr, EntityTrait, QueryFilter};

use crate::entities::customer;
use crate::score::{LEAD_SCORE_SQL, refresh_lead_scores};

/// Page views of visitors who are already the owner's customers: each found
/// customer's count grows by its visitors' views and the score follows. One
/// lookup per 500 visitors, then an update per customer found (usually few).
pub async fn add_page_views<C: ConnectionTrait>(
    conn: &C,
    owner_id: &str,
    views: &HashMap<String, i64>,
) -> Result<(), DbErr> {
    let rows: Vec<(&str, i64)> = views.iter().map(|(v, n)| (v.as_str(), *n)).collect();
    for chunk in rows.chunks(500) {
        customer::Entity::update_many()
            .col_expr(
                customer::Column::TotalPageViews,
                plus_per_visitor(customer::Column::TotalPageViews, chunk),
            )
            .filter(customer::Column::OwnerId.eq(owner_id))
            .filter(customer::Column::VisitorId.is_in(chunk.iter().map(|(v, _)| *v)))
            .exec(conn)
            .await?;
    }
    refresh_visitors(conn, owner_id, views.keys()).await?;
    record_activity(
        conn,
        owner_id,
        views
            .iter()
            .map(|(v, n)| (v.as_str(), *n, EngagedTime::default())),
    )
    .await
}

/// `column + (CASE WHEN visitor_id = v1 THEN n1 … ELSE 0 END)`: one
/// statement moves many visitors' counters by their own amounts.
fn plus_per_visitor(
    column: customer::Column,
    amounts: &[(&str, i64)],
) -> sea_orm::sea_query::SimpleExpr {
    let mut case = sea_orm::sea_query::CaseStatement::new();
    for (visitor, n) in amounts {
        case = case.case(customer::Column::VisitorId.eq(*visitor), *n);
    }
    let case: Expr = case.finally(0i64).into();
    sea_orm::sea_query::ExprTrait::add(Expr::col(column), case)
}

/// Keeps every visitor's page views and engaged time, customer or not yet,
/// so a visitor who leaves their email starts as a customer with the visits
/// that led there.
async fn record_activity<'a, C: ConnectionTrait>(
    conn: &C,
    owner_id: &str,
    rows: impl Iterator<Item = (&'a str, i64, EngagedTime)>,
) -> Result<(), DbErr> {
    use crate::entities::visitor_activity;
    use sea_orm::Set;
    use sea_orm::sea_query::OnConflict;
    let now = Utc::now();
    let rows: Vec<visitor_activity::ActiveModel> = rows
        .map(|(visitor, views, t)| visitor_activity::ActiveModel {
            owner_id: Set(owner_id.to_string()),
            visitor_id: Set(visitor.to_string()),
            page_views: Set(views),
            sessions: Set(t.new_sessions),
            session_seconds: Set(t.seconds),
            updated_at: Set(now),
        })
        .collect();
    for chunk in rows.chunks(500) {
        visitor_activity::Entity::insert_many(chunk.to_vec())
            .on_conflict(
                OnConflict::columns([
                    visitor_activity::Column::OwnerId,
                    visitor_activity::Column::VisitorId,
                ])
                .value(
                    visitor_activity::Column::PageViews,
                    Expr::cust("visitor_activity.page_views + excluded.page_views"),
                )
                .value(
                    visitor_activity::Column::Sessions,
                    Expr::cust("visitor_activity.sessions + excluded.sessions"),
                )
                .value(
                    visitor_activity::Column::SessionSeconds,
                    Expr::cust("visitor_activity.session_seconds + excluded.session_seconds"),
                )
                .update_column(visitor_activity::Column::UpdatedAt)
                .to_owned(),
            )
            .exec_without_returning(conn)
            .await?;
    }
    Ok(())
}

/// Engaged time the widget measured for one visitor in a batch.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct EngagedTime {
    pub seconds: i64,
    /// Reports that began a new browsing session.
    pub new_sessions: i64,
}

/// Engaged time of visitors who are already the owner's customers: adds the
/// seconds and sessions (a customer's first measured time starts a session
/// even when the visitor's session began before they were a customer) and
/// sets the lead score from the stored values, in the caller's transaction.
pub async fn add_engaged_time<C: ConnectionTrait>(
    conn: &C,
    owner_id: &str,
    times: &HashMap<String, EngagedTime>,
) -> Result<(), DbErr> {
    // One statement per 500 visitors, like page views: most are not
    // customers and the update finds nothing for them.
    let rows: Vec<(&str, EngagedTime)> = times.iter().map(|(v, t)| (v.as_str(), *t)).collect();
    for chunk in rows.chunks(500) {
        let seconds: Vec<(&str, i64)> = chunk.iter().map(|(v, t)| (*v, t.seconds.max(0))).collect();
        let mut sessions = sea_orm::sea_query::CaseStatement::new();
        for (visitor, t) in chunk {
            let new_sessions = t.new_sessions.max(0);
            sessions = sessions.case(
                customer::Column::VisitorId.eq(*visitor),
                Expr::cust(format!(
                    "CASE WHEN sessions = 0 THEN {} ELSE {} END",
                    new_sessions.max(1),
                    new_sessions
                )),
            );
        }
        let sessions: Expr = sessions.finally(0i64).into();
        customer::Entity::update_many()
            .col_expr(
                customer::Column::TotalSessionSeconds,
                plus_per_visitor(customer::Column::TotalSessionSeconds, &seconds),
            )
            .col_expr(
                customer::Column::Sessions,
                sea_orm::sea_query::ExprTrait::add(Expr::col(customer::Column::Sessions), sessions),
            )
            .filter(customer::Column::OwnerId.eq(owner_id))
            .filter(customer::Column::VisitorId.is_in(chunk.iter().map(|(v, _)| *v)))
            .exec(conn)
            .await?;
    }
    refresh_visitors(conn, owner_id, times.keys()).await?;
    record_activity(
        conn,
        owner_id,
        times.iter().map(|(v, t)| (v.as_str(), 0, *t)),
    )
    .await
}

async fn refresh_visitors<'a, C: ConnectionTrait>(
    conn: &C,
    owner_id: &str,
    visitors: impl Iterator<Item = &'a String>,
) -> Result<(), DbErr> {
    let visitors: Vec<String> = visitors.cloned().collect();
    for chunk in visitors.chunks(500) {
        refresh_lead_scores(
            conn,
            sea_orm::Condition::all()
                .add(customer::Column::OwnerId.eq(owner_id))
                .add(customer::Column::VisitorId.is_in(chunk.to_vec())),
        )
        .await?;
    }
    Ok(())
}

/// What one visitor did in a batch of the event writer: page views, and
/// engaged time when the widget measured some.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct VisitorActivity {
    pub owner_id: String,
    pub visitor_id: String,
    pub page_views: i64,
    pub engaged: Option<EngagedTime>,
}

/// Adds a batch's page views and engaged time, every owner's at once, in the
/// caller's transaction: to the customers they belong to (with their lead
/// scores refreshed) and to every visitor's kept activity. Each visitor of
/// an owner appears at most once in `rows`.
///
/// On PostgreSQL the whole batch takes at most three statements, whatever
/// its size, each with the batch as one JSON parameter (so the statement's
/// text never changes and is prepared once per connection). SQLite, whose
/// statements cost no round trip, takes them per owner.
pub async fn add_activity<C: ConnectionTrait>(
    conn: &C,
    rows: &[VisitorActivity],
) -> Result<(), DbErr> {
    if rows.is_empty() {
        return Ok(());
    }
    if conn.get_database_backend() != sea_orm::DbBackend::Postgres {
        let mut views: HashMap<&str, HashMap<String, i64>> = HashMap::new();
        let mut times: HashMap<&str, HashMap<String, EngagedTime>> = HashMap::new();
        for r in rows {
            if r.page_views > 0 {
                views
                    .entry(&r.owner_id)
                    .or_default()
                    .insert(r.visitor_id.clone(), r.page_views);
            }
            if let Some(t) = r.engaged {
                times
                    .entry(&r.owner_id)
                    .or_default()
                    .insert(r.visitor_id.clone(), t);
            }
        }
        for (owner, views) in views {
            add_page_views(conn, owner, &views).await?;
        }
        for (owner, times) in times {
            add_engaged_time(conn, owner, &times).await?;
        }
        return Ok(());
    }
    #[derive(serde::Serialize)]
    struct Row<'a> {
        o: &'a str,
        v: &'a str,
        views: i64,
        seconds: i64,
        new_sessions: i64,
        timed: bool,
    }
    let mut sorted: Vec<&VisitorActivity> = rows.iter().collect();
    // One order for every batch, so two servers' batches lock rows alike.
    sorted.sort_unstable_by(|a, b| (&a.owner_id, &a.visitor_id).cmp(&(&b.owner_id, &b.visitor_id)));
    let json = serde_json::to_string(
        &sorted
            .iter()
            .map(|r| {
                let t = r.engaged.unwrap_or_default();
                Row {
                    o: &r.owner_id,
                    v: &r.visitor_id,
                    views: r.page_views,
                    seconds: t.seconds,
                    new_sessions: t.new_sessions,
                    timed: r.engaged.is_some(),
                }
            })
            .collect::<Vec<_>>(),
    )
    .map_err(|e| DbErr::Custom(e.to_string()))?;
    const ROWS: &str = "json_to_recordset($1::json) AS x(o text, v text, views bigint, \
        seconds bigint, new_sessions bigint, timed boolean)";
    // Customers: a first measured time starts a session even when the
    // visitor's session began before they were a customer.
    let moved = conn
        .execute_raw(sea_orm::Statement::from_sql_and_values(
            sea_orm::DbBackend::Postgres,
            format!(
                "UPDATE customers c SET \
                 total_page_views = c.total_page_views + x.views, \
                 total_session_seconds = c.total_session_seconds + GREATEST(x.seconds, 0), \
                 sessions = c.sessions + CASE WHEN NOT x.timed THEN 0 \
                   WHEN c.sessions = 0 THEN GREATEST(x.new_sessions, 1) \
                   ELSE GREATEST(x.new_sessions, 0) END \
                 FROM {ROWS} WHERE c.owner_id = x.o AND c.visitor_id = x.v"
            ),
            [json.clone().into()],
        ))
        .await?
        .rows_affected();
    // Most visitors are not customers yet: scores move only when some were.
    if moved > 0 {
        conn.execute_raw(sea_orm::Statement::from_sql_and_values(
            sea_orm::DbBackend::Postgres,
            format!(
                "UPDATE customers c SET lead_score = {} FROM {ROWS} \
                 WHERE c.owner_id = x.o AND c.visitor_id = x.v",
                LEAD_SCORE_SQL.as_str()
            ),
            [json.clone().into()],
        ))
        .await?;
    }
    conn.execute_raw(sea_orm::Statement::from_sql_and_values(
        sea_orm::DbBackend::Postgres,
        format!(
            "INSERT INTO visitor_activity \
             (owner_id, visitor_id, page_views, sessions, session_seconds, updated_at) \
             SELECT x.o, x.v, x.views, x.new_sessions, x.seconds, $2 FROM {ROWS} \
             ON CONFLICT (owner_id, visitor_id) DO UPDATE SET \
             page_views = visitor_activity.page_views + excluded.page_views, \
             sessions = visitor_activity.sessions + excluded.sessions, \
             session_seconds = visitor_activity.session_seconds + excluded.session_seconds, \
             updated_at = excluded.updated_at"
        ),
        [json.into(), Utc::now().into()],
    ))
    .await?;
    Ok(())
}
