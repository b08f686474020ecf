//! Wire types of the webhooks API.

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};

use ca_core::paging::Pagination;

use crate::events::EventType;

/// `POST` and `PUT /api/webhooks/endpoints`: a webhook (signed JSON posts to
/// `url`) or a Mailchimp audience push (`kind: "mailchimp"` with `apiKey`
/// and `listId`; `url` is then left out).
#[derive(Debug, Clone, Default, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct EndpointIn {
    /// `webhook` (default) or `mailchimp`.
    pub kind: Option<String>,
    /// https, at most 2,048 characters.
    pub url: Option<String>,
    /// At most 200 characters.
    pub description: Option<String>,
    /// The events it wants (at least one).
    #[serde(default)]
    pub event_types: Option<Vec<EventType>>,
    /// Default true.
    pub enabled: Option<bool>,
    /// Mailchimp: the API key (`…-us21`: the suffix names the data centre).
    pub api_key: Option<String>,
    /// Mailchimp: the audience (list) id.
    pub list_id: Option<String>,
}

/// An endpoint as the owner sees it (its secret only when created, rotated
/// or revealed).
#[derive(Debug, Clone, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct EndpointOut {
    pub id: String,
    /// `webhook` or `mailchimp`.
    pub kind: String,
    pub url: String,
    pub description: String,
    pub event_types: Vec<EventType>,
    pub enabled: bool,
    /// Why the server switched it off (failing for 5 days), if it did.
    pub disabled_reason: Option<String>,
    /// Deliveries have been failing since then, without a success.
    pub failing_since: Option<DateTime<Utc>>,
    /// The previous secret still signs until then (after a rotation).
    pub previous_secret_expires_at: Option<DateTime<Utc>>,
    pub list_id: Option<String>,
    /// Only in the answer that creates the endpoint.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub secret: Option<String>,
    pub created_at: DateTime<Utc>,
    pub updated_at: DateTime<Utc>,
}

/// `{success, data: endpoint}`.
#[derive(Debug, Serialize, ToSchema)]
pub struct EndpointResponse {
    pub success: bool,
    pub data: EndpointOut,
}

/// `{success, data: [endpoint]}`.
#[derive(Debug, Serialize, ToSchema)]
pub struct EndpointList {
    pub success: bool,
    pub data: Vec<EndpointOut>,
}

/// The signing secret.
#[derive(Debug, Serialize, ToSchema)]
pub struct SecretOut {
    /// `whsec_…`.
    pub secret: String,
    /// After a rotation, the previous secret still signs until then.
    #[serde(rename = "previousSecretExpiresAt")]
    pub previous_secret_expires_at: Option<DateTime<Utc>>,
}

/// `{success, data: {secret}}`.
#[derive(Debug, Serialize, ToSchema)]
pub struct SecretResponse {
    pub success: bool,
    pub data: SecretOut,
}

/// One attempt to deliver an event (the delivery log).
#[derive(Debug, Clone, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct DeliveryOut {
    pub id: String,
    pub endpoint_id: String,
    /// The event's id: the `webhook-id` header.
    pub event_id: String,
    pub event_type: String,
    /// 1 for the first attempt.
    pub attempt: i32,
    /// How the attempt ended: `delivered`, `pending` (it will be retried at
    /// `nextAttemptAt`) or `failed` (given up).
    pub status: String,
    pub response_status: Option<i32>,
    pub duration_ms: i64,
    pub next_attempt_at: Option<DateTime<Utc>>,
    /// The answer's first 4 KB, or why there was none.
    pub response_excerpt: Option<String>,
    pub created_at: DateTime<Utc>,
}

/// `{success, data: [delivery], pagination}`.
#[derive(Debug, Serialize, ToSchema)]
pub struct DeliveryList {
    pub success: bool,
    pub data: Vec<DeliveryOut>,
    pub pagination: Pagination,
}

/// Query of the delivery log.
#[derive(Debug, Clone, Default, Deserialize, IntoParams)]
#[serde(rename_all = "camelCase")]
#[into_params(parameter_in = Query)]
pub struct DeliveryQuery {
    /// Only this endpoint's deliveries.
    pub endpoint_id: Option<String>,
    pub page: Option<String>,
    pub limit: Option<String>,
}

/// `{success, data: {eventId}}`: an event queued to be sent.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct QueuedOut {
    pub event_id: String,
}

/// `{success, data: {eventId}}`.
#[derive(Debug, Serialize, ToSchema)]
pub struct QueuedResponse {
    pub success: bool,
    pub data: QueuedOut,
}
