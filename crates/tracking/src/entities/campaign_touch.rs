//! `campaign_touches`: when a visitor last saw or used a campaign (attribution).

use sea_orm::entity::prelude::*;

#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "campaign_touches")]
pub struct Model {
    #[sea_orm(primary_key, auto_increment = false)]
    pub campaign_id: String,
    #[sea_orm(primary_key, auto_increment = false)]
    pub visitor_id: String,
    pub owner_id: String,
    pub last_at: DateTimeUtc,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
