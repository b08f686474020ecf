//! What visitors who became customers do on the owner's site: page views
//! and engaged time, added to their customer rows in batches from the event
//! writer, with their lead scores refreshed in the same transaction.

use std::collections::HashMap;

use chrono::Utc;
use sea_orm::sea_query::Expr;
use sea_orm::{ColumnTrait, ConnectionTrait, DbErr, EntityTrait, QueryFilter};

use crate::entities::customer;
use crate::score::refresh_lead_scores;

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
