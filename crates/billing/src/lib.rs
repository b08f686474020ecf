//! Plans, trials and subscriptions for ConvertAssist: what each owner may do
//! (their entitlement), paying for a plan through PayU (or the built-in
//! simulator of its hosted page), payment history and invoices, cancelling,
//! and the demo payment path.

pub mod dto;
pub mod entities;
pub mod error;
pub mod payments;
pub mod payu;
pub mod receipts;
pub mod service;
pub mod staff;
pub mod subscriptions;

pub use error::BillingError;
pub use payments::{BillingConfig, Gateway};
pub use service::{BillingService, Entitlement, entitlement};
