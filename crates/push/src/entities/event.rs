//! `push_events`: the outbox. A fact an owner is told of (a new lead, a
//! successful payment), written in the transaction of the fact; the sender
//! turns due events into notifications (several leads of a minute into
//! one) and marks them `notified_at`.

use sea_orm::entity::prelude::*;

#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "push_events")]
pub struct Model {
    #[sea_orm(primary_key, auto_increment = false)]
    pub id: String,
    pub owner_id: String,
    /// `lead` or `payment`.
    pub kind: String,
    /// What the notification says, as JSON (the customer's id, name and
    /// email; the payment's amount, plan and transaction id).
    pub detail: String,
    pub created_at: DateTimeUtc,
    /// When it went into a notification; none while waiting.
    pub notified_at: Option<DateTimeUtc>,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
