//! Tables owned by the billing crate.

pub mod plan;
pub mod plan_invitation;
