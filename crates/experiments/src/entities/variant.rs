//! `experiment_variants`: the control (position 0) and the variants of a test.

use sea_orm::entity::prelude::*;

#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "experiment_variants")]
pub struct Model {
    #[sea_orm(primary_key, auto_increment = false)]
    pub id: String,
    pub test_id: String,
    pub position: i32,
    pub name: String,
    /// Share of traffic in whole percent.
    pub weight: i32,
    /// A partial campaign `settings` object as JSON (`{}` for the control).
    #[sea_orm(column_type = "Text")]
    pub overrides: String,
    pub paused: bool,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
