//! Tables owned by the tracking crate.

pub mod campaign_touch;
pub mod event_journal;
pub mod purchase;
