//! `webhook_deliveries`: one event on its way to one endpoint, with where it
//! stands (`pending` until delivered or given up: `delivered`, `failed`),
//! how many attempts were made and when the next one is due.

use sea_orm::entity::prelude::*;

#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "webhook_deliveries")]
pub struct Model {
    #[sea_orm(primary_key, auto_increment = false)]
    pub id: String,
    pub event_id: String,
    pub endpoint_id: String,
    pub owner_id: String,
    pub event_type: String,
    /// `pending`, `delivered` or `failed`.
    pub status: String,
    pub attempts: i32,
    /// Attempts made before the last "Resend": the retry schedule counts
    /// from there, so a resent delivery gets every retry again.
    pub schedule_from: i32,
    pub next_attempt_at: Option<DateTimeUtc>,
    /// A sender working on it holds it until then.
    pub claimed_until: Option<DateTimeUtc>,
    pub created_at: DateTimeUtc,
    pub updated_at: DateTimeUtc,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
