//! Tables owned by the admin crate.

pub mod audit_entry;
