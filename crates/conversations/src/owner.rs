//! The owner's view of conversations (seed 001 §7): lists, one conversation
//! with its messages in pages, analytics, CSV export and delete. Every query
//! filters by the owner in SQL.

use chrono::{DateTime, Duration, Utc};
use sea_orm::sea_query::{Expr, ExprTrait, Func, LikeExpr};
use sea_orm::{
    ColumnTrait, Condition, ConnectionTrait, DatabaseConnection, EntityTrait, Order,
    PaginatorTrait, QueryFilter, QueryOrder, QuerySelect,
};
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};

use ca_campaigns::dto::ReplyStats;
use ca_campaigns::entities::campaign;
use ca_core::FieldErrors;

use crate::dto::{CollectedDataOut, UserContext};
use crate::entities::{conversation, message};
use crate::error::ConversationError;

/// Query of the conversation lists.
#[derive(Debug, Clone, Default, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct ListQuery {
    /// From 1 (default 1).
    pub page: Option<String>,
    /// 1–100 (default 10).
    pub limit: Option<String>,
    /// `active` or `completed`.
    pub status: Option<String>,
    /// `conversion`, `dismissal` or `none`.
    pub outcome: Option<String>,
    /// Part of the last message or of the collected name, email, phone or company.
    pub search: Option<String>,
}

/// Page information.
#[derive(Debug, Clone, Serialize, ToSchema, PartialEq, Eq)]
pub struct Pagination {
    pub page: u64,
    pub limit: u64,
    pub total: u64,
    pub pages: u64,
}

/// `analytics` of a conversation.
#[derive(Debug, Clone, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ConversationCounts {
    pub total_messages: i64,
    pub visitor_messages: i64,
}

/// The campaign a conversation belongs to.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct CampaignRef {
    #[serde(rename = "_id")]
    pub id: String,
    pub name: String,
}

/// A conversation in a list.
#[derive(Debug, Clone, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ConversationOut {
    #[serde(rename = "_id")]
    pub id: String,
    pub conversation_id: String,
    /// `active` or `completed`.
    pub status: String,
    /// `conversion`, `dismissal` or `none`.
    pub outcome: String,
    pub created_at: DateTime<Utc>,
    pub updated_at: DateTime<Utc>,
    /// The newest message (up to 500 characters).
    pub last_message: String,
    pub analytics: ConversationCounts,
    pub collected_data: CollectedDataOut,
    pub user_context: UserContext,
    pub campaign: CampaignRef,
}

/// One message.
#[derive(Debug, Clone, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ConversationMessage {
    #[serde(rename = "_id")]
    pub id: i64,
    /// `user` (the visitor), `assistant` or `system`.
    pub role: String,
    pub content: String,
    pub created_at: DateTime<Utc>,
    /// The form offered with this message, if any.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub form_id: Option<String>,
}

/// A conversation with one page of its messages.
#[derive(Debug, Clone, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ConversationDetail {
    #[serde(flatten)]
    pub conversation: ConversationOut,
    /// Oldest first: the newest `limit` messages, or those before `before`.
    pub messages: Vec<ConversationMessage>,
    /// Older messages remain (ask again with `before` = the first message's `_id`).
    pub has_more: bool,
}

/// `{success, conversations, pagination}`.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct ConversationListResponse {
    pub success: bool,
    pub conversations: Vec<ConversationOut>,
    pub pagination: Pagination,
}

/// `{success, conversation}`.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct ConversationResponse {
    pub success: bool,
    pub conversation: ConversationDetail,
}

/// Query of one conversation's messages.
#[derive(Debug, Clone, Default, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct MessagesQuery {
    /// Only messages older than this message id.
    pub before: Option<String>,
    /// 1–100 (default 20).
    pub limit: Option<String>,
}

/// Query of the analytics.
#[derive(Debug, Clone, Default, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct PeriodQuery {
    /// `1d`, `7d` (default), `30d`, `90d` or `365d`.
    pub period: Option<String>,
}

