//! Tables owned by the admin crate.

pub mod admin_setting;
pub mod audit_entry;
