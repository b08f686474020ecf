//! `meta_events`: the outbox of Conversions API events.

use sea_orm::entity::prelude::*;

#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "meta_events")]
pub struct Model {
    #[sea_orm(primary_key, auto_increment = false)]
    pub id: String,
    /// Meta deduplicates on it (with the browser pixel, within 48 hours).
    pub event_id: String,
    /// `Lead` or `Purchase`.
    pub event_name: String,
    pub event_time: DateTimeUtc,
    /// The event as Meta receives it (JSON).
    pub payload: String,
    /// `pending`, `sent`, `failed` (Meta refused it), `not_forwarded` (no
    /// pixel configured, or a test purchase without a test event code) or
    /// `skipped` (a purchase that moved no money: never sent).
    pub status: String,
    pub attempts: i32,
    pub next_attempt_at: DateTimeUtc,
    pub claim_token: Option<String>,
    pub claimed_until: Option<DateTimeUtc>,
    pub last_error: Option<String>,
    pub created_at: DateTimeUtc,
    pub sent_at: Option<DateTimeUtc>,
    /// When the browser's copy of the event was taken (its cookies, user
    /// agent and address). The first copy counts; later ones are ignored,
    /// so nobody who learns an event's id can rewrite its attribution.
    pub browser_at: Option<DateTimeUtc>,
    /// A purchase made in PayU's test environment: sent only with Meta's
    /// test event code, so it lands in Test Events, never in the live data.
    pub test_event: bool,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
