//! Customers: the leads and buyers an owner's campaigns produce.

pub mod dto;
pub mod entities;
pub mod error;
pub mod notifications;
pub mod report;
pub mod retention;
pub mod service;

pub use error::CustomerError;
pub use service::CustomerService;

use std::collections::HashMap;

use chrono::{DateTime, Utc};
use sea_orm::sea_query::Expr;
use sea_orm::{
    ActiveModelTrait, ColumnTrait, ConnectionTrait, DbErr, EntityTrait, QueryFilter, QuerySelect,
};

use entities::customer;

/// What a customer's lead score is computed from.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Engagement {
    pub has_email: bool,
    pub has_name: bool,
    pub has_phone: bool,
    pub has_company: bool,
    pub messages: i64,
    pub page_views: i64,
    /// Average session length in seconds.
    pub average_session_seconds: i64,
    pub purchases: i64,
}

/// The lead score, 0–100:
///
/// | signal | points |
/// |---|---|
/// | data collected | email 20, name 10, phone 15, company 5 |
/// | chat messages sent | 2 each, at most 20 |
/// | page views | 1 each, at most 10 |
/// | average session time | 1 per 30 s, at most 10 |
/// | purchases | 10 each, at most 20 |
///
/// (A maximum of 110, capped at 100: a buyer who gave everything is a 100.)
pub fn lead_score(e: &Engagement) -> i32 {
    let data = [
        (e.has_email, 20),
        (e.has_name, 10),
        (e.has_phone, 15),
        (e.has_company, 5),
    ]
    .iter()
    .filter(|(has, _)| *has)
    .map(|(_, p)| p)
    .sum::<i64>();
    let score = data
        + (e.messages.max(0) * 2).min(20)
        + e.page_views.clamp(0, 10)
        + (e.average_session_seconds.max(0) / 30).min(10)
        + (e.purchases.max(0) * 10).min(20);
    i32::try_from(score.min(100)).unwrap_or(100)
}

/// [`lead_score`] as SQL over the row's own columns, so a write that changes a
/// counter can set the score from the values it just stored (one atomic
/// `UPDATE`, never a score computed from an earlier read).
pub static LEAD_SCORE_SQL: std::sync::LazyLock<String> = std::sync::LazyLock::new(|| {
    let sum = "(CASE WHEN email <> '' THEN 20 ELSE 0 END) \
+ (CASE WHEN COALESCE(name, '') <> '' THEN 10 ELSE 0 END) \
+ (CASE WHEN COALESCE(phone, '') <> '' THEN 15 ELSE 0 END) \
+ (CASE WHEN COALESCE(company, '') <> '' THEN 5 ELSE 0 END) \
+ (CASE WHEN total_messages >= 10 THEN 20 WHEN total_messages > 0 THEN total_messages * 2 ELSE 0 END) \
+ (CASE WHEN total_page_views >= 10 THEN 10 WHEN total_page_views > 0 THEN total_page_views ELSE 0 END) \
+ (CASE WHEN sessions > 0 AND total_session_seconds > 0 THEN \
(CASE WHEN total_session_seconds / sessions >= 300 THEN 10 ELSE total_session_seconds / sessions / 30 END) ELSE 0 END) \
+ (CASE WHEN total_purchases >= 2 THEN 20 WHEN total_purchases > 0 THEN total_purchases * 10 ELSE 0 END)";
    // Capped at 100 (no LEAST/MIN that both databases share).
    format!("(CASE WHEN ({sum}) > 100 THEN 100 ELSE ({sum}) END)")
});

/// Sets the lead score of the customers `filter` picks from their stored
/// columns (inside the caller's transaction, after it changed them).
pub async fn refresh_lead_scores<C: ConnectionTrait>(
    conn: &C,
    filter: sea_orm::Condition,
) -> Result<(), DbErr> {
    customer::Entity::update_many()
        .col_expr(
            customer::Column::LeadScore,
            Expr::cust(LEAD_SCORE_SQL.as_str()),
        )
        .filter(filter)
        .exec(conn)
        .await?;
    Ok(())
}

/// `column + n`, for counters moved in place.
fn plus(column: customer::Column, n: i64) -> sea_orm::sea_query::SimpleExpr {
    sea_orm::sea_query::ExprTrait::add(Expr::col(column), n)
}

/// The engagement a stored customer shows.
pub fn engagement_of(c: &customer::Model) -> Engagement {
    Engagement {
        has_email: !c.email.is_empty(),
        has_name: c.name.as_deref().is_some_and(|v| !v.is_empty()),
        has_phone: c.phone.as_deref().is_some_and(|v| !v.is_empty()),
        has_company: c.company.as_deref().is_some_and(|v| !v.is_empty()),
        messages: c.total_messages,
        page_views: c.total_page_views,
        average_session_seconds: if c.sessions > 0 {
            c.total_session_seconds / c.sessions
        } else {
            0
        },
        purchases: c.total_purchases,
    }
}

