//! `audit_log`: every staff action, who did it (and as whom), on what, with
//! the values before and after.

use sea_orm::entity::prelude::*;

#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "audit_log")]
pub struct Model {
    #[sea_orm(primary_key, auto_increment = false)]
    pub id: String,
    pub actor_id: String,
    pub actor_name: String,
    /// The actor's email when the entry was written (kept after the
    /// account is deleted).
    pub actor_email: String,
    /// Set when the actor was signed in as another user.
    pub acting_as_id: Option<String>,
    pub action: String,
    /// `user`, `plan` or `settings`.
    pub target_type: String,
    pub target_id: String,
    /// JSON.
    pub before: Option<String>,
    /// JSON.
    pub after: Option<String>,
    pub created_at: DateTimeUtc,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
