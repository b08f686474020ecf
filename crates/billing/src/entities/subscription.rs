//! `subscriptions`: an owner's paid subscription: plan, billing cycle, the
//! period paid for and whether it ends at the period's end (cancelled). The
//! owner's current plan and status for limits stay on the user row, which
//! billing sets through `ca_auth::subscription`.

use sea_orm::entity::prelude::*;

#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "subscriptions")]
pub struct Model {
    #[sea_orm(primary_key, auto_increment = false)]
    pub owner_id: String,
    pub plan_id: String,
    /// `monthly` or `annual`.
    pub cycle: String,
    /// `active` or `expired`.
    pub status: String,
    pub current_period_start: DateTimeUtc,
    pub current_period_end: DateTimeUtc,
    /// Cancelled: access continues until `current_period_end`, then free.
    pub cancel_at_period_end: bool,
    pub cancelled_at: Option<DateTimeUtc>,
    pub last_txnid: Option<String>,
    pub updated_at: DateTimeUtc,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
