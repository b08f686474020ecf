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
    /// `pending`, `sent`, `failed` (Meta refused it) or `not_forwarded`
    /// (no pixel configured).
    pub status: String,
    pub attempts: i32,
    pub next_attempt_at: DateTimeUtc,
    pub claim_token: Option<String>,
    pub claimed_until: Option<DateTimeUtc>,
    pub last_error: Option<String>,
    pub created_at: DateTimeUtc,
    pub sent_at: Option<DateTimeUtc>,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