/// Conversation analytics over a period.
#[derive(Debug, Clone, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct AnalyticsResponse {
    pub success: bool,
    pub period: String,
    pub total_conversations: u64,
    pub active: u64,
    pub completed: u64,
    pub conversions: u64,
    pub dismissals: u64,
    /// Conversions per 100 conversations (2 decimals).
    pub conversion_rate: f64,
    /// Messages per conversation (1 decimal).
    pub average_messages: f64,
    /// The assistant's reply timing (all time).
    pub assistant: ReplyStats,
}

fn number(raw: Option<&str>, field: &str, default: u64, max: u64, errors: &mut FieldErrors) -> u64 {
    match raw.map(str::trim).filter(|v| !v.is_empty()) {
        None => default,
        Some(v) => match v.parse::<u64>() {
            Ok(n) if (1..=max).contains(&n) => n,
            _ => {
                errors.insert(
                    field.into(),
                    vec![format!("{field} must be a whole number from 1 to {max}")],
                );
                default
            }
        },
    }
}

fn like(term: &str) -> LikeExpr {
    let escaped: String = term
        .chars()
        .flat_map(|c| match c {
            '%' | '_' | '\\' => vec!['\\', c],
            other => vec![other],
        })
        .collect();
    LikeExpr::new(format!("%{escaped}%")).escape('\\')
}

fn summary(c: &conversation::Model, campaign_name: &str) -> ConversationOut {
    ConversationOut {
        id: c.id.clone(),
        conversation_id: c.conversation_id.clone(),
        status: c.status.clone(),
        outcome: c.outcome.clone(),
        created_at: c.created_at,
        updated_at: c.last_activity_at,
        last_message: c.last_message.clone(),
        analytics: ConversationCounts {
            total_messages: c.total_messages,
            visitor_messages: c.visitor_messages,
        },
        collected_data: serde_json::from_str(&c.collected_data).unwrap_or_default(),
        user_context: serde_json::from_str(&c.user_context).unwrap_or_default(),
        campaign: CampaignRef {
            id: c.campaign_id.clone(),
            name: campaign_name.to_string(),
        },
    }
}

async fn names<C: ConnectionTrait>(
    conn: &C,
    owner_id: &str,
) -> Result<std::collections::HashMap<String, String>, ConversationError> {
    Ok(campaign::Entity::find()
        .filter(campaign::Column::OwnerId.eq(owner_id))
        .all(conn)
        .await?
        .into_iter()
        .map(|c| (c.id, c.name))
        .collect())
}

/// Checks a campaign id belongs to the owner.
async fn owned_campaign<C: ConnectionTrait>(
    conn: &C,
    owner_id: &str,
    campaign_id: &str,
) -> Result<(), ConversationError> {
    campaign::Entity::find()
        .filter(campaign::Column::Id.eq(campaign_id.trim()))
        .filter(campaign::Column::OwnerId.eq(owner_id))
        .one(conn)
        .await?
        .map(|_| ())
        .ok_or(ConversationError::CampaignNotFound)
}

