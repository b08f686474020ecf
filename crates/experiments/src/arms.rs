//! The variant checks of the widget's calls, kept in memory for the widget
//! configuration's cache time: a burst of visitors of one variant reads it
//! once. Any change to a test (create, pause, promote) calls
//! [`ca_core::freshness::changed`], which makes every kept answer out of date
//! at once on this server.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use sea_orm::ConnectionTrait;

use crate::service::{RunningArm, running_arm};

/// Answers kept before the cache starts again empty (unknown ids are kept
/// too, so a stream of made-up ids cannot grow it without bound).
const KEPT: usize = 10_000;

struct Entry {
    at: Instant,
    version: u64,
    arm: Option<Arc<RunningArm>>,
}

/// Which visitor variant ids count, by campaign and variant id.
#[derive(Clone)]
pub struct ArmCache {
    ttl: Duration,
    entries: Arc<Mutex<HashMap<(String, String), Entry>>>,
}

impl ArmCache {
    /// Answers are reused for `ttl` unless a test changed meanwhile.
    pub fn new(ttl: Duration) -> Self {
        Self {
            ttl,
            entries: Arc::default(),
        }
    }

    /// The running arm `variant_id` stands for on `campaign_id` (see
    /// [`running_arm`]); none without an id or for one that does not count.
    /// Read through `conn` (the caller's transaction, when it has one).
    pub async fn get<C: ConnectionTrait>(
        &self,
        conn: &C,
        campaign_id: &str,
        variant_id: Option<&str>,
    ) -> Result<Option<Arc<RunningArm>>, sea_orm::DbErr> {
        let Some(variant_id) = variant_id.map(str::trim).filter(|v| !v.is_empty()) else {
            return Ok(None);
        };
        let key = (campaign_id.to_string(), variant_id.to_string());
        let version = ca_core::freshness::version();
        if let Ok(entries) = self.entries.lock()
            && let Some(entry) = entries.get(&key)
            && entry.version == version
            && entry.at.elapsed() < self.ttl
        {
            return Ok(entry.arm.clone());
        }
        let arm = running_arm(conn, campaign_id, variant_id)
            .await?
            .map(Arc::new);
        if let Ok(mut entries) = self.entries.lock() {
            if entries.len() >= KEPT {
                entries.clear();
            }
            entries.insert(
                key,
                Entry {
                    at: Instant::now(),
                    version,
                    arm: arm.clone(),
                },
            );
        }
        Ok(arm)
    }
}
