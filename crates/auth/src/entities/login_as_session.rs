//! `login_as_sessions`: one row per "login as user" session. Its token
//! names the row and works only while `ended_at` is empty and before
//! `expires_at`; Return to admin ends it.

use sea_orm::entity::prelude::*;

#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "login_as_sessions")]
pub struct Model {
    #[sea_orm(primary_key, auto_increment = false)]
    pub id: String,
    /// The staff member acting.
    pub actor_id: String,
    /// The owner signed in as.
    pub user_id: String,
    pub created_at: DateTimeUtc,
    pub expires_at: DateTimeUtc,
    pub ended_at: Option<DateTimeUtc>,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
