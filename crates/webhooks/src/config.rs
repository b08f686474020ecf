//! How deliveries are made: the settings the sender and the Mailchimp push
//! both read.

use std::time::Duration;

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
}

impl Default for WebhookConfig {
    fn default() -> Self {
        Self {
            public_url: "http://127.0.0.1:8080".into(),
            allow_private: false,
            timeout: Duration::from_secs(10),
            per_endpoint: 4,
            mailchimp_url: "https://{dc}.api.mailchimp.com".into(),
        }
    }
}
