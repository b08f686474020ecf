//! A widget event as the writer stores it: a page view, an impression, or a
//! report of engaged time, for one visitor of one campaign.

use chrono::{DateTime, Utc};

/// What happened.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    PageView,
    Impression,
    /// Engaged time on a page, in whole seconds; `new_session` when the
    /// report began a new browsing session.
    Engagement {
        seconds: u32,
        new_session: bool,
    },
}

/// One accepted event.
#[derive(Debug, Clone)]
pub struct Event {
    pub kind: Kind,
    pub owner_id: String,
    pub campaign_id: String,
    pub visitor_id: String,
    pub at: DateTime<Utc>,
    /// A page view's visitor counts toward the owner's monthly visitors
    /// (their plan's quota). False for new visitor ids past the daily
    /// allowance of one client address: served, not counted, so a stranger
    /// cannot use up an owner's quota from one machine.
    pub counts_visitor: bool,
    /// An impression of a visitor in a running A/B test: the test arm it
    /// counts for (checked when the event was accepted).
    pub arm: Option<Arm>,
}

/// The A/B test arm an event counts for.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Arm {
    pub test_id: String,
    pub variant_id: String,
}