/// A lead captured through a campaign's form.
#[derive(Debug, Clone)]
pub struct Lead<'a> {
    pub owner_id: &'a str,
    pub email: &'a str,
    pub name: Option<&'a str>,
    pub phone: Option<&'a str>,
    pub company: Option<&'a str>,
    /// Everything the form collected, as JSON.
    pub collected_data: &'a str,
    pub campaign_id: &'a str,
    pub campaign_name: &'a str,
    pub visitor_id: &'a str,
    /// Visitor messages in the conversation that produced the lead.
    pub messages: i64,
    /// True the first time this conversation produces a lead.
    pub new_conversation: bool,
}

/// Creates the owner's customer for `lead.email`, or updates the existing one
/// (new values fill in, nothing is blanked; a customer stays a customer).
pub async fn upsert_lead<C: ConnectionTrait>(
    conn: &C,
    lead: &Lead<'_>,
    now: DateTime<Utc>,
) -> Result<customer::Model, DbErr> {
    let email = lead.email.trim().to_lowercase();
    // Locked (PostgreSQL; SQLite writers already hold the database's write
    // lock) so the collected data merged below is the stored data.
    let existing = customer::Entity::find()
        .filter(customer::Column::OwnerId.eq(lead.owner_id))
        .filter(customer::Column::Email.eq(&email))
        .lock_exclusive()
        .one(conn)
        .await?;
    let conversations = i64::from(lead.new_conversation);
    let messages = if lead.new_conversation {
        lead.messages
    } else {
        0
    };
    let filled = |value: Option<&str>| {
        value
            .map(str::trim)
            .filter(|v| !v.is_empty())
            .map(str::to_string)
    };
    let merged = |stored: &str| {
        let mut data: serde_json::Map<String, serde_json::Value> =
            serde_json::from_str(stored).unwrap_or_default();
        if let Ok(serde_json::Value::Object(new)) = serde_json::from_str(lead.collected_data) {
            data.extend(new);
        }
        serde_json::Value::Object(data).to_string()
    };
    let Some(found) = existing else {
        // What the visitor did before leaving their email counts from the start.
        let before = entities::visitor_activity::Entity::find_by_id((
            lead.owner_id.to_string(),
            lead.visitor_id.to_string(),
        ))
        .one(conn)
        .await?;
        let (page_views, sessions, seconds) = before.map_or((0, 0, 0), |a| {
            let sessions = if a.session_seconds > 0 {
                a.sessions.max(1)
            } else {
                a.sessions
            };
            (a.page_views, sessions, a.session_seconds)
        });
        let mut model = customer::Model {
            id: ca_core::ids::new_id().to_string(),
            owner_id: lead.owner_id.to_string(),
            email,
            name: filled(lead.name),
            phone: filled(lead.phone),
            company: filled(lead.company),
            notes: None,
            conversion_status: "lead".into(),
            lead_score: 0,
            total_conversations: conversations.max(1),
            total_messages: lead.messages,
            total_page_views: page_views,
            total_session_seconds: seconds,
            sessions,
            total_purchases: 0,
            revenue_paise: 0,
            source_campaign_id: Some(lead.campaign_id.to_string()),
            source_campaign: Some(lead.campaign_name.to_string()),
            collected_data: merged("{}"),
            visitor_id: Some(lead.visitor_id.to_string()),
            last_conversation_date: Some(now),
            created_at: now,
            updated_at: now,
        };
        model.lead_score = lead_score(&engagement_of(&model));
        return customer::ActiveModel::from(model).insert(conn).await;
    };
    // Counters move by what this lead adds (never written back from the read
    // above), new values fill in and nothing is blanked.
    let mut update = customer::Entity::update_many()
        .col_expr(
            customer::Column::TotalConversations,
            plus(customer::Column::TotalConversations, conversations),
        )
        .col_expr(
            customer::Column::TotalMessages,
            plus(customer::Column::TotalMessages, messages),
        )
        .col_expr(
            customer::Column::CollectedData,
            Expr::value(merged(&found.collected_data)),
        )
        .col_expr(customer::Column::VisitorId, Expr::value(lead.visitor_id))
        .col_expr(customer::Column::LastConversationDate, Expr::value(now))
        .col_expr(customer::Column::UpdatedAt, Expr::value(now));
    for (column, value) in [
        (customer::Column::Name, lead.name),
        (customer::Column::Phone, lead.phone),
        (customer::Column::Company, lead.company),
    ] {
        if let Some(v) = filled(value) {
            update = update.col_expr(column, Expr::value(v));
        }
    }
    update
        .filter(customer::Column::Id.eq(found.id.as_str()))
        .exec(conn)
        .await?;
    refresh_lead_scores(
        conn,
        sea_orm::Condition::all().add(customer::Column::Id.eq(found.id.as_str())),
    )
    .await?;
    customer::Entity::find_by_id(found.id)
        .one(conn)
        .await?
        .ok_or_else(|| DbErr::RecordNotFound("customer".into()))
}

