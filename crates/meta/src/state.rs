//! `meta_outbox_state`: one row (`outbox`) saying whether sending is paused
//! because Meta rejected the access token, shared by every instance.

use sea_orm::entity::prelude::*;

#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "meta_outbox_state")]
pub struct Model {
    #[sea_orm(primary_key, auto_increment = false)]
    pub id: String,
    /// Why sending stopped (Meta's own message); none while sending.
    pub paused_reason: Option<String>,
    pub paused_at: Option<DateTimeUtc>,
    /// A fingerprint of the rejected token (never the token): sending
    /// resumes by itself once a different token is configured.
    pub token_fingerprint: Option<String>,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
