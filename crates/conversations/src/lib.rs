//! Visitor conversations: the assistant that answers a leaving visitor and the
//! rules that decide when a conversion form is offered.

pub mod assistant;
pub mod forms;
