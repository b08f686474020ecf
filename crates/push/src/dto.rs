//! Wire types of the push API.

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};

/// `GET /api/push/vapid-public-key`.
#[derive(Debug, Clone, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct VapidKeyOut {
    pub success: bool,
    /// The server's public key (P-256, uncompressed, base64url): the
    /// `applicationServerKey` a browser subscribes with.
    pub public_key: String,
}

/// A browser's message keys, as `PushSubscription.toJSON()` gives them.
#[derive(Debug, Clone, Default, Deserialize, ToSchema)]
pub struct PushSubscriptionKeysIn {
    /// The browser's P-256 public key, base64url (65 bytes).
    pub p256dh: Option<String>,
    /// The browser's auth secret, base64url (16 bytes).
    pub auth: Option<String>,
}

/// `POST /api/push/subscriptions`: this browser's subscription, as
/// `PushSubscription.toJSON()` gives it.
#[derive(Debug, Clone, Default, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct PushSubscriptionIn {
    /// The push service's https address for this browser (at most 2,048
    /// characters).
    pub endpoint: Option<String>,
    pub keys: Option<PushSubscriptionKeysIn>,
    /// Ignored: the push service ends the subscription when it expires.
    #[schema(value_type = Option<f64>)]
    pub expiration_time: Option<serde_json::Value>,
}

/// A browser that receives the owner's notifications.
#[derive(Debug, Clone, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct PushSubscriptionOut {
    pub id: String,
    pub endpoint: String,
    /// The browser, as it named itself.
    pub user_agent: Option<String>,
    pub created_at: DateTime<Utc>,
}

/// `{success, data: subscription}`.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct PushSubscriptionResponse {
    pub success: bool,
    pub data: PushSubscriptionOut,
}

/// `{success, data: [subscription]}`.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct PushSubscriptionList {
    pub success: bool,
    pub data: Vec<PushSubscriptionOut>,
}

/// `DELETE /api/push/subscriptions?endpoint=…`.
#[derive(Debug, Clone, Deserialize, IntoParams)]
pub struct PushEndpointQuery {
    /// The push service's address of the browser to stop notifying.
    pub endpoint: String,
}
