//! Tables owned by the customers crate.

pub mod customer;
pub mod customer_count;
pub mod lead_notification;
pub mod visitor_activity;
