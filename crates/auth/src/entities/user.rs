//! `users`: owners and staff.

use sea_orm::entity::prelude::*;

#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "users")]
pub struct Model {
    #[sea_orm(primary_key, auto_increment = false)]
    pub id: String,
    pub name: String,
    /// Trimmed and lower-cased; unique.
    pub email: String,
    pub phone: String,
    pub password_hash: String,
    /// `user`, `admin` or `superuser`.
    pub role: String,
    pub plan_id: String,
    /// Stored status; see [`crate::dto::UserOut`] for the status as of now.
    pub subscription_status: String,
    pub trial_ends_at: Option<DateTimeUtc>,
    pub subscription_ends_at: Option<DateTimeUtc>,
    /// Bumped to revoke every token issued before.
    pub token_version: i32,
    pub email_notifications: bool,
    pub push_notifications: bool,
    pub last_login_at: Option<DateTimeUtc>,
    pub created_at: DateTimeUtc,
    pub updated_at: DateTimeUtc,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
