//! Wire types of the plans and billing API.

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use ca_auth::dto::SubscriptionStatus;

use crate::entities::payment::PaymentStatus;
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
    /// Whole units of `currency` per `interval`.
    pub price: i64,
    /// ISO 4217 code the price is in.
    pub currency: String,
    /// `monthly` or `yearly`: what one payment of `price` pays for.
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
    /// Owners can buy it through checkout: checkout (PayU India) charges
    /// INR only, so a plan in another currency, like a contact-sales plan,
    /// is arranged with sales and set by staff.
    pub checkout_available: bool,
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
            checkout_available: !p.contact_sales
                && crate::currency::payable_by_checkout(&p.currency),
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
    #[schema(required = true, min_length = 1, pattern = r"\S")]
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

/// `POST /api/payment/initialize`. The plan (`udf2`, or `planId`) and the
/// cycle (`udf4`: `monthly` or `annual`) decide the amount; any amount or
/// product text a client sends is ignored.
#[derive(Debug, Clone, Default, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct InitializeIn {
    /// Ignored: the server computes the amount from the plan.
    #[schema(value_type = Option<f64>)]
    pub amount: Option<serde_json::Value>,
    /// Ignored: the server names the product.
    pub productinfo: Option<String>,
    pub firstname: Option<String>,
    /// Ignored: receipts go to the account's email.
    pub email: Option<String>,
    /// Phone for the payment page; the account's, else 9999999999.
    pub phone: Option<String>,
    /// Another name for the plan id.
    pub subscription_id: Option<String>,
    pub plan_id: Option<String>,
    /// Ignored: always the signed-in user.
    pub udf1: Option<String>,
    /// The plan id.
    pub udf2: Option<String>,
    /// Always `subscription`.
    pub udf3: Option<String>,
    /// `monthly` (default) or `annual`.
    pub udf4: Option<String>,
    /// Pay for the plan the owner is on again, before its period ends: the
    /// new period starts where the current one ends ("Renew now").
    pub renew: Option<bool>,
}

/// Where the browser posts the payment form, and its fields.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct InitializeData {
    /// The hosted payment page's URL (PayU's, or this server's simulator).
    pub action: String,
    /// The form fields, hash included.
    pub params: std::collections::BTreeMap<String, String>,
    pub txnid: String,
    /// Rupees.
    pub amount: f64,
}

/// `{success, data: {action, params}}`.
#[derive(Debug, Serialize, ToSchema)]
pub struct InitializeResponse {
    pub success: bool,
    pub data: InitializeData,
}

/// `POST /payment/verify`.
#[derive(Debug, Clone, Deserialize, ToSchema)]
pub struct VerifyIn {
    #[serde(default)]
    #[schema(required = true, min_length = 1, pattern = r"\S")]
    pub txnid: String,
}

/// A payment's state as the result pages need it.
#[derive(Debug, Clone, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct VerifyData {
    pub status: PaymentStatus,
    /// Rupees.
    pub amount: f64,
    pub plan_id: String,
    /// `monthly` or `annual`.
    pub cycle: String,
}

/// `{success, data, txnid, productinfo, firstname, email, phone}`.
#[derive(Debug, Serialize, ToSchema)]
pub struct VerifyResponse {
    pub success: bool,
    pub data: VerifyData,
    pub txnid: String,
    pub productinfo: String,
    pub firstname: String,
    pub email: String,
    pub phone: String,
}

/// `data` of the status call.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct StatusData {
    pub status: PaymentStatus,
    /// Rupees.
    pub amount: f64,
    pub mihpayid: Option<String>,
}

/// `{success, data: {status, amount, mihpayid}}`.
#[derive(Debug, Serialize, ToSchema)]
pub struct StatusResponse {
    pub success: bool,
    pub data: StatusData,
}

/// One payment in the owner's history.
#[derive(Debug, Clone, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct PaymentOut {
    #[serde(rename = "_id")]
    pub id: String,
    pub txnid: String,
    /// What was bought, e.g. `Basic Plan (Monthly)`.
    pub productinfo: String,
    /// Rupees.
    pub amount: f64,
    pub status: PaymentStatus,
    /// How it was paid (`CC`, `UPI`, …); null until the provider says.
    pub payment_mode: Option<String>,
    pub created_at: chrono::DateTime<chrono::Utc>,
    /// When it went through, failed or was given up; null while pending.
    pub settled_at: Option<chrono::DateTime<chrono::Utc>>,
    /// The provider's payment id.
    pub mihpayid: Option<String>,
    pub firstname: String,
    pub email: String,
    pub phone: String,
    pub plan_id: String,
    /// `monthly` or `annual`.
    pub cycle: String,
    /// Set once the payment succeeded.
    pub invoice_number: Option<String>,
    /// The credit note issued when the payment was refunded.
    pub credit_note_number: Option<String>,
    /// `payu`, `simulator` or `demo`.
    pub provider: String,
    /// Why it failed, when it did.
    pub error_message: Option<String>,
}

