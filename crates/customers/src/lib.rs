//! Customers: the leads and buyers an owner's campaigns produce.

pub mod dto;
pub mod entities;
pub mod error;
pub mod notifications;
pub mod report;
pub mod service;

pub use error::CustomerError;
pub use service::CustomerService;

use std::collections::HashMap;

use chrono::{DateTime, Utc};
use sea_orm::sea_query::Expr;
use sea_orm::{
    ActiveModelTrait, ColumnTrait, ConnectionTrait, DbErr, EntityTrait, QueryFilter, Set,
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
    let existing = customer::Entity::find()
        .filter(customer::Column::OwnerId.eq(lead.owner_id))
        .filter(customer::Column::Email.eq(&email))
        .one(conn)
        .await?;
    let conversations = i64::from(lead.new_conversation);
    let is_new = existing.is_none();
    let mut model = match existing {
        Some(c) => {
            let mut m = c.clone();
            m.total_conversations += conversations;
            m.total_messages += if lead.new_conversation {
                lead.messages
            } else {
                0
            };
            m
        }
        None => customer::Model {
            id: ca_core::ids::new_id().to_string(),
            owner_id: lead.owner_id.to_string(),
            email: email.clone(),
            name: None,
            phone: None,
            company: None,
            notes: None,
            conversion_status: "lead".into(),
            lead_score: 0,
            total_conversations: conversations.max(1),
            total_messages: lead.messages,
            total_page_views: 0,
            total_session_seconds: 0,
            sessions: 0,
            total_purchases: 0,
            revenue_paise: 0,
            source_campaign_id: Some(lead.campaign_id.to_string()),
            source_campaign: Some(lead.campaign_name.to_string()),
            collected_data: "{}".into(),
            visitor_id: None,
            last_conversation_date: None,
            created_at: now,
            updated_at: now,
        },
    };
    for (slot, value) in [
        (&mut model.name, lead.name),
        (&mut model.phone, lead.phone),
        (&mut model.company, lead.company),
    ] {
        if let Some(v) = value.map(str::trim).filter(|v| !v.is_empty()) {
            *slot = Some(v.to_string());
        }
    }
    let mut data: serde_json::Map<String, serde_json::Value> =
        serde_json::from_str(&model.collected_data).unwrap_or_default();
    if let Ok(serde_json::Value::Object(new)) = serde_json::from_str(lead.collected_data) {
        data.extend(new);
    }
    model.collected_data = serde_json::Value::Object(data).to_string();
    model.visitor_id = Some(lead.visitor_id.to_string());
    model.last_conversation_date = Some(now);
    model.updated_at = now;
    model.lead_score = lead_score(&engagement_of(&model));
    let active = customer::ActiveModel {
        id: Set(model.id.clone()),
        owner_id: Set(model.owner_id.clone()),
        email: Set(model.email.clone()),
        name: Set(model.name.clone()),
        phone: Set(model.phone.clone()),
        company: Set(model.company.clone()),
        notes: Set(model.notes.clone()),
        conversion_status: Set(model.conversion_status.clone()),
        lead_score: Set(model.lead_score),
        total_conversations: Set(model.total_conversations),
        total_messages: Set(model.total_messages),
        total_page_views: Set(model.total_page_views),
        total_session_seconds: Set(model.total_session_seconds),
        sessions: Set(model.sessions),
        total_purchases: Set(model.total_purchases),
        revenue_paise: Set(model.revenue_paise),
        source_campaign_id: Set(model.source_campaign_id.clone()),
        source_campaign: Set(model.source_campaign.clone()),
        collected_data: Set(model.collected_data.clone()),
        visitor_id: Set(model.visitor_id.clone()),
        last_conversation_date: Set(model.last_conversation_date),
        created_at: Set(model.created_at),
        updated_at: Set(model.updated_at),
    };
    if is_new {
        active.insert(conn).await
    } else {
        active.update(conn).await
    }
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
    let mut m = found.clone();
    m.total_purchases += 1;
    m.revenue_paise += value_paise;
    m.conversion_status = "customer".into();
    let score = lead_score(&engagement_of(&m));
    let mut active: customer::ActiveModel = found.into();
    active.total_purchases = Set(m.total_purchases);
    active.revenue_paise = Set(m.revenue_paise);
    active.conversion_status = Set(m.conversion_status);
    active.lead_score = Set(score);
    active.updated_at = Set(now);
    active.update(conn).await?;
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
    let visitors: Vec<String> = views.keys().cloned().collect();
    for chunk in visitors.chunks(500) {
        let known = customer::Entity::find()
            .filter(customer::Column::OwnerId.eq(owner_id))
            .filter(customer::Column::VisitorId.is_in(chunk.to_vec()))
            .all(conn)
            .await?;
        for c in known {
            let n = c
                .visitor_id
                .as_ref()
                .and_then(|v| views.get(v))
                .copied()
                .unwrap_or(0);
            let mut after = c.clone();
            after.total_page_views += n;
            let score = lead_score(&engagement_of(&after));
            customer::Entity::update_many()
                .col_expr(
                    customer::Column::TotalPageViews,
                    sea_orm::sea_query::ExprTrait::add(
                        Expr::col(customer::Column::TotalPageViews),
                        n,
                    ),
                )
                .col_expr(customer::Column::LeadScore, Expr::value(score))
                .filter(customer::Column::Id.eq(c.id))
                .exec(conn)
                .await?;
        }
    }
    Ok(())
}

/// How many customers exist on the platform (from the kept counts).
pub async fn count_all<C: ConnectionTrait>(conn: &C) -> Result<u64, DbErr> {
    use sea_orm::QuerySelect;
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
    use sea_orm::{QueryOrder, QuerySelect};
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
