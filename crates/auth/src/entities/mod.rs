//! Tables owned by the accounts crate.

pub mod email_outbox;
pub mod password_reset_token;
pub mod platform_setting;
pub mod user;
