//! One file per domain; each handler extracts the caller, calls one service
//! and returns a DTO.

pub mod auth;
pub mod billing;
pub mod campaigns;
pub mod conversations;
pub mod customers;
pub mod health;
pub mod test_widget;
pub mod widget;

use serde::Serialize;
use utoipa::ToSchema;

/// `{success, message}`.
#[derive(Debug, Serialize, ToSchema)]
pub struct MessageOut {
    pub success: bool,
    pub message: String,
}

impl MessageOut {
    pub fn ok(message: impl Into<String>) -> Self {
        Self {
            success: true,
            message: message.into(),
        }
    }
}
