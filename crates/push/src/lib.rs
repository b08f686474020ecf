//! Browser push notifications (Web Push): an owner switches them on in a
//! browser (`subscriptions`) and is told of new leads and successful
//! payments there. Other crates report facts with [`events::enqueue`] in the
//! transaction of the fact (the outbox); the sender (`sender`) groups them
//! into notifications, encrypts each for its browser (`crypto`, RFC 8291)
//! and posts it to the browser's push service with the server's VAPID
//! token (`vapid`, RFC 8292).

pub mod config;
pub mod crypto;
pub mod dto;
pub mod entities;
pub mod error;
pub mod events;
pub mod retention;
pub mod sender;
pub mod service;
pub mod subscriptions;
pub mod vapid;

pub use error::PushError;
pub use events::{Notice, enqueue};
pub use service::{PushConfig, PushService};
pub use vapid::VapidKeys;
