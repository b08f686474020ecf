//! Tables owned by the admin crate.

pub mod admin_note;
pub mod audit_entry;
