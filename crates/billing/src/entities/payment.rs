//! `payments`: one row per checkout attempt, keyed by the provider's `txnid`.
//! Status only moves forward: `pending` → `success` or `failure`.

use sea_orm::entity::prelude::*;

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
    /// `pending`, `success` or `failure`.
    pub status: String,
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
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
