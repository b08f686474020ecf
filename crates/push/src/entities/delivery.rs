//! `push_deliveries`: one notification on its way to one browser: its
//! payload (`{title, body, url}`, encrypted only when sent), where it
//! stands (`pending` until the push service takes it: `sent`; `failed`
//! when given up), attempts and the next one's time.

use sea_orm::entity::prelude::*;

#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "push_deliveries")]
pub struct Model {
    #[sea_orm(primary_key, auto_increment = false)]
    pub id: String,
    pub owner_id: String,
    pub subscription_id: String,
    pub payload: String,
    /// `pending`, `sent` or `failed`.
    pub status: String,
    pub attempts: i32,
    pub next_attempt_at: Option<DateTimeUtc>,
    /// A sender working on it holds it until then.
    pub claimed_until: Option<DateTimeUtc>,
    /// The push service's last answer (status code).
    pub last_status: Option<i32>,
    pub created_at: DateTimeUtc,
    pub updated_at: DateTimeUtc,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
