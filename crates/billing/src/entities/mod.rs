//! Tables owned by the billing crate.

pub mod billing_detail;
pub mod billing_job;
pub mod invoice;
pub mod invoice_sequence;
pub mod payment;
pub mod plan;
pub mod plan_invitation;
pub mod subscription;
