//! Wire types of the plans and billing API.

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::entities::plan;

/// What a plan allows (-1 means unlimited).
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema, PartialEq, Eq)]
#[serde(rename_all = "camelCase")]
pub struct PlanLimits {
    pub campaigns: i32,
    pub visitors_per_month: i64,
    pub ai_conversations: i64,
    pub custom_branding: bool,
    pub api_access: bool,
    pub white_label: bool,
    pub priority_support: bool,
    pub phone_support: bool,
}

/// A plan as clients read it.
#[derive(Debug, Clone, Serialize, ToSchema, PartialEq, Eq)]
#[serde(rename_all = "camelCase")]
pub struct PlanOut {
    pub id: String,
    #[serde(rename = "_id")]
    pub underscore_id: String,
    /// Internal name (lowercase, hyphens).
    pub name: String,
    pub display_name: String,
    /// Whole rupees per interval.
    pub price: i64,
    pub currency: String,
    /// `monthly` or `yearly`.
    pub interval: String,
    pub features: Vec<String>,
    pub limits: PlanLimits,
    pub popular: bool,
    pub active: bool,
    pub sort_order: i32,
    /// Only invited accounts may buy it.
    pub invite_only: bool,
    /// Sold through sales ("Contact Sales"), not checkout.
    pub contact_sales: bool,
}

impl From<&plan::Model> for PlanOut {
    fn from(p: &plan::Model) -> Self {
        Self {
            id: p.id.clone(),
            underscore_id: p.id.clone(),
            name: p.name.clone(),
            display_name: p.display_name.clone(),
            price: p.price,
            currency: p.currency.clone(),
            interval: p.interval.clone(),
            features: serde_json::from_str(&p.features).unwrap_or_default(),
            limits: PlanLimits {
                campaigns: p.limit_campaigns,
                visitors_per_month: p.limit_visitors_per_month,
                ai_conversations: p.limit_ai_conversations,
                custom_branding: p.custom_branding,
                api_access: p.api_access,
                white_label: p.white_label,
                priority_support: p.priority_support,
                phone_support: p.phone_support,
            },
            popular: p.popular,
            active: p.active,
            sort_order: p.sort_order,
            invite_only: p.invite_only,
            contact_sales: p.contact_sales,
        }
    }
}

/// `{success, data: [plan]}`.
#[derive(Debug, Serialize, ToSchema)]
pub struct PlansResponse {
    pub success: bool,
    pub data: Vec<PlanOut>,
}

/// `{success, data: plan}`.
#[derive(Debug, Serialize, ToSchema)]
pub struct PlanResponse {
    pub success: bool,
    pub data: PlanOut,
}

/// `POST /api/billing/checkout` and `POST /api/billing/mock-payment-success`.
#[derive(Debug, Clone, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct PlanChoiceIn {
    #[serde(default)]
    pub plan_id: String,
}

/// Where the browser goes to pay.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct CheckoutData {
    pub checkout_url: String,
}

/// `{success, data: {checkoutUrl}}`.
#[derive(Debug, Serialize, ToSchema)]
pub struct CheckoutResponse {
    pub success: bool,
    pub data: CheckoutData,
}
