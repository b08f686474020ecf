//! `webhook_endpoints`: where an owner wants events sent. A `webhook`
//! endpoint receives signed JSON posts; a `mailchimp` one pushes each lead
//! to a Mailchimp audience.

use sea_orm::entity::prelude::*;

#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "webhook_endpoints")]
pub struct Model {
    #[sea_orm(primary_key, auto_increment = false)]
    pub id: String,
    pub owner_id: String,
    /// `webhook` or `mailchimp`.
    pub kind: String,
    pub url: String,
    pub description: String,
    /// JSON array of the event types it wants.
    pub event_types: String,
    pub enabled: bool,
    /// `whsec_…` (webhook) or the Mailchimp API key (mailchimp).
    pub secret: String,
    /// The secret before the last rotation, still signing until
    /// `previous_secret_expires_at`.
    pub previous_secret: Option<String>,
    pub previous_secret_expires_at: Option<DateTimeUtc>,
    /// Mailchimp: the audience (list) id.
    pub list_id: Option<String>,
    /// When deliveries started failing without a success since.
    pub failing_since: Option<DateTimeUtc>,
    /// Why the server switched it off (failing for 5 days).
    pub disabled_reason: Option<String>,
    pub created_at: DateTimeUtc,
    pub updated_at: DateTimeUtc,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