/// One page of the owner's conversations (of one campaign when given), newest first.
pub async fn list<C: ConnectionTrait>(
    conn: &C,
    owner_id: &str,
    campaign_id: Option<&str>,
    q: &ListQuery,
) -> Result<ConversationListResponse, ConversationError> {
    let mut errors = FieldErrors::new();
    let page = number(q.page.as_deref(), "page", 1, 1_000_000, &mut errors);
    let limit = number(q.limit.as_deref(), "limit", 10, 100, &mut errors);
    let status = q
        .status
        .as_deref()
        .map(str::trim)
        .filter(|s| !s.is_empty() && *s != "all");
    if status.is_some_and(|s| !["active", "completed"].contains(&s)) {
        errors.insert(
            "status".into(),
            vec!["Status must be active or completed".into()],
        );
    }
    let outcome = q
        .outcome
        .as_deref()
        .map(str::trim)
        .filter(|s| !s.is_empty() && *s != "all");
    if outcome.is_some_and(|s| !["conversion", "dismissal", "none"].contains(&s)) {
        errors.insert(
            "outcome".into(),
            vec!["Outcome must be conversion, dismissal or none".into()],
        );
    }
    let search = q
        .search
        .as_deref()
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .map(str::to_lowercase);
    if search.as_ref().is_some_and(|s| s.chars().count() > 100) {
        errors.insert(
            "search".into(),
            vec!["Search can be at most 100 characters".into()],
        );
    }
    if !errors.is_empty() {
        return Err(ConversationError::invalid(errors));
    }
    if let Some(c) = campaign_id {
        owned_campaign(conn, owner_id, c).await?;
    }
    let mut query = conversation::Entity::find().filter(conversation::Column::OwnerId.eq(owner_id));
    if let Some(c) = campaign_id {
        query = query.filter(conversation::Column::CampaignId.eq(c.trim()));
    }
    if let Some(s) = status {
        query = query.filter(conversation::Column::Status.eq(s));
    }
    if let Some(o) = outcome {
        query = query.filter(conversation::Column::Outcome.eq(o));
    }
    if let Some(term) = &search {
        query = query.filter(
            Condition::any()
                .add(
                    Expr::expr(Func::lower(Expr::col(conversation::Column::LastMessage)))
                        .like(like(term)),
                )
                .add(
                    Expr::expr(Func::lower(Expr::col(conversation::Column::CollectedData)))
                        .like(like(term)),
                ),
        );
    }
    let total = query.clone().count(conn).await?;
    let rows = query
        .order_by(conversation::Column::CreatedAt, Order::Desc)
        .order_by(conversation::Column::Id, Order::Desc)
        .offset((page - 1) * limit)
        .limit(limit)
        .all(conn)
        .await?;
    let names = names(conn, owner_id).await?;
    Ok(ConversationListResponse {
        success: true,
        conversations: rows
            .iter()
            .map(|c| summary(c, names.get(&c.campaign_id).map_or("", String::as_str)))
            .collect(),
        pagination: Pagination {
            page,
            limit,
            total,
            pages: total.div_ceil(limit),
        },
    })
}

async fn find<C: ConnectionTrait>(
    conn: &C,
    owner_id: &str,
    id: &str,
) -> Result<conversation::Model, ConversationError> {
    let id = id.trim();
    conversation::Entity::find()
        .filter(conversation::Column::OwnerId.eq(owner_id))
        .filter(
            Condition::any()
                .add(conversation::Column::Id.eq(id))
                .add(conversation::Column::ConversationId.eq(id)),
        )
        .one(conn)
        .await?
        .ok_or(ConversationError::NotFound)
}

/// One conversation (by `_id` or `conversationId`) with a page of messages.
pub async fn get<C: ConnectionTrait>(
    conn: &C,
    owner_id: &str,
    id: &str,
    q: &MessagesQuery,
) -> Result<ConversationDetail, ConversationError> {
    let mut errors = FieldErrors::new();
    let limit = number(q.limit.as_deref(), "limit", 20, 100, &mut errors);
    let before = match q.before.as_deref().map(str::trim).filter(|b| !b.is_empty()) {
        None => None,
        Some(b) => match b.parse::<i64>() {
            Ok(n) if n > 0 => Some(n),
            _ => {
                errors.insert("before".into(), vec!["before must be a message id".into()]);
                None
            }
        },
    };
    if !errors.is_empty() {
        return Err(ConversationError::invalid(errors));
    }
    let c = find(conn, owner_id, id).await?;
    let mut query = message::Entity::find().filter(message::Column::ConversationId.eq(&c.id));
    if let Some(b) = before {
        query = query.filter(message::Column::Id.lt(b));
    }
    let mut rows = query
        .order_by_desc(message::Column::Id)
        .limit(limit + 1)
        .all(conn)
        .await?;
    let has_more = rows.len() as u64 > limit;
    rows.truncate(usize::try_from(limit).unwrap_or(usize::MAX));
    rows.reverse();
    let name = campaign::Entity::find_by_id(c.campaign_id.clone())
        .one(conn)
        .await?
        .map(|m| m.name)
        .unwrap_or_default();
    Ok(ConversationDetail {
        conversation: summary(&c, &name),
        messages: rows
            .into_iter()
            .map(|m| ConversationMessage {
                id: m.id,
                role: m.role,
                content: m.content,
                created_at: m.created_at,
                form_id: m.form_id,
            })
            .collect(),
        has_more,
    })
}

