//! How notifications are sent.

use std::time::Duration;

/// How notifications are sent.
#[derive(Debug, Clone)]
pub struct PushConfig {
    /// The contact push services see in every push token (`sub`): a
    /// `mailto:` or `https:` address (`CA_PUSH_CONTACT`, else the public URL).
    pub subject: String,
    /// Allow push-service addresses on this machine's own network
    /// (`CA_WEBHOOKS_ALLOW_PRIVATE`): for tests and trying things locally.
    pub allow_private: bool,
    /// The longest wait for the push service's answer.
    pub timeout: Duration,
    /// How long a push service keeps a notification for a browser that is
    /// offline (`TTL`).
    pub ttl_secs: u32,
    /// Leads of one owner are told of at most once in this window; the
    /// ones arriving inside it come together in the next notification.
    pub group_window: Duration,
}

impl Default for PushConfig {
    fn default() -> Self {
        Self {
            subject: "mailto:push@localhost".into(),
            allow_private: false,
            timeout: Duration::from_secs(10),
            ttl_secs: 86_400,
            group_window: Duration::from_secs(60),
        }
    }
}
