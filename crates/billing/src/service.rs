//! The billing service: plans, checkout, payments, the subscription and the
//! demo payment for the owner's billing screens. Its calls live in files
//! named by what they do (`plans`, `payments`, `subscriptions`, `demo`,
//! `usage`).

use std::sync::Arc;

use sea_orm::DatabaseConnection;

use ca_core::rate_limit::RateLimiter;

use crate::config::{BillingConfig, Gateway};
use crate::meter::Meter;
use crate::payu::Simulator;

/// Plans, payments, the subscription and the demo payment, for the owner's
/// billing screens.
#[derive(Clone)]
pub struct BillingService {
    pub(crate) db: DatabaseConnection,
    pub(crate) config: Arc<BillingConfig>,
    pub(crate) http: reqwest::Client,
    pub(crate) simulator: Simulator,
    pub(crate) meter: Meter,
    pub(crate) limiter: Arc<RateLimiter>,
}

impl BillingService {
    /// `meter` counts what owners use (their campaigns and visitors).
    pub fn new(db: DatabaseConnection, config: BillingConfig, meter: Meter) -> Self {
        Self {
            db,
            config: Arc::new(config),
            http: reqwest::Client::new(),
            simulator: Simulator::default(),
            meter,
            limiter: Arc::new(RateLimiter::memory()),
        }
    }

    /// Counts the per-owner limits (checkouts a minute) with `limiter`,
    /// shared between instances when it is Redis-backed.
    pub fn with_limiter(mut self, limiter: Arc<RateLimiter>) -> Self {
        self.limiter = limiter;
        self
    }

    /// The hosted payment page checkout uses.
    pub fn gateway(&self) -> &Gateway {
        &self.config.gateway
    }

    /// What billing was configured with (the seller and the tax rules
    /// refunds and invoices need).
    pub fn config(&self) -> &BillingConfig {
        &self.config
    }

    /// Whether the demo page may activate plans (no payment provider set).
    pub fn demo_enabled(&self) -> bool {
        self.config.demo_enabled
    }
}