/// Deletes one of the owner's conversations with its messages.
pub async fn delete<C: ConnectionTrait>(
    conn: &C,
    owner_id: &str,
    id: &str,
) -> Result<(), ConversationError> {
    let c = find(conn, owner_id, id).await?;
    message::Entity::delete_many()
        .filter(message::Column::ConversationId.eq(&c.id))
        .exec(conn)
        .await?;
    conversation::Entity::delete_by_id(c.id).exec(conn).await?;
    Ok(())
}

/// `1d`, `7d`, `30d`, `90d` or `365d`.
pub fn period(raw: Option<&str>) -> Result<(String, Duration), ConversationError> {
    let p = raw.map(str::trim).filter(|p| !p.is_empty()).unwrap_or("7d");
    let days = match p {
        "1d" => 1,
        "7d" => 7,
        "30d" => 30,
        "90d" => 90,
        "365d" => 365,
        _ => {
            return Err(ConversationError::field(
                "period",
                "Period must be 1d, 7d, 30d, 90d or 365d",
            ));
        }
    };
    Ok((p.to_string(), Duration::days(days)))
}

/// Conversation figures over the period ending `now`.
pub async fn analytics(
    db: &DatabaseConnection,
    owner_id: &str,
    campaign_id: Option<&str>,
    name: String,
    length: Duration,
    now: DateTime<Utc>,
) -> Result<AnalyticsResponse, ConversationError> {
    if let Some(c) = campaign_id {
        owned_campaign(db, owner_id, c).await?;
    }
    let base = || {
        let mut q = conversation::Entity::find()
            .filter(conversation::Column::OwnerId.eq(owner_id))
            .filter(conversation::Column::CreatedAt.gte(now - length));
        if let Some(c) = campaign_id {
            q = q.filter(conversation::Column::CampaignId.eq(c.trim()));
        }
        q
    };
    let total = base().count(db).await?;
    let active = base()
        .filter(conversation::Column::Status.eq("active"))
        .count(db)
        .await?;
    let conversions = base()
        .filter(conversation::Column::Outcome.eq("conversion"))
        .count(db)
        .await?;
    let dismissals = base()
        .filter(conversation::Column::Outcome.eq("dismissal"))
        .count(db)
        .await?;
    let messages: Option<Option<i64>> = base()
        .select_only()
        .column_as(
            Expr::expr(Func::cast_as(
                Func::sum(Expr::col(conversation::Column::TotalMessages)),
                sea_orm::sea_query::Alias::new("BIGINT"),
            )),
            "m",
        )
        .into_tuple()
        .one(db)
        .await?;
    let messages = messages.flatten().unwrap_or(0);
    let round = |v: f64, places: f64| (v * places).round() / places;
    Ok(AnalyticsResponse {
        success: true,
        period: name,
        total_conversations: total,
        active,
        completed: total - active,
        conversions,
        dismissals,
        conversion_rate: if total == 0 {
            0.0
        } else {
            round(conversions as f64 / total as f64 * 100.0, 100.0)
        },
        average_messages: if total == 0 {
            0.0
        } else {
            round(messages as f64 / total as f64, 10.0)
        },
        assistant: crate::service::reply_stats(db, owner_id, campaign_id).await?,
    })
}

/// Query of the CSV export.
#[derive(Debug, Clone, Default, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct ExportQuery {
    /// `csv` (the default and only format).
    pub format: Option<String>,
}

/// The CSV header row of the conversations export.
pub const CSV_HEADER: [&str; 15] = [
    "Conversation ID",
    "Campaign",
    "Status",
    "Outcome",
    "Started",
    "Last Activity",
    "Messages",
    "Visitor Messages",
    "Name",
    "Email",
    "Phone",
    "Company",
    "Device",
    "Page",
    "Transcript",
];

