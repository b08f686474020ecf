//! `purchases`: orders reported by `caTrack('purchase', …)`, one per owner and order id.

use sea_orm::entity::prelude::*;

#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "purchases")]
pub struct Model {
    #[sea_orm(primary_key, auto_increment = false)]
    pub id: String,
    pub owner_id: String,
    pub order_id: String,
    /// The campaign the revenue was attributed to, if any.
    pub campaign_id: Option<String>,
    pub visitor_id: String,
    pub value_paise: i64,
    pub currency: String,
    pub attributed: bool,
    /// Above the attributed campaign's largest believable order: kept, not
    /// added to its revenue or the customer's.
    pub held: bool,
    pub created_at: DateTimeUtc,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
