//! Running the platform: the admin dashboard's figures, user administration
//! (list, detail, change, delete, create, change plan, sign in as a user),
//! plan administration, trial settings, the superadmin's business figures,
//! system health, and the audit log of every staff action.

pub mod audit;
pub mod dto;
pub mod entities;
pub mod error;
pub mod service;

pub use audit::Actor;
pub use error::AdminError;
pub use service::{AdminService, WriterProbe};
