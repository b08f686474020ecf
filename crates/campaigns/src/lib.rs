//! Exit-intent campaigns: their settings, the plan-limit check on creation,
//! the owner's usage, analytics counters and the embed scripts.

pub mod counters;
pub mod dto;
pub mod entities;
pub mod error;
pub mod quota;
pub mod retention;
pub mod scripts;
pub mod service;
pub mod settings;

pub use error::CampaignError;
pub use service::CampaignService;
