//! `customer_counts`: how many customers an owner has per status and source
//! campaign. Database triggers on `customers` keep it (migration
//! `m20261122_000009`); nothing in Rust writes it.

use sea_orm::entity::prelude::*;

#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "customer_counts")]
pub struct Model {
    #[sea_orm(primary_key, auto_increment = false)]
    pub owner_id: String,
    #[sea_orm(primary_key, auto_increment = false)]
    pub conversion_status: String,
    /// The source campaign's id, or empty.
    #[sea_orm(primary_key, auto_increment = false)]
    pub campaign_id: String,
    /// The source campaign's name, or empty.
    #[sea_orm(primary_key, auto_increment = false)]
    pub campaign_name: String,
    pub n: i64,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
