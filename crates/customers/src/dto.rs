//! Wire types of the customers API.

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};

use crate::entities::customer;

/// Customer statuses.
pub const STATUSES: [&str; 4] = ["lead", "prospect", "customer", "churned"];

/// One customer.
#[derive(Debug, Clone, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct CustomerOut {
    #[serde(rename = "_id")]
    pub id: String,
    pub name: Option<String>,
    pub email: String,
    pub phone: Option<String>,
    pub company: Option<String>,
    pub notes: Option<String>,
    /// `lead`, `prospect`, `customer` or `churned`.
    pub conversion_status: String,
    /// 0–100.
    pub lead_score: i32,
    pub total_conversations: i64,
    pub total_page_views: i64,
    /// Seconds.
    pub average_session_duration: i64,
    pub total_purchases: i64,
    /// Rupees.
    pub total_revenue: f64,
    pub last_conversation_date: Option<DateTime<Utc>>,
    pub created_at: DateTime<Utc>,
    pub updated_at: DateTime<Utc>,
    /// The source campaign's name; absent means Direct.
    pub source_campaign: Option<String>,
}

impl CustomerOut {
    pub fn of(c: &customer::Model) -> Self {
        Self {
            id: c.id.clone(),
            name: c.name.clone(),
            email: c.email.clone(),
            phone: c.phone.clone(),
            company: c.company.clone(),
            notes: c.notes.clone(),
            conversion_status: c.conversion_status.clone(),
            lead_score: c.lead_score,
            total_conversations: c.total_conversations,
            total_page_views: c.total_page_views,
            average_session_duration: if c.sessions > 0 {
                c.total_session_seconds / c.sessions
            } else {
                0
            },
            total_purchases: c.total_purchases,
            total_revenue: c.revenue_paise as f64 / 100.0,
            last_conversation_date: c.last_conversation_date,
            created_at: c.created_at,
            updated_at: c.updated_at,
            source_campaign: c.source_campaign.clone(),
        }
    }
}

/// Query of `GET /api/customers/user`.
#[derive(Debug, Clone, Default, Deserialize, IntoParams)]
#[serde(rename_all = "camelCase")]
#[into_params(parameter_in = Query)]
pub struct ListQuery {
    /// From 1 (default 1).
    #[param(schema_with = ca_core::paging::page_schema)]
    pub page: Option<String>,
    /// 1–100 (default 20).
    #[param(schema_with = ca_core::paging::limit_schema)]
    pub limit: Option<String>,
    /// Part of the name, email, phone or company.
    pub search: Option<String>,
    /// `lead`, `prospect`, `customer`, `churned`, or empty / `all`.
    #[param(schema_with = status_schema)]
    pub status: Option<String>,
    /// `lastConversationDate` (default), `leadScore`, `totalConversations` or `createdAt`.
    #[param(schema_with = sort_by_schema)]
    pub sort_by: Option<String>,
    /// `desc` (default) or `asc`.
    #[param(schema_with = sort_order_schema)]
    pub sort_order: Option<String>,
}

/// `{success, customers, pagination}`.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct CustomerListResponse {
    pub success: bool,
    pub customers: Vec<CustomerOut>,
    pub pagination: ca_core::paging::Pagination,
}

/// `{success, customer}`.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct CustomerResponse {
    pub success: bool,
    pub customer: CustomerOut,
}

/// `PUT /api/customers/{id}`: the fields an owner may change. Absent fields
/// stay as they are; an empty text clears it (not the status).
#[derive(Debug, Clone, Default, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct CustomerUpdate {
    /// `lead`, `prospect`, `customer` or `churned`.
    pub conversion_status: Option<String>,
    /// Accepted as `status` too.
    pub status: Option<String>,
    pub name: Option<String>,
    pub phone: Option<String>,
    pub company: Option<String>,
    pub notes: Option<String>,
}

/// Query of the analytics overview.
#[derive(Debug, Clone, Default, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct PeriodQuery {
    /// `1d`, `7d`, `30d` (default), `90d` or `365d` (the same choices as the conversation analytics).
    #[param(schema_with = ca_core::period::period_schema)]
    pub period: Option<String>,
}

/// Customers per status.
#[derive(Debug, Clone, Default, Serialize, ToSchema, PartialEq, Eq)]
pub struct ConversionStats {
    pub lead: u64,
    pub prospect: u64,
    pub customer: u64,
    pub churned: u64,
}

/// A campaign and how many customers came from it.
#[derive(Debug, Clone, Serialize, ToSchema, PartialEq, Eq)]
#[serde(rename_all = "camelCase")]
pub struct TopCampaign {
    /// The campaign's id; null once the campaign is deleted.
    #[serde(rename = "_id")]
    pub id: Option<String>,
    /// The campaign's name (kept after the campaign is deleted).
    pub campaign_name: String,
    pub customers: u64,
}

/// The headline figures of one period.
#[derive(Debug, Clone, Default, Serialize, ToSchema, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct Headline {
    /// Customers at the end of the period.
    pub total_customers: u64,
    /// Customers created during the period.
    pub new_customers: u64,
    /// Customers with status `customer` among them, per 100 (2 decimals).
    pub conversion_rate: f64,
    /// Leads active (in a conversation) during the period.
    pub active_leads: u64,
}

/// `GET /api/customers/analytics/overview`.
#[derive(Debug, Clone, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct OverviewResponse {
    pub success: bool,
    pub period: String,
    pub total_customers: u64,
    pub new_customers: u64,
    pub conversion_rate: f64,
    pub active_leads: u64,
    pub conversion_stats: ConversionStats,
    /// At most 5, most customers first.
    pub top_campaigns: Vec<TopCampaign>,
    /// The same figures for the period before. Total and new customers are
    /// what was true then (by when each customer was created); statuses are
    /// today's and each customer's latest chat is the one counted, so the
    /// earlier conversion rate and active leads are not comparable, and the
    /// dashboard shows no change for those two.
    pub previous: Headline,
}

/// Query of the CSV export.
#[derive(Debug, Clone, Default, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct ExportQuery {
    /// `csv` (the default and only format).
    #[param(schema_with = ca_core::period::export_format_schema)]
    pub format: Option<String>,
}

/// The API document's customer `status` filter (empty or `all`: every one).
fn status_schema() -> utoipa::openapi::schema::Schema {
    ca_core::paging::blank_or_one_of(&["all", "lead", "prospect", "customer", "churned"])
}

/// The API document's `sortBy` (empty: `lastConversationDate`).
fn sort_by_schema() -> utoipa::openapi::schema::Schema {
    ca_core::paging::blank_or_one_of(&[
        "lastConversationDate",
        "leadScore",
        "totalConversations",
        "createdAt",
    ])
}

/// The API document's `sortOrder` (empty: `desc`).
fn sort_order_schema() -> utoipa::openapi::schema::Schema {
    ca_core::paging::blank_or_one_of(&["asc", "desc"])
}
