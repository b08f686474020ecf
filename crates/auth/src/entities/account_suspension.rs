//! `account_suspensions`: one row per suspended account. While it exists the
//! account cannot sign in; `pause_widget` says whether the owner's widget
//! stops showing on their site meanwhile. Unsuspending deletes the row.

use sea_orm::entity::prelude::*;

#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "account_suspensions")]
pub struct Model {
    #[sea_orm(primary_key, auto_increment = false)]
    pub user_id: String,
    pub suspended_at: DateTimeUtc,
    /// The staff member who suspended the account.
    pub suspended_by: String,
    pub pause_widget: bool,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
