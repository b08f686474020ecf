//! Tables owned by the push crate.

pub mod delivery;
pub mod event;
pub mod subscription;
