//! Plans, trials and subscriptions for ConvertAssist: what each owner may do
//! (their entitlement), checkout and the demo payment path.

pub mod dto;
pub mod entities;
pub mod error;
pub mod service;

pub use error::BillingError;
pub use service::{BillingService, Entitlement, entitlement};
