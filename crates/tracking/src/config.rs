//! The campaign's public configuration the widget loads on every page view,
//! reused for a few seconds and sent with an ETag.

use std::sync::Arc;
use std::time::Instant;

use chrono::{DateTime, Utc};
use sea_orm::EntityTrait;
use sha2::{Digest, Sha256};

use ca_auth::entities::user;
use ca_billing::service::entitlement;
use ca_campaigns::settings::CampaignSettings;
use ca_conversations::dto::{PublicForm, email_capture_form};

use crate::dto::{PublicCampaign, PublicConfigOut};
use crate::{CachedConfig, TrackingError, TrackingService};

impl TrackingService {
    /// The campaign's public configuration, reused for `config_cache`.
    pub async fn public_config(
        &self,
        campaign_id: &str,
        now: DateTime<Utc>,
    ) -> Result<CachedConfig, TrackingError> {
        if let Ok(cache) = self.cache.lock()
            && let Some((at, cached)) = cache.get(campaign_id)
            && at.elapsed() < self.config.config_cache
        {
            return Ok(cached.clone());
        }
        let out = self.build_config(campaign_id, now).await?;
        let body = serde_json::to_string(&out)?;
        let etag = format!(
            "\"{}\"",
            &hex::encode(Sha256::digest(body.as_bytes()))[..32]
        );
        let cached = CachedConfig {
            body: Arc::new(body),
            etag,
        };
        if let Ok(mut cache) = self.cache.lock() {
            if cache.len() > 10_000 {
                cache.clear();
            }
            cache.insert(campaign_id.to_string(), (Instant::now(), cached.clone()));
        }
        Ok(cached)
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
        let owner = user::Entity::find_by_id(campaign.owner_id.clone())
            .one(&self.db)
            .await?
            .ok_or(TrackingError::CampaignNotFound)?;
        let allowed = entitlement(&self.db, &owner, now).await?;
        if allowed.campaigns <= 0 {
            return Ok(inactive("plan_inactive"));
        }
        let usage = ca_campaigns::service::usage(&self.db, &owner, now).await?;
        if usage.visitors.limit >= 0 && usage.visitors.current >= usage.visitors.limit {
            return Ok(inactive("visitor_limit"));
        }
        let settings: CampaignSettings = serde_json::from_str(&campaign.settings)?;
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
            }),
        })
    }
}
