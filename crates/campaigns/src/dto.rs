//! Wire types of the campaigns API.

use chrono::{DateTime, Utc};
use rust_decimal::Decimal;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::entities::campaign;
use crate::settings::CampaignSettings;

/// `POST /api/campaigns` and `PUT /api/campaigns/{id}`. PUT sends the whole
/// merged campaign; fields the server owns (`_id`, `analytics`, dates) are ignored.
#[derive(Debug, Clone, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct CampaignIn {
    #[serde(default)]
    #[schema(required = true, min_length = 1, max_length = 120, pattern = r"\S")]
    pub name: String,
    #[serde(default)]
    #[schema(
        required = true,
        max_length = 500,
        pattern = r"^https?://(localhost|[A-Za-z0-9-]+(\.[A-Za-z0-9-]+)+)(/[A-Za-z0-9._~/-]*)?$"
    )]
    pub website_url: String,
    /// Defaults to true on create; unchanged on update when absent.
    pub is_active: Option<bool>,
    /// Missing parts take the defaults.
    #[serde(default)]
    pub settings: CampaignSettings,
}

/// A campaign's counters.
#[derive(Debug, Clone, Serialize, ToSchema, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct CampaignAnalytics {
    pub impressions: i64,
    pub conversions: i64,
    /// Conversions ÷ impressions × 100, to 2 decimals; 0 without impressions.
    pub conversion_rate: f64,
    /// Attributed revenue in rupees, as the site reported it with `caTrack`
    /// (not verified; orders above the campaign's largest believable value
    /// are left out).
    #[schema(value_type = f64)]
    #[serde(with = "rust_decimal::serde::float")]
    pub revenue: Decimal,
    /// When a visitor last converted through the campaign.
    pub last_conversion_at: Option<chrono::DateTime<chrono::Utc>>,
    /// When the campaign's site first sent a counted page view, i.e. the
    /// script is installed and working (never set by the owner's Preview).
    pub first_page_view_at: Option<chrono::DateTime<chrono::Utc>>,
}

impl CampaignAnalytics {
    pub fn of(m: &campaign::Model) -> Self {
        Self {
            impressions: m.impressions,
            conversions: m.conversions,
            conversion_rate: ca_core::figures::percent(m.conversions, m.impressions),
            revenue: Decimal::new(m.revenue_paise, 2).normalize(),
            last_conversion_at: m.last_conversion_at,
            first_page_view_at: m.first_page_view_at,
        }
    }
}

/// A campaign as the dashboard reads it.
#[derive(Debug, Clone, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct CampaignOut {
    #[serde(rename = "_id")]
    pub underscore_id: String,
    pub id: String,
    pub name: String,
    pub website_url: String,
    pub is_active: bool,
    pub created_at: DateTime<Utc>,
    pub updated_at: DateTime<Utc>,
    pub analytics: CampaignAnalytics,
    pub settings: CampaignSettings,
}

impl CampaignOut {
    pub fn of(m: &campaign::Model) -> Self {
        let settings = serde_json::from_str(&m.settings).unwrap_or_else(|err| {
            tracing::error!(campaign = %m.id, %err, "stored settings do not parse; showing defaults");
            CampaignSettings::default()
        });
        Self {
            underscore_id: m.id.clone(),
            id: m.id.clone(),
            name: m.name.clone(),
            website_url: m.website_url.clone(),
            is_active: m.is_active,
            created_at: m.created_at,
            updated_at: m.updated_at,
            analytics: CampaignAnalytics::of(m),
            settings,
        }
    }
}

/// `GET /api/campaigns`.
#[derive(Debug, Serialize, ToSchema)]
pub struct CampaignListResponse {
    pub success: bool,
    pub campaigns: Vec<CampaignOut>,
    pub usage: ca_billing::dto::Usage,
}

/// `{success, campaign}`.
#[derive(Debug, Serialize, ToSchema)]
pub struct CampaignResponse {
    pub success: bool,
    pub campaign: CampaignOut,
}

/// `{success, analytics}`.
#[derive(Debug, Serialize, ToSchema)]
pub struct CampaignAnalyticsResponse {
    pub success: bool,
    pub analytics: CampaignAnalytics,
    /// How fast the campaign's assistant answered.
    pub assistant: ReplyStats,
    /// Orders left out of the revenue as implausible.
    #[serde(rename = "heldOrders")]
    pub held_orders: HeldOrders,
}

/// Orders the site reported above the campaign's largest believable value:
/// kept, not counted in its revenue.
#[derive(Debug, Clone, Default, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct HeldOrders {
    pub orders: u64,
    /// Their reported value together, in rupees.
    #[schema(value_type = f64)]
    #[serde(with = "rust_decimal::serde::float")]
    pub value: Decimal,
}

/// Reply timing over a campaign's (or an owner's) assistant replies; the
/// conversations crate computes it.
#[derive(Debug, Clone, Copy, Default, Serialize, ToSchema, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct ReplyStats {
    pub replies: i64,
    /// Average time to first token, in milliseconds (0 without replies).
    pub avg_first_token_ms: f64,
    /// Average time to the whole reply, in milliseconds (0 without replies).
    pub avg_total_ms: f64,
}

/// The embed tag for the owner's site.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct WidgetScriptResponse {
    pub success: bool,
    pub script: String,
}

/// The snippet for the owner's thank-you page.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ConversionScriptResponse {
    pub success: bool,
    pub script_content: String,
}
