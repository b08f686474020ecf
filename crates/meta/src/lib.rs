//! Ad tracking through Meta's Conversions API: the dashboard's own events
//! (registration as `Lead`, a verified `Purchase`), normalised and hashed as
//! Meta requires, stored first in an outbox and sent in batches by a
//! background worker that retries with backoff and loses nothing on restart.
//! Without a pixel and token the events stay stored, marked not forwarded.

pub mod entity;
pub mod normalize;
pub mod outbox;
pub mod track;

pub use outbox::{MetaConfig, MetaError, Outbox, OutgoingEvent, UserData};
pub use track::{MetaService, Origin, TrackIn, TrackOut};
