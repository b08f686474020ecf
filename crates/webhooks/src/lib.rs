//! Outgoing webhooks: leads, conversations and purchases go where the owner
//! works. Owners add endpoints (`endpoints`); the other crates report
//! events with [`events::enqueue`] in the transaction of the fact they
//! report (the outbox, one statement on the request path); the sender
//! (`sender`) gives each event a delivery per endpoint that wants it and
//! delivers them signed per the
//! Standard Webhooks specification (`signing`) to checked destinations
//! (`safety`), with retries and a delivery log (`deliveries`); a Mailchimp
//! audience is a ready-made destination (`mailchimp`).

mod answer;
pub mod config;
pub mod deliveries;
pub mod dto;
pub mod endpoints;
pub mod entities;
pub mod error;
pub mod events;
pub mod mailchimp;
pub mod retention;
pub mod safety;
pub mod sender;
pub mod service;
pub mod signing;

pub use error::WebhookError;
pub use events::{Event, EventType, enqueue};
pub use service::{WebhookConfig, WebhookService};
