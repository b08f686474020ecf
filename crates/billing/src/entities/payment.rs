//! `payments`: one row per checkout attempt, keyed by the provider's `txnid`.
//! Status moves forward: `pending` → `success`, `failure` or `expired`;
//! `success` → `refunded`; a late success after `failure` is applied and
//! marked (`late_success_at`).

use sea_orm::entity::prelude::*;

/// Phone sent to the payment page when the account has none.
pub const DEFAULT_PHONE: &str = "9999999999";

#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "payments")]
pub struct Model {
    #[sea_orm(primary_key, auto_increment = false)]
    pub id: String,
    /// Unique, at most 25 characters (PayU's limit).
    pub txnid: String,
    pub owner_id: String,
    pub plan_id: String,
    /// `monthly` or `annual`.
    pub cycle: String,
    /// Computed by the server from the plan; never taken from a client.
    pub amount_paise: i64,
    pub currency: String,
    pub productinfo: String,
    pub firstname: String,
    pub email: String,
    pub phone: String,
    /// `payu`, `simulator` (the built-in stand-in) or `demo` (the demo page).
    pub provider: String,
    pub status: PaymentStatus,
    /// How the buyer paid, as the provider names it (`CC`, `UPI`, `NB`, …).
    pub payment_mode: Option<String>,
    /// The provider's own payment id.
    pub mihpayid: Option<String>,
    pub bank_ref_num: Option<String>,
    pub unmapped_status: Option<String>,
    pub error_message: Option<String>,
    /// The provider's fields as received (JSON), for support.
    pub raw: Option<String>,
    /// From the gap-free invoice sequence, given when the payment succeeds.
    pub invoice_number: Option<i64>,
    /// The subscription period this payment paid for.
    pub period_start: Option<DateTimeUtc>,
    pub period_end: Option<DateTimeUtc>,
    pub created_at: DateTimeUtc,
    pub updated_at: DateTimeUtc,
    pub settled_at: Option<DateTimeUtc>,
    /// When the provider was last asked about this payment.
    pub checked_at: Option<DateTimeUtc>,
    /// When the owner was emailed the receipt of this (successful) payment.
    pub receipt_sent_at: Option<DateTimeUtc>,
    /// Where the payment was made: the simulator, the demo page, PayU's test
    /// environment or live. Only live payments reach a live ad account.
    pub mode: CheckoutMode,
    /// The buyer's browser at checkout (for the server's own Purchase event).
    pub client_user_agent: Option<String>,
    pub client_ip: Option<String>,
    /// The dashboard page checkout started from.
    pub source_url: Option<String>,
    pub refunded_at: Option<DateTimeUtc>,
    pub refund_amount_paise: Option<i64>,
    /// The provider's id of the refund request.
    pub refund_id: Option<String>,
    /// Staff refunded the money but let the owner keep the period paid for.
    pub refund_keeps_access: Option<bool>,
    /// A success the provider reported after the payment had failed.
    pub late_success_at: Option<DateTimeUtc>,
    /// When staff started a refund, before PayU was asked (cleared when
    /// PayU refuses): a second request for the same money is refused.
    pub refund_started_at: Option<DateTimeUtc>,
    /// When PayU accepted a refund of this payment that it has not made yet
    /// (PayU's request id is in `refund_id`): the payment stays successful
    /// until PayU says the money went back.
    pub refund_requested_at: Option<DateTimeUtc>,
    /// When PayU was last asked about that refund.
    pub refund_checked_at: Option<DateTimeUtc>,
    /// Why PayU could not make the last refund asked of it.
    pub refund_error: Option<String>,
}

/// Where a payment was made.
#[derive(
    Debug,
    Clone,
    Copy,
    PartialEq,
    Eq,
    Hash,
    EnumIter,
    DeriveActiveEnum,
    serde::Serialize,
    serde::Deserialize,
    utoipa::ToSchema,
)]
#[sea_orm(rs_type = "String", db_type = "String(StringLen::N(10))")]
#[serde(rename_all = "lowercase")]
pub enum CheckoutMode {
    /// The built-in stand-in of PayU's page: no money moves.
    #[sea_orm(string_value = "simulator")]
    Simulator,
    /// The demo page (no payment provider configured): no money moves.
    #[sea_orm(string_value = "demo")]
    Demo,
    /// PayU's test environment: no real money moves.
    #[sea_orm(string_value = "test")]
    Test,
    /// PayU, live.
    #[sea_orm(string_value = "live")]
    Live,
}

/// Where a payment stands. It only moves forward from `pending`.
#[derive(
    Debug,
    Clone,
    Copy,
    PartialEq,
    Eq,
    Hash,
    EnumIter,
    DeriveActiveEnum,
    serde::Serialize,
    serde::Deserialize,
    utoipa::ToSchema,
)]
#[sea_orm(rs_type = "String", db_type = "String(StringLen::N(8))")]
#[serde(rename_all = "lowercase")]
pub enum PaymentStatus {
    /// Created; the buyer has not paid (yet).
    #[sea_orm(string_value = "pending")]
    Pending,
    /// Paid: it has an invoice and started a period.
    #[sea_orm(string_value = "success")]
    Success,
    /// Not paid (declined, cancelled, failed).
    #[sea_orm(string_value = "failure")]
    Failure,
    /// Left unpaid past the provider's window ("Not completed"): no money
    /// moved; counted in no total.
    #[sea_orm(string_value = "expired")]
    Expired,
    /// Paid, then refunded (a credit note cancels its invoice).
    #[sea_orm(string_value = "refunded")]
    Refunded,
}

impl PaymentStatus {
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Pending => "pending",
            Self::Success => "success",
            Self::Failure => "failure",
            Self::Expired => "expired",
            Self::Refunded => "refunded",
        }
    }
}

impl std::fmt::Display for PaymentStatus {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
