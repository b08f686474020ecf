//! The webhooks service: the owner's endpoints (`endpoints`), the delivery
//! log and resends (`deliveries`), and the sender that delivers what is
//! due (`sender`, with `mailchimp` for the audience push).

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use sea_orm::DatabaseConnection;

use ca_auth::Mailer;

pub use crate::config::WebhookConfig;

/// Deliveries in flight in this server, per endpoint.
pub type InFlight = Arc<Mutex<HashMap<String, usize>>>;

/// The webhooks service.
#[derive(Clone)]
pub struct WebhookService {
    pub(crate) db: DatabaseConnection,
    pub(crate) config: Arc<WebhookConfig>,
    pub(crate) mailer: Mailer,
    pub(crate) running: InFlight,
    /// Told when a delivery ends, so the sender claims the next one at once
    /// instead of at its next round.
    pub(crate) freed: Arc<tokio::sync::Notify>,
}

impl WebhookService {
    pub fn new(db: DatabaseConnection, config: WebhookConfig, mailer: Mailer) -> Self {
        Self {
            db,
            config: Arc::new(config),
            mailer,
            running: Default::default(),
            freed: Default::default(),
        }
    }
}
