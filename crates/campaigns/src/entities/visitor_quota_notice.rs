//! `visitor_quota_notices`: which monthly-visitor warnings an owner was
//! sent (80 % and 100 % of their plan's visitors), once per month each.

use sea_orm::entity::prelude::*;

#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "visitor_quota_notices")]
pub struct Model {
    #[sea_orm(primary_key, auto_increment = false)]
    pub owner_id: String,
    /// `YYYY-MM`.
    #[sea_orm(primary_key, auto_increment = false)]
    pub period: String,
    /// 80 or 100 (percent of the plan's monthly visitors).
    #[sea_orm(primary_key, auto_increment = false)]
    pub level: i32,
    pub visitors: i64,
    pub visitor_limit: i64,
    pub sent_at: DateTimeUtc,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
