//! Wire types of the owner's conversation calls.

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};

use ca_campaigns::dto::ReplyStats;
use ca_core::paging::Pagination;

use crate::dto::{CollectedDataOut, UserContext};

/// Query of the conversation lists.
#[derive(Debug, Clone, Default, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct ListQuery {
    /// From 1 (default 1).
    #[param(schema_with = ca_core::paging::page_schema)]
    pub page: Option<String>,
    /// 1–100 (default 10).
    #[param(schema_with = ca_core::paging::limit_schema)]
    pub limit: Option<String>,
    /// `active` or `completed`.
    #[param(schema_with = status_schema)]
    pub status: Option<String>,
    /// `conversion`, `dismissal` or `none`.
    #[param(schema_with = outcome_schema)]
    pub outcome: Option<String>,
    /// Part of the last message or of the collected name, email, phone or company.
    pub search: Option<String>,
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
    #[param(schema_with = ca_core::paging::id_schema)]
    pub before: Option<String>,
    /// 1–100 (default 20).
    #[param(schema_with = ca_core::paging::limit_schema)]
    pub limit: Option<String>,
}

/// Query of the analytics.
#[derive(Debug, Clone, Default, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct PeriodQuery {
    /// `1d`, `7d` (default), `30d`, `90d` or `365d`.
    #[param(schema_with = ca_core::period::period_schema)]
    pub period: Option<String>,
}

/// Conversation analytics over a period.
#[derive(Debug, Clone, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ConversationAnalyticsResponse {
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

/// The API document's conversation `status` filter (empty or `all`: every one).
fn status_schema() -> utoipa::openapi::schema::Schema {
    ca_core::paging::blank_or_one_of(&["all", "active", "completed"])
}

/// The API document's conversation `outcome` filter (empty or `all`: every one).
fn outcome_schema() -> utoipa::openapi::schema::Schema {
    ca_core::paging::blank_or_one_of(&["all", "conversion", "dismissal", "none"])
}