/// `{success, data: [payment]}`, newest first.
#[derive(Debug, Serialize, ToSchema)]
pub struct HistoryResponse {
    pub success: bool,
    pub data: Vec<PaymentOut>,
}

/// Who issues invoices (from `CA_INVOICE_*`).
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct Seller {
    pub name: String,
    pub address: String,
    pub gstin: Option<String>,
    /// GST state code of the seller's registration (e.g. `29`).
    pub state_code: Option<String>,
}

/// The seller or the buyer as printed on an issued invoice.
#[derive(Debug, Clone, Serialize, ToSchema, PartialEq, Eq)]
#[serde(rename_all = "camelCase")]
pub struct InvoiceParty {
    /// Legal name (the seller) or the account's name (the buyer).
    pub name: String,
    /// Postal address, lines separated by newlines.
    pub address: Option<String>,
    pub email: Option<String>,
    pub phone: Option<String>,
    pub gstin: Option<String>,
    /// GST state code, e.g. `29`.
    pub state_code: Option<String>,
    /// e.g. `Karnataka`.
    pub state_name: Option<String>,
}

/// Taxable value, GST and total of one document, in rupees (computed in
/// paise: the parts add up to the total exactly).
#[derive(Debug, Clone, Serialize, ToSchema, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct TaxLines {
    pub taxable_value: f64,
    /// Central and state GST, charged when the place of supply is the
    /// seller's state (each half the rate); 0 otherwise.
    pub cgst: f64,
    pub sgst: f64,
    /// Integrated GST, charged when the place of supply is another state; 0 otherwise.
    pub igst: f64,
    pub total: f64,
    /// The total in words, Indian numbering (lakh, crore), rupees and paise.
    pub amount_in_words: String,
}

/// The credit note issued when a payment was refunded.
#[derive(Debug, Clone, Serialize, ToSchema, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct CreditNoteOut {
    /// From the invoices' gap-free series, e.g. `CA-000043`.
    pub number: String,
    pub issued_at: chrono::DateTime<chrono::Utc>,
    /// What is credited back (the whole invoice).
    pub lines: TaxLines,
}

/// An invoice for a successful (or since refunded) payment.
#[derive(Debug, Clone, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct InvoiceOut {
    /// From a gap-free sequence, e.g. `CA-000042`.
    pub invoice_number: String,
    pub issued_at: chrono::DateTime<chrono::Utc>,
    pub seller: InvoiceParty,
    /// As they were when the payment settled; later profile edits do not change it.
    pub buyer: InvoiceParty,
    /// `paid`, or `refunded` (then `creditNote` is set).
    pub status: String,
    /// GST state code of the place of supply.
    pub place_of_supply_code: Option<String>,
    /// e.g. `Karnataka (29)`.
    pub place_of_supply: Option<String>,
    /// Services accounting code.
    pub sac: String,
    /// What was sold, e.g. `Basic Plan (Monthly)`.
    pub description: String,
    /// GST rate in percent.
    pub gst_rate: f64,
    /// `intra` (CGST + SGST) or `inter` (IGST).
    pub tax_type: String,
    pub lines: TaxLines,
    pub credit_note: Option<CreditNoteOut>,
    pub plan_id: String,
    pub plan_name: String,
    /// `monthly` or `annual`.
    pub cycle: String,
    pub period_start: Option<chrono::DateTime<chrono::Utc>>,
    pub period_end: Option<chrono::DateTime<chrono::Utc>>,
    /// Rupees.
    pub amount: f64,
    pub currency: String,
    pub paid_at: chrono::DateTime<chrono::Utc>,
    pub payment_mode: Option<String>,
    pub provider: String,
    pub txnid: String,
    pub mihpayid: Option<String>,
}

/// `{success, data: invoice}`.
#[derive(Debug, Serialize, ToSchema)]
pub struct InvoiceResponse {
    pub success: bool,
    pub data: InvoiceOut,
}

