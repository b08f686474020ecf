//! The campaign's public configuration the widget loads on every page view,
//! reused for a few seconds and sent with an ETag.
//!
//! Under load the answer comes from memory: once it is older than
//! `config_cache`, the first request to notice builds it again while every
//! other request keeps getting the answer in hand (one rebuild per campaign
//! at a time, never one per waiting request). Requests for a campaign not in
//! memory yet wait for the single build under way. Whether the owner's plan
//! and visitor allowance still cover the campaign is read once per owner per
//! `config_cache` from the month's visitor count the database keeps, never by
//! counting the month's visitors.

use std::sync::Arc;
use std::time::Instant;

use chrono::{DateTime, Utc};
use sea_orm::EntityTrait;
use sha2::{Digest, Sha256};

use ca_auth::entities::user;
use ca_billing::plans::entitlement;
use ca_campaigns::settings::CampaignSettings;
use ca_conversations::dto::{PublicForm, email_capture_form};

use crate::TrackingError;
use crate::dto::{PublicCampaign, PublicConfigOut};
use crate::service::{Allowance, CachedConfig, TrackingService};

/// Entries kept before a cache starts again empty.
const MAX_ENTRIES: usize = 10_000;

/// What the service's cache has for a campaign.
enum Cached {
    /// Younger than `config_cache`.
    Fresh(CachedConfig),
    /// Older: this request builds the next one; until it is stored, other
    /// requests get this one (its time was moved to now for them).
    Renew,
    Absent,
}

impl TrackingService {
    /// The cached answer for `campaign_id`; an old one is claimed for renewal
    /// by exactly one caller.
    fn cached(&self, campaign_id: &str) -> Cached {
        let Ok(mut cache) = self.cache.lock() else {
            return Cached::Absent;
        };
        let version = ca_core::freshness::version();
        match cache.get_mut(campaign_id) {
            // An owner's change (a campaign, a plan, an A/B test) since the
            // entry was built: build it again.
            Some((_, built, _)) if *built != version => {
                cache.remove(campaign_id);
                Cached::Absent
            }
            Some((at, _, cached)) if at.elapsed() < self.config.config_cache => {
                Cached::Fresh(cached.clone())
            }
            Some((at, _, _)) => {
                *at = Instant::now();
                Cached::Renew
            }
            None => Cached::Absent,
        }
    }

    fn store(&self, campaign_id: &str, cached: &CachedConfig, version: u64) {
        if let Ok(mut cache) = self.cache.lock() {
            if cache.len() > MAX_ENTRIES {
                cache.clear();
            }
            cache.insert(
                campaign_id.to_string(),
                (Instant::now(), version, cached.clone()),
            );
        }
    }

    fn forget(&self, campaign_id: &str) {
        if let Ok(mut cache) = self.cache.lock() {
            cache.remove(campaign_id);
        }
    }

    /// The campaign's public configuration, reused for `config_cache`.
    pub async fn public_config(
        &self,
        campaign_id: &str,
        now: DateTime<Utc>,
    ) -> Result<CachedConfig, TrackingError> {
        match self.cached(campaign_id) {
            Cached::Fresh(cached) => Ok(cached),
            Cached::Renew => self.rebuild(campaign_id, now).await,
            Cached::Absent => {
                let lock = match self.builds.lock() {
                    Ok(mut builds) => builds.entry(campaign_id.to_string()).or_default().clone(),
                    Err(_) => return self.rebuild(campaign_id, now).await,
                };
                let guard = lock.lock().await;
                // Built by the request this one waited for.
                let result = match self.cached(campaign_id) {
                    Cached::Fresh(cached) => Ok(cached),
                    Cached::Renew | Cached::Absent => self.rebuild(campaign_id, now).await,
                };
                drop(guard);
                if let Ok(mut builds) = self.builds.lock()
                    && builds
                        .get(campaign_id)
                        .is_some_and(|l| Arc::ptr_eq(l, &lock))
                {
                    builds.remove(campaign_id);
                }
                result
            }
        }
    }

