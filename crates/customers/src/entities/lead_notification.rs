//! `lead_notifications`: leads waiting to be emailed to their owner.

use sea_orm::entity::prelude::*;

#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "lead_notifications")]
pub struct Model {
    #[sea_orm(primary_key, auto_increment = false)]
    pub id: String,
    pub owner_id: String,
    pub customer_email: String,
    pub customer_name: Option<String>,
    pub campaign_name: String,
    pub created_at: DateTimeUtc,
    /// When the email (single or digest) went out; also set, without an
    /// email, when the owner turned email notifications off.
    pub sent_at: Option<DateTimeUtc>,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