/// One page of the export: conversations after `after` (by `_id`), with
/// their messages and campaign names, at most `size` conversations.
pub struct ExportPage {
    pub conversations: Vec<conversation::Model>,
    pub messages: std::collections::HashMap<String, Vec<message::Model>>,
}

/// Checks the export's campaign (when given) belongs to the owner.
pub async fn export_check<C: ConnectionTrait>(
    conn: &C,
    owner_id: &str,
    campaign_id: Option<&str>,
) -> Result<(), ConversationError> {
    if let Some(c) = campaign_id {
        owned_campaign(conn, owner_id, c).await?;
    }
    Ok(())
}

/// The next page of the export after `after`.
pub async fn export_page(
    db: &DatabaseConnection,
    owner_id: &str,
    campaign_id: Option<&str>,
    after: Option<&str>,
    size: u64,
) -> Result<ExportPage, ConversationError> {
    let mut q = conversation::Entity::find().filter(conversation::Column::OwnerId.eq(owner_id));
    if let Some(c) = campaign_id {
        q = q.filter(conversation::Column::CampaignId.eq(c.trim()));
    }
    if let Some(after) = after {
        q = q.filter(conversation::Column::Id.gt(after));
    }
    let conversations = q
        .order_by_asc(conversation::Column::Id)
        .limit(size)
        .all(db)
        .await?;
    let ids: Vec<String> = conversations.iter().map(|c| c.id.clone()).collect();
    let mut messages: std::collections::HashMap<String, Vec<message::Model>> =
        std::collections::HashMap::new();
    if !ids.is_empty() {
        for m in message::Entity::find()
            .filter(message::Column::ConversationId.is_in(ids))
            .order_by_asc(message::Column::Id)
            .all(db)
            .await?
        {
            messages
                .entry(m.conversation_id.clone())
                .or_default()
                .push(m);
        }
    }
    Ok(ExportPage {
        conversations,
        messages,
    })
}

/// CSV lines for one export page (the header first when `header`).
pub fn csv_chunk(
    page: &ExportPage,
    names: &std::collections::HashMap<String, String>,
    header: bool,
) -> Result<Vec<u8>, ConversationError> {
    use ca_core::spreadsheet::safe_cell;
    let fail =
        |e: csv::Error| ConversationError::Infra(ca_core::error::InfraError::Other(e.to_string()));
    let mut w = csv::Writer::from_writer(Vec::new());
    if header {
        w.write_record(CSV_HEADER).map_err(fail)?;
    }
    for c in &page.conversations {
        let out = summary(c, names.get(&c.campaign_id).map_or("", String::as_str));
        let opt = |v: &Option<String>| safe_cell(v.as_deref().unwrap_or(""));
        let transcript = page
            .messages
            .get(&c.id)
            .map(|ms| {
                ms.iter()
                    .map(|m| format!("{}: {}", m.role, m.content))
                    .collect::<Vec<_>>()
                    .join("\n")
            })
            .unwrap_or_default();
        w.write_record([
            out.conversation_id.clone(),
            safe_cell(&out.campaign.name),
            out.status.clone(),
            out.outcome.clone(),
            out.created_at.to_rfc3339(),
            out.updated_at.to_rfc3339(),
            out.analytics.total_messages.to_string(),
            out.analytics.visitor_messages.to_string(),
            opt(&out.collected_data.name),
            opt(&out.collected_data.email),
            opt(&out.collected_data.phone),
            opt(&out.collected_data.company),
            opt(&out.user_context.device_type),
            opt(&out.user_context.current_url),
            safe_cell(&transcript),
        ])
        .map_err(fail)?;
    }
    w.into_inner()
        .map_err(|e| ConversationError::Infra(ca_core::error::InfraError::Other(e.to_string())))
}

/// The owner's campaign names by id (for the export).
pub async fn campaign_names(
    db: &DatabaseConnection,
    owner_id: &str,
) -> Result<std::collections::HashMap<String, String>, ConversationError> {
    names(db, owner_id).await
}
