//! `experiment_counts`: what one variant recorded on one day (UTC).

use sea_orm::entity::prelude::*;

#[derive(Clone, Debug, PartialEq, DeriveEntityModel)]
#[sea_orm(table_name = "experiment_counts")]
pub struct Model {
    #[sea_orm(primary_key, auto_increment = false)]
    pub variant_id: String,
    #[sea_orm(primary_key, auto_increment = false)]
    pub day: Date,
    pub test_id: String,
    /// Visitors the test counted for the first time that day.
    pub visitors: i64,
    pub impressions: i64,
    pub conversations: i64,
    pub leads: i64,
    pub purchases: i64,
    pub revenue_paise: i64,
    /// Sum of the squares of each purchase's value in rupees (the spread of
    /// revenue per visitor is computed from it).
    pub revenue_squares: f64,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
