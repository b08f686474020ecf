//! How billing learns what an owner uses: the campaigns crate keeps the
//! counts and implements [`UsageMeter`] over them.

use std::sync::Arc;

use chrono::{DateTime, Utc};

use crate::BillingError;

/// What an owner has used: their campaigns, and their visitors in a month.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Used {
    pub campaigns: u64,
    pub visitors: i64,
}

/// Counts what an owner uses (implemented where the counts are kept).
#[async_trait::async_trait]
pub trait UsageMeter: Send + Sync {
    /// The owner's campaigns, and their visitors in the month of `now`.
    async fn used(&self, owner_id: &str, now: DateTime<Utc>) -> Result<Used, BillingError>;
}

/// The meter the billing service reads usage from.
pub type Meter = Arc<dyn UsageMeter>;