/// The owner's subscription.
#[derive(Debug, Clone, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct SubscriptionOut {
    pub plan_id: String,
    pub plan_name: String,
    /// The plan's price in whole units of `currency` per `interval`.
    pub price: i64,
    /// ISO 4217 code of the plan's price.
    pub currency: String,
    /// `monthly` or `yearly`.
    pub interval: String,
    pub status: SubscriptionStatus,
    /// `monthly` or `annual` while paid; null otherwise.
    pub cycle: Option<String>,
    /// End of the period on the plan (for a paid plan, the next billing date).
    pub subscription_ends_at: Option<chrono::DateTime<chrono::Utc>>,
    pub trial_ends_at: Option<chrono::DateTime<chrono::Utc>>,
    pub trial_remaining_days: i64,
    /// Cancelled: stays on the plan until `subscriptionEndsAt`, then free.
    pub cancel_at_period_end: bool,
    pub cancelled_at: Option<chrono::DateTime<chrono::Utc>>,
    /// On a plan staff set without a payment: nothing is billed (no next
    /// billing date) and there is nothing to cancel.
    pub set_by_staff: bool,
    /// The invite-only plans this owner has been invited to, and so may buy.
    pub invited_plans: Vec<String>,
}

/// `{success, data: subscription}`.
#[derive(Debug, Serialize, ToSchema)]
pub struct SubscriptionResponse {
    pub success: bool,
    pub data: SubscriptionOut,
}

/// `{success, message, data: subscription}`.
#[derive(Debug, Serialize, ToSchema)]
pub struct CancelResponse {
    pub success: bool,
    pub message: String,
    pub data: SubscriptionOut,
}

/// `usage.plan`.
#[derive(Debug, Clone, Serialize, ToSchema, PartialEq, Eq)]
#[serde(rename_all = "camelCase")]
pub struct UsagePlan {
    pub plan_id: String,
    pub status: SubscriptionStatus,
}

/// `usage.campaigns`.
#[derive(Debug, Clone, Serialize, ToSchema, PartialEq, Eq)]
pub struct UsageCount {
    pub current: i64,
    pub limit: i64,
}

/// `usage.visitors`.
#[derive(Debug, Clone, Serialize, ToSchema, PartialEq, Eq)]
#[serde(rename_all = "camelCase")]
pub struct UsageVisitors {
    pub current: i64,
    pub limit: i64,
    /// The popup keeps showing past the limit for 10 % more visitors (a
    /// grace) and stops at this many until the month starts again; -1 when
    /// unlimited.
    pub stop_at: i64,
    /// When the monthly count starts again.
    pub reset_date: DateTime<Utc>,
}

/// What the owner uses of their plan.
#[derive(Debug, Clone, Serialize, ToSchema, PartialEq, Eq)]
pub struct Usage {
    pub plan: UsagePlan,
    pub campaigns: UsageCount,
    pub visitors: UsageVisitors,
}

/// `{success, data: usage}`.
#[derive(Debug, Serialize, ToSchema)]
pub struct UsageResponse {
    pub success: bool,
    pub data: Usage,
}

/// `PUT /api/billing/details`: where the owner's invoices are addressed.
#[derive(Debug, Clone, Default, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct BillingDetailsIn {
    /// Postal address (up to 500 characters; lines separated by newlines).
    #[serde(default)]
    #[schema(required = true, min_length = 1, max_length = 500)]
    pub address: String,
    /// GST state code of the state or union territory, e.g. `29` (see `states`).
    #[serde(default)]
    #[schema(required = true, min_length = 2, max_length = 2)]
    pub state_code: String,
    /// The business's GSTIN, to claim input tax credit; blank or absent for none.
    /// It must have been issued in the chosen state.
    pub gstin: Option<String>,
}

/// A state or union territory and its GST state code.
#[derive(Debug, Clone, Serialize, ToSchema, PartialEq, Eq)]
pub struct StateOut {
    pub code: String,
    pub name: String,
}

/// The owner's billing details; empty until saved.
#[derive(Debug, Clone, Serialize, ToSchema, PartialEq, Eq)]
#[serde(rename_all = "camelCase")]
pub struct BillingDetailsOut {
    /// The name invoices are made out to: the account's name.
    pub name: String,
    pub address: Option<String>,
    pub state_code: Option<String>,
    pub state_name: Option<String>,
    pub gstin: Option<String>,
    pub updated_at: Option<DateTime<Utc>>,
    /// Every state and union territory to choose from, by GST state code.
    pub states: Vec<StateOut>,
}

/// `{success, data: details}`.
#[derive(Debug, Serialize, ToSchema)]
pub struct BillingDetailsResponse {
    pub success: bool,
    pub data: BillingDetailsOut,
}
