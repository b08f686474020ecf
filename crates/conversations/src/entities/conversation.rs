//! `conversations`: one visitor's chat with a campaign's assistant.

use sea_orm::entity::prelude::*;

#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "conversations")]
pub struct Model {
    /// The stored id (`_id`).
    #[sea_orm(primary_key, auto_increment = false)]
    pub id: String,
    /// The public handle the widget holds (`conversationId`); unguessable.
    pub conversation_id: String,
    pub campaign_id: String,
    pub owner_id: String,
    pub visitor_id: String,
    pub session_id: Option<String>,
    /// `active` or `completed`.
    pub status: String,
    /// `none`, `conversion` or `dismissal`.
    pub outcome: String,
    /// False when the owner was past the plan's AI conversation limit at the
    /// start: the visitor gets the lead form instead of the assistant.
    pub ai_enabled: bool,
    pub total_messages: i64,
    pub visitor_messages: i64,
    /// Ids of the forms offered, in order, as a JSON array.
    #[sea_orm(column_type = "Text")]
    pub forms_offered: String,
    /// `visitor_messages` when the last form was offered.
    pub last_form_at: Option<i64>,
    /// `{name, email, phone, company, …}` as JSON.
    #[sea_orm(column_type = "Text")]
    pub collected_data: String,
    /// The collected values as searchable text ([`ca_core::search::values_text`]).
    #[sea_orm(column_type = "Text")]
    pub collected_text: String,
    /// `{deviceType, currentUrl, …}` as JSON.
    #[sea_orm(column_type = "Text")]
    pub user_context: String,
    /// The newest message, for list previews.
    #[sea_orm(column_type = "Text")]
    pub last_message: String,
    pub created_at: DateTimeUtc,
    pub last_activity_at: DateTimeUtc,
    pub completed_at: Option<DateTimeUtc>,
    /// The A/B test variant the conversation was counted for: the visitor's
    /// variant when it was an unpaused arm of the campaign's running test at
    /// the start (its lead counts for it, and it answers with that variant's
    /// greeting and forms); none otherwise.
    pub variant_id: Option<String>,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
