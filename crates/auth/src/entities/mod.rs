//! Tables owned by the accounts crate.

pub mod account_suspension;
pub mod email_outbox;
pub mod login_as_session;
pub mod password_reset_token;
pub mod platform_setting;
pub mod two_factor_challenge;
pub mod two_factor_recovery_code;
pub mod two_factor_secret;
pub mod user;
