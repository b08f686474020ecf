//! `two_factor_secrets`: an account's authenticator secret (base32). The
//! second factor is on once `enabled_at` is set; `last_used_step` is the
//! 30-second step of the last code accepted, so no code works twice.

use sea_orm::entity::prelude::*;

#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "two_factor_secrets")]
pub struct Model {
    #[sea_orm(primary_key, auto_increment = false)]
    pub user_id: String,
    pub secret: String,
    pub enabled_at: Option<DateTimeUtc>,
    pub last_used_step: Option<i64>,
    pub created_at: DateTimeUtc,
    pub updated_at: DateTimeUtc,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
