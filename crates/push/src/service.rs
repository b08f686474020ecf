//! The push service: the owner's browsers (`subscriptions`), and the sender
//! that turns the outbox into notifications and delivers them (`sender`).

use std::sync::Arc;

use sea_orm::DatabaseConnection;

pub use crate::config::PushConfig;
use crate::vapid::VapidKeys;

/// The push service.
#[derive(Clone)]
pub struct PushService {
    pub(crate) db: DatabaseConnection,
    pub(crate) config: Arc<PushConfig>,
    pub(crate) keys: VapidKeys,
}

impl PushService {
    pub fn new(db: DatabaseConnection, config: PushConfig, keys: VapidKeys) -> Self {
        Self {
            db,
            config: Arc::new(config),
            keys,
        }
    }

    /// The public key browsers subscribe with.
    pub fn public_key(&self) -> &str {
        self.keys.public_key()
    }
}
