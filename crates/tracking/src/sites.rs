//! The campaign look-ups and checks every widget call shares: the campaign
//! and its site (cached), the caller's origin, the rate limits, and the
//! touch that attributes a visitor's later purchases.

use std::time::Instant;

use chrono::{DateTime, Utc};
use sea_orm::{EntityTrait, Set};

use ca_campaigns::entities::campaign;
use ca_core::rate_limit::Limit;

use crate::TrackingError;
use crate::entities::campaign_touch;
use crate::origin::origin_allowed;
use crate::service::{Site, TrackingService};

impl TrackingService {
    pub(crate) async fn throttle(&self, ip: &str, campaign_id: &str) -> Result<(), TrackingError> {
        self.limiter
            .hit_shared(
                &format!("events:ip:{ip}"),
                Limit::new(self.config.events_ip_per_minute, 60),
            )
            .await
            .map_err(TrackingError::RateLimited)?;
        self.limiter
            .hit_shared(
                &format!("events:campaign:{campaign_id}"),
                Limit::new(self.config.events_campaign_per_minute, 60),
            )
            .await
            .map_err(TrackingError::RateLimited)
    }

    pub(crate) async fn campaign(&self, id: &str) -> Result<campaign::Model, TrackingError> {
        if id.trim().is_empty() || id.len() > 64 {
            return Err(TrackingError::CampaignNotFound);
        }
        campaign::Entity::find_by_id(id.trim().to_string())
            .one(&self.db)
            .await?
            .ok_or(TrackingError::CampaignNotFound)
    }

    /// The campaign's owner and website, reused for `config_cache` (events
    /// for a campaign deleted meanwhile are dropped by the writer).
    pub(crate) async fn site(&self, id: &str) -> Result<Site, TrackingError> {
        if let Ok(sites) = self.sites.lock()
            && let Some((at, site)) = sites.get(id)
            && at.elapsed() < self.config.config_cache
        {
            return Ok(site.clone());
        }
        let c = self.campaign(id).await?;
        let site = Site {
            id: c.id,
            owner_id: c.owner_id,
            website_url: c.website_url,
            is_active: c.is_active,
        };
        if let Ok(mut sites) = self.sites.lock() {
            if sites.len() > 10_000 {
                sites.clear();
            }
            sites.insert(id.to_string(), (Instant::now(), site.clone()));
        }
        Ok(site)
    }

    pub(crate) fn check_origin(
        &self,
        origin: Option<&str>,
        website_url: &str,
    ) -> Result<(), TrackingError> {
        match origin {
            Some(o) if origin_allowed(o, website_url, &self.config.public_url) => Ok(()),
            _ => Err(TrackingError::ForeignOrigin),
        }
    }

    /// Remembers that a visitor interacted with a campaign (attribution), in
    /// the caller's transaction.
    pub async fn touch<C: sea_orm::ConnectionTrait>(
        &self,
        conn: &C,
        campaign_id: &str,
        owner_id: &str,
        visitor_id: &str,
        now: DateTime<Utc>,
    ) -> Result<(), TrackingError> {
        use sea_orm::sea_query::OnConflict;
        campaign_touch::Entity::insert(campaign_touch::ActiveModel {
            campaign_id: Set(campaign_id.into()),
            visitor_id: Set(visitor_id.into()),
            owner_id: Set(owner_id.into()),
            last_at: Set(now),
        })
        .on_conflict(
            OnConflict::columns([
                campaign_touch::Column::CampaignId,
                campaign_touch::Column::VisitorId,
            ])
            .update_column(campaign_touch::Column::LastAt)
            .to_owned(),
        )
        .exec_without_returning(conn)
        .await?;
        Ok(())
    }
}
