//! `webhook_events`: every event an owner's endpoints may receive, stored
//! in the same transaction as the fact it reports (the outbox). Its id is
//! the `webhook-id` of every delivery, retries and resends included.

use sea_orm::entity::prelude::*;

#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "webhook_events")]
pub struct Model {
    /// `msg_…`.
    #[sea_orm(primary_key, auto_increment = false)]
    pub id: String,
    pub owner_id: String,
    /// `lead.created`, …
    pub event_type: String,
    /// The whole JSON body sent: `{id, type, timestamp, data}`.
    pub payload: String,
    pub created_at: DateTimeUtc,
    /// Whether its deliveries were made: the request path stores the event
    /// alone, and the delivery worker adds one delivery per endpoint that
    /// wants it, then sets this.
    pub fanned_out: bool,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
