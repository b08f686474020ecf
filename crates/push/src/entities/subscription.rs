//! `push_subscriptions`: a browser an owner switched push notifications on
//! in: the push service's address for it (unique: one browser, one
//! account) and its message keys.

use sea_orm::entity::prelude::*;

#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "push_subscriptions")]
pub struct Model {
    #[sea_orm(primary_key, auto_increment = false)]
    pub id: String,
    pub owner_id: String,
    /// The push service's https address for this browser.
    pub endpoint: String,
    /// The browser's P-256 public key, base64url (65 bytes).
    pub p256dh: String,
    /// The browser's auth secret, base64url (16 bytes).
    pub auth: String,
    /// The browser, as it named itself (shown in the list).
    pub user_agent: Option<String>,
    pub created_at: DateTimeUtc,
    pub updated_at: DateTimeUtc,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
