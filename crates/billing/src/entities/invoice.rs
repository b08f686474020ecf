//! `invoices`: issued documents, a tax invoice when a payment succeeds and a
//! credit note when it is refunded. Each row is a copy of the seller, the
//! buyer and the tax at the time of issue and is never updated; its number
//! comes from the same gap-free series (`invoice_sequence`) in the
//! transaction that issues it.

use sea_orm::entity::prelude::*;

/// `invoice` (a tax invoice) or `credit_note`.
pub const INVOICE: &str = "invoice";
pub const CREDIT_NOTE: &str = "credit_note";

#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "invoices")]
pub struct Model {
    #[sea_orm(primary_key, auto_increment = false)]
    pub id: String,
    pub payment_id: String,
    pub owner_id: String,
    pub kind: String,
    pub number: i64,
    /// A credit note's: the number of the invoice it reverses.
    pub original_number: Option<i64>,
    pub issued_at: DateTimeUtc,
    pub seller_name: String,
    pub seller_address: String,
    pub seller_gstin: Option<String>,
    pub seller_state_code: Option<String>,
    pub buyer_name: String,
    pub buyer_email: String,
    pub buyer_phone: String,
    pub buyer_address: Option<String>,
    pub buyer_state_code: Option<String>,
    pub buyer_gstin: Option<String>,
    /// GST state code of the place of supply.
    pub place_of_supply: Option<String>,
    pub sac: String,
    pub description: String,
    /// Hundredths of a percent (18 % is 1800).
    pub gst_rate_bp: i32,
    pub taxable_paise: i64,
    pub cgst_paise: i64,
    pub sgst_paise: i64,
    pub igst_paise: i64,
    pub total_paise: i64,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
