//! `campaigns`: an owner's exit-intent campaigns with their counters.

use sea_orm::entity::prelude::*;

#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "campaigns")]
pub struct Model {
    #[sea_orm(primary_key, auto_increment = false)]
    pub id: String,
    pub owner_id: String,
    pub name: String,
    pub website_url: String,
    pub is_active: bool,
    /// [`crate::settings::CampaignSettings`] as JSON.
    #[sea_orm(column_type = "Text")]
    pub settings: String,
    /// Times the popup was shown.
    pub impressions: i64,
    /// Leads captured.
    pub conversions: i64,
    /// Attributed revenue in paise (exact; shown as rupees).
    pub revenue_paise: i64,
    pub created_at: DateTimeUtc,
    pub updated_at: DateTimeUtc,
    /// When a visitor last converted through it.
    pub last_conversion_at: Option<DateTimeUtc>,
    /// When the site first sent a counted page view (the script is installed).
    pub first_page_view_at: Option<DateTimeUtc>,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
