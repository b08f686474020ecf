//! Tables owned by the campaigns crate.

pub mod campaign;
pub mod monthly_visitor;
pub mod visitor_quota_notice;
