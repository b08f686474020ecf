//! Ad tracking through Meta's Conversions API: the dashboard's own events
//! (registration as `Lead`, a verified `Purchase`), normalised and hashed as
//! Meta requires, stored first in an outbox and sent in batches by a
//! background worker that retries with backoff and loses nothing on restart.
//! Without a pixel and token the events stay stored, marked not forwarded,
//! and are sent once both are configured. A batch Meta refuses is split to
//! find the event at fault; a rejected access token pauses sending and
//! keeps every event; the token travels only in the request body.

pub mod entity;
pub mod normalize;
pub mod outbox;
pub mod state;
pub mod track;

pub use outbox::{Delivery, MetaConfig, MetaError, Outbox, OutgoingEvent, UserData};
pub use track::{MetaPublicConfig, MetaService, Origin, TrackIn, TrackOut};
