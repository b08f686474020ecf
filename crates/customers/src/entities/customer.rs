//! `customers`: one row per owner and email.

use sea_orm::entity::prelude::*;

#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "customers")]
pub struct Model {
    #[sea_orm(primary_key, auto_increment = false)]
    pub id: String,
    pub owner_id: String,
    /// Lower-cased; unique per owner.
    pub email: String,
    pub name: Option<String>,
    pub phone: Option<String>,
    pub company: Option<String>,
    pub notes: Option<String>,
    /// `lead`, `prospect`, `customer` or `churned`.
    pub conversion_status: String,
    /// 0–100, see [`crate::lead_score`].
    pub lead_score: i32,
    pub total_conversations: i64,
    pub total_messages: i64,
    pub total_page_views: i64,
    pub total_session_seconds: i64,
    pub sessions: i64,
    pub total_purchases: i64,
    pub revenue_paise: i64,
    pub source_campaign_id: Option<String>,
    /// The source campaign's name, kept when the campaign is deleted.
    pub source_campaign: Option<String>,
    #[sea_orm(column_type = "Text")]
    pub collected_data: String,
    /// The widget visitor id the customer was last seen with.
    pub visitor_id: Option<String>,
    pub last_conversation_date: Option<DateTimeUtc>,
    pub created_at: DateTimeUtc,
    pub updated_at: DateTimeUtc,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