    /// Builds and stores the configuration; on failure nothing stays cached.
    async fn rebuild(
        &self,
        campaign_id: &str,
        now: DateTime<Utc>,
    ) -> Result<CachedConfig, TrackingError> {
        self.config_builds
            .fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        // Read before building: a change during the build leaves the entry out of date.
        let version = ca_core::freshness::version();
        let out = match self.build_config(campaign_id, now).await {
            Ok(out) => out,
            Err(err) => {
                self.forget(campaign_id);
                return Err(err);
            }
        };
        let body = serde_json::to_string(&out)?;
        let etag = format!(
            "\"{}\"",
            &hex::encode(Sha256::digest(body.as_bytes()))[..32]
        );
        let cached = CachedConfig {
            body: Arc::new(body),
            etag,
        };
        self.store(campaign_id, &cached, version);
        Ok(cached)
    }

    /// Whether the owner's plan and this month's visitors let their campaigns
    /// run, reused for `config_cache`.
    async fn allowance(
        &self,
        owner_id: &str,
        now: DateTime<Utc>,
    ) -> Result<Allowance, TrackingError> {
        if let Ok(known) = self.allowances.lock()
            && let Some((at, allowance)) = known.get(owner_id)
            && at.elapsed() < self.config.config_cache
        {
            return Ok(*allowance);
        }
        let owner = user::Entity::find_by_id(owner_id.to_string())
            .one(&self.db)
            .await?
            .ok_or(TrackingError::CampaignNotFound)?;
        let allowed = entitlement(&self.db, &owner, now).await?;
        let paused = ca_auth::suspension::widget_paused(&self.db, owner_id)
            .await
            .map_err(|e| TrackingError::Infra(ca_core::error::InfraError::Other(e.to_string())))?;
        let allowance = if paused {
            Allowance::Paused
        } else if allowed.campaigns <= 0 {
            Allowance::PlanInactive
        } else if allowed.visitors_per_month >= 0
            && ca_campaigns::counters::visitors_in_month(&self.db, owner_id, now).await?
                >= ca_billing::usage::visitor_stop(allowed.visitors_per_month)
        {
            Allowance::VisitorLimit
        } else {
            Allowance::Running
        };
        if let Ok(mut known) = self.allowances.lock() {
            if known.len() > MAX_ENTRIES {
                known.clear();
            }
            known.insert(owner_id.to_string(), (Instant::now(), allowance));
        }
        Ok(allowance)
    }

    async fn build_config(
        &self,
        campaign_id: &str,
        now: DateTime<Utc>,
    ) -> Result<PublicConfigOut, TrackingError> {
        let campaign = self.campaign(campaign_id).await?;
        let inactive = |reason: &str| PublicConfigOut {
            success: true,
            active: false,
            reason: Some(reason.into()),
            campaign: None,
        };
        if !campaign.is_active {
            return Ok(inactive("inactive"));
        }
        match self.allowance(&campaign.owner_id, now).await? {
            Allowance::PlanInactive => return Ok(inactive("plan_inactive")),
            Allowance::VisitorLimit => return Ok(inactive("visitor_limit")),
            Allowance::Paused => return Ok(inactive("paused")),
            Allowance::Running => {}
        }
        let settings: CampaignSettings = serde_json::from_str(&campaign.settings)?;
        let test = ca_experiments::service::widget_test(&self.db, &campaign.id).await?;
        Ok(PublicConfigOut {
            success: true,
            active: true,
            reason: None,
            campaign: Some(PublicCampaign {
                id: campaign.id.clone(),
                exit_intent: settings.exit_intent.clone(),
                popup: settings.popup.clone(),
                targeting: settings.targeting.clone(),
                greeting: settings.greeting(),
                email_capture: PublicForm::of(&email_capture_form(&settings)),
                test,
            }),
        })
    }
}
