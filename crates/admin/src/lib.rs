//! Running the platform: the admin dashboard's figures, user administration
//! (list, detail, change, delete, create, change plan, sign in as a user),
//! plan administration, trial settings, the superadmin's business figures,
//! system health, and the audit log of every staff action.

pub mod access;
pub mod audit;
pub(crate) mod audit_log;
pub mod audited;
pub mod dto;
pub mod entities;
pub mod error;
mod figures;
mod health;
mod operations;
mod payments;
pub mod permission;
mod plans;
pub mod service;
mod settings;
mod user_detail;
mod user_list;
mod users;

pub use audit::Actor;
pub use error::AdminError;
pub use service::{AdminService, WriterProbe};
