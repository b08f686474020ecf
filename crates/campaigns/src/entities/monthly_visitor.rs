//! `monthly_visitors`: one row per owner, month (`YYYY-MM`) and visitor; the
//! count of rows is the owner's monthly visitor usage.

use sea_orm::entity::prelude::*;

#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "monthly_visitors")]
pub struct Model {
    #[sea_orm(primary_key, auto_increment = false)]
    pub owner_id: String,
    #[sea_orm(primary_key, auto_increment = false)]
    pub period: String,
    #[sea_orm(primary_key, auto_increment = false)]
    pub visitor_id: String,
    pub first_seen_at: DateTimeUtc,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
