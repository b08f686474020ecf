//! Visitor conversations: the assistant that answers a leaving visitor, the
//! rules that decide when a conversion form is offered, the public calls the
//! widget makes (`visitor`), and the owner's view in the dashboard
//! (`dashboard`), all through one [`ConversationService`].

pub mod allowance;
pub mod assistant;
pub mod dashboard;
pub mod dto;
pub mod entities;
pub mod error;
pub mod forms;
pub mod hooks;
pub mod search_index;
pub mod service;
mod start_facts;
pub mod start_writer;
pub mod stats;
#[cfg(feature = "testing")]
pub mod testing;
pub mod visitor;

pub use error::ConversationError;
pub use service::{ConversationService, Limits};
