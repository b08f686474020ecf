//! Visitor conversations: the assistant that answers a leaving visitor and the
//! rules that decide when a conversion form is offered.

pub mod assistant;
pub mod dto;
pub mod entities;
pub mod error;
pub mod forms;
pub mod owner;
pub mod service;
#[cfg(feature = "testing")]
pub mod testing;

pub use error::ConversationError;
pub use service::{ConversationService, Limits};
