//! Tables owned by the webhooks crate.

pub mod attempt;
pub mod delivery;
pub mod endpoint;
pub mod event;
