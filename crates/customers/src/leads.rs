//! Leads and buyers: the customer a campaign's form creates or updates, and
//! the purchases counted on them. These take the caller's transaction, so a
//! lead and the conversion it counts are stored together.

use chrono::{DateTime, Utc};
use sea_orm::sea_query::Expr;
use sea_orm::{
    ActiveModelTrait, ColumnTrait, ConnectionTrait, DbErr, EntityTrait, QueryFilter, QuerySelect,
};

use crate::entities::customer;
use crate::score::{engagement_of, lead_score, plus, refresh_lead_scores};

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
    Ok(upsert_lead_and_previous(conn, lead, now).await?.0)
}

/// [`upsert_lead`], with the customer as it was before (none when the lead
/// made a new customer).
pub async fn upsert_lead_and_previous<C: ConnectionTrait>(
    conn: &C,
    lead: &Lead<'_>,
    now: DateTime<Utc>,
) -> Result<(customer::Model, Option<customer::Model>), DbErr> {
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
        let before = crate::entities::visitor_activity::Entity::find_by_id((
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
        return Ok((customer::ActiveModel::from(model).insert(conn).await?, None));
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
    let now_stored = customer::Entity::find_by_id(found.id.clone())
        .one(conn)
        .await?
        .ok_or_else(|| DbErr::RecordNotFound("customer".into()))?;
    Ok((now_stored, Some(found)))
}

/// Records a purchase on the owner's customer last seen with `visitor_id`, if
/// any: status `customer`, purchase count, revenue and score, and tells the
/// owner's webhooks (`lead.updated`) when the status or score changed.
/// Returns whether a customer was found.
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
    if let Some(after) = customer::Entity::find_by_id(found.id.clone())
        .one(conn)
        .await?
    {
        crate::hooks::lead_updated(conn, &found, &after, now).await?;
    }
    Ok(true)
}
