//! Tables owned by the conversations crate.

pub mod conversation;
pub mod message;
