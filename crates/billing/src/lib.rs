//! Plans, trials and subscriptions for ConvertAssist: what each owner may do
//! (their entitlement), paying for a plan through PayU (or the built-in
//! simulator of its hosted page), payment history and invoices, cancelling,
//! and the demo payment path.

pub mod calendar;
pub mod config;
pub mod currency;
pub mod demo;
pub mod details;
pub mod dto;
pub mod entities;
pub mod error;
pub mod invoices;
pub mod meter;
pub mod payments;
pub mod payu;
pub mod pdf;
pub mod plans;
pub mod receipts;
pub mod reconcile;
pub mod refunds;
pub mod service;
pub mod staff;
pub mod subscriptions;
pub mod usage;

pub use config::{BillingConfig, Gateway};
pub use error::BillingError;
pub use plans::{Entitlement, entitlement};
pub use service::BillingService;