/// Records a purchase on the owner's customer last seen with `visitor_id`, if
/// any: status `customer`, purchase count, revenue and score. Returns whether
/// a customer was found.
pub async fn record_purchase<C: ConnectionTrait>(
    conn: &C,
    owner_id: &str,
    visitor_id: &str,
    value_paise: i64,
    now: DateTime<Utc>,
) -> Result<bool, DbErr> {
    let Some(found) = customer::Entity::find()
        .filter(customer::Column::OwnerId.eq(owner_id))
        .filter(customer::Column::VisitorId.eq(visitor_id))
        .one(conn)
        .await?
    else {
        return Ok(false);
    };
    customer::Entity::update_many()
        .col_expr(
            customer::Column::TotalPurchases,
            plus(customer::Column::TotalPurchases, 1),
        )
        .col_expr(
            customer::Column::RevenuePaise,
            plus(customer::Column::RevenuePaise, value_paise),
        )
        .col_expr(customer::Column::ConversionStatus, Expr::value("customer"))
        .col_expr(customer::Column::UpdatedAt, Expr::value(now))
        .filter(customer::Column::Id.eq(found.id.as_str()))
        .exec(conn)
        .await?;
    refresh_lead_scores(
        conn,
        sea_orm::Condition::all().add(customer::Column::Id.eq(found.id.as_str())),
    )
    .await?;
    Ok(true)
}

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
    use entities::visitor_activity;
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

/// How many customers exist on the platform (from the kept counts).
pub async fn count_all<C: ConnectionTrait>(conn: &C) -> Result<u64, DbErr> {
    let total: Option<Option<i64>> = entities::customer_count::Entity::find()
        .select_only()
        .column_as(
            sea_orm::sea_query::Expr::expr(sea_orm::sea_query::Func::cast_as(
                sea_orm::sea_query::Func::sum(Expr::col(entities::customer_count::Column::N)),
                sea_orm::sea_query::Alias::new("BIGINT"),
            )),
            "n",
        )
        .into_tuple()
        .one(conn)
        .await?;
    Ok(u64::try_from(total.flatten().unwrap_or(0)).unwrap_or(0))
}

/// The owner's customers per source campaign (from the kept counts).
pub async fn count_by_campaign<C: ConnectionTrait>(
    conn: &C,
    owner_id: &str,
) -> Result<HashMap<String, u64>, DbErr> {
    let mut out: HashMap<String, u64> = HashMap::new();
    for row in entities::customer_count::Entity::find()
        .filter(entities::customer_count::Column::OwnerId.eq(owner_id))
        .all(conn)
        .await?
    {
        if !row.campaign_id.is_empty() {
            *out.entry(row.campaign_id).or_default() += u64::try_from(row.n).unwrap_or(0);
        }
    }
    Ok(out)
}

/// The owner's customers created since `since`.
pub async fn count_since<C: ConnectionTrait>(
    conn: &C,
    owner_id: &str,
    since: DateTime<Utc>,
) -> Result<u64, DbErr> {
    use sea_orm::PaginatorTrait;
    customer::Entity::find()
        .filter(customer::Column::OwnerId.eq(owner_id))
        .filter(customer::Column::CreatedAt.gte(since))
        .count(conn)
        .await
}

/// The owner's newest customers.
pub async fn recent<C: ConnectionTrait>(
    conn: &C,
    owner_id: &str,
    n: u64,
) -> Result<Vec<customer::Model>, DbErr> {
    use sea_orm::QueryOrder;
    customer::Entity::find()
        .filter(customer::Column::OwnerId.eq(owner_id))
        .order_by_desc(customer::Column::CreatedAt)
        .limit(n)
        .all(conn)
        .await
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn score_follows_the_documented_rule() {
        assert_eq!(lead_score(&Engagement::default()), 0);
        let email_only = Engagement {
            has_email: true,
            ..Engagement::default()
        };
        assert_eq!(lead_score(&email_only), 20);
        let chatty = Engagement {
            has_email: true,
            has_name: true,
            messages: 4,
            page_views: 3,
            average_session_seconds: 95,
            ..Engagement::default()
        };
        assert_eq!(lead_score(&chatty), 20 + 10 + 8 + 3 + 3);
        let everything = Engagement {
            has_email: true,
            has_name: true,
            has_phone: true,
            has_company: true,
            messages: 50,
            page_views: 50,
            average_session_seconds: 3600,
            purchases: 5,
        };
        assert_eq!(lead_score(&everything), 100);
    }
}
