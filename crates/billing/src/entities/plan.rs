//! `plans`: what owners can buy. The id is the plan's slug.

use sea_orm::entity::prelude::*;

#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "plans")]
pub struct Model {
    #[sea_orm(primary_key, auto_increment = false)]
    pub id: String,
    pub name: String,
    pub display_name: String,
    /// Whole rupees per interval.
    pub price: i64,
    pub currency: String,
    /// `monthly` or `yearly`.
    pub interval: String,
    /// JSON array of feature lines.
    #[sea_orm(column_type = "Text")]
    pub features: String,
    pub limit_campaigns: i32,
    pub limit_visitors_per_month: i64,
    /// -1 means unlimited.
    pub limit_ai_conversations: i64,
    pub custom_branding: bool,
    pub api_access: bool,
    pub white_label: bool,
    pub priority_support: bool,
    pub phone_support: bool,
    pub popular: bool,
    pub active: bool,
    /// Only invited emails may buy it.
    pub invite_only: bool,
    /// Sold through sales, never through checkout.
    pub contact_sales: bool,
    pub sort_order: i32,
    pub created_at: DateTimeUtc,
    pub updated_at: DateTimeUtc,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
