//! The visitor side of ConvertAssist: what the embedded widget reads and
//! reports. The public configuration (cached, with an ETag) in `config`, page
//! views and impressions through a batched writer in `events`, leads (the
//! form submission, customer records and conversions) in `leads`, and
//! purchases with revenue attribution in `purchases`. Other crates' tables are
//! changed only through their own functions, inside this crate's transaction
//! when a step must be atomic.

mod config;
pub mod dto;
pub mod entities;
pub mod error;
pub mod event;
mod events;
pub mod journal;
mod leads;
mod origin;
mod purchases;
pub mod retention;
mod service;
mod sites;
pub mod writer;

pub use error::TrackingError;
pub use origin::{is_preview, origin_allowed};
pub use service::{CachedConfig, TrackingConfig, TrackingService};
