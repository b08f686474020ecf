//! `billing_jobs`: the last run of each background billing job (the
//! reconciliation with PayU), so staff see in the System tab when it ran,
//! what it did and what went wrong, whichever server ran it.

use sea_orm::entity::prelude::*;

#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "billing_jobs")]
pub struct Model {
    /// `reconciliation`.
    #[sea_orm(primary_key, auto_increment = false)]
    pub name: String,
    pub ran_at: DateTimeUtc,
    /// Payments asked about.
    pub checked: i64,
    /// Payments settled from the answers.
    pub settled: i64,
    /// Checkouts left unpaid past the window, now `expired`.
    pub expired: i64,
    /// What went wrong in the last run (PayU unreachable, or refusing the
    /// call with a wrong key or salt), if anything.
    pub error: Option<String>,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
