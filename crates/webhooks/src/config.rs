//! How deliveries are made: the settings the sender and the Mailchimp push
//! both read.

use std::sync::Arc;
use std::time::Duration;

use ca_core::sealed::DataKeys;

/// How deliveries are made.
#[derive(Debug, Clone)]
pub struct WebhookConfig {
    /// This server's own address (links in emails).
    pub public_url: String,
    /// Allow private and loopback destinations (`CA_WEBHOOKS_ALLOW_PRIVATE`):
    /// for trying endpoints on one's own machine, and for tests.
    pub allow_private: bool,
    /// The longest wait for an endpoint's answer.
    pub timeout: Duration,
    /// Deliveries to one endpoint in flight at once.
    pub per_endpoint: usize,
    /// Mailchimp's API address; `{dc}` is the data centre named by the API
    /// key's suffix (a local stand-in in tests).
    pub mailchimp_url: String,
    /// Seal the endpoints' secrets in the database (the default, a random
    /// key living as long as the process, is for tests only).
    pub data_keys: Arc<DataKeys>,
}

impl Default for WebhookConfig {
    fn default() -> Self {
        Self {
            public_url: "http://127.0.0.1:8080".into(),
            allow_private: false,
            timeout: Duration::from_secs(10),
            per_endpoint: 4,
            mailchimp_url: "https://{dc}.api.mailchimp.com".into(),
            data_keys: Arc::new(DataKeys::random()),
        }
    }
}
