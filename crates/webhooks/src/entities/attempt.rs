//! `webhook_attempts`: the delivery log: each attempt's answer (status
//! code, time taken, the start of the body) or why it did not get one.

use sea_orm::entity::prelude::*;

#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "webhook_attempts")]
pub struct Model {
    #[sea_orm(primary_key, auto_increment = false)]
    pub id: String,
    pub delivery_id: String,
    pub endpoint_id: String,
    pub event_id: String,
    pub owner_id: String,
    pub event_type: String,
    /// 1 for the first attempt.
    pub attempt: i32,
    /// How this attempt ended: `delivered`, `pending` (it will be retried)
    /// or `failed` (given up).
    pub status: String,
    pub response_status: Option<i32>,
    pub duration_ms: i64,
    /// The answer's first 4 KB, or why there was none.
    pub response_excerpt: Option<String>,
    pub next_attempt_at: Option<DateTimeUtc>,
    pub created_at: DateTimeUtc,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
