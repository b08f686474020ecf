//! `email_outbox`: every account email, written in the transaction of the
//! fact it reports. With a mail server configured the sender delivers it
//! from here (`pending` → `sent`, or `failed` once the mail server refuses
//! it or the retries run out); without one it is `kept` here, to be read
//! with `ca-server outbox`.

use sea_orm::entity::prelude::*;

#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "email_outbox")]
pub struct Model {
    #[sea_orm(primary_key, auto_increment = false)]
    pub id: String,
    pub to_address: String,
    pub subject: String,
    #[sea_orm(column_type = "Text")]
    pub body: String,
    pub created_at: DateTimeUtc,
    /// `kept`, `pending`, `sent` or `failed`.
    pub status: String,
    /// Attempts made to hand it to the mail server.
    pub attempts: i32,
    /// When a `pending` message is next tried.
    pub next_attempt_at: Option<DateTimeUtc>,
    /// Until when the server that claimed it is sending it.
    pub claimed_until: Option<DateTimeUtc>,
    pub sent_at: Option<DateTimeUtc>,
    /// Why the last attempt failed.
    #[sea_orm(column_type = "Text", nullable)]
    pub last_error: Option<String>,
    /// When the link it carries stops working (password resets and
    /// invitations); it is not delivered after that.
    pub expires_at: Option<DateTimeUtc>,
    /// When it was given up (`failed`).
    pub failed_at: Option<DateTimeUtc>,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
