//! The visitor side of ConvertAssist: what the embedded widget reads and
//! reports. The public configuration (cached, with an ETag) in `config`, page
//! views and impressions through a batched writer in `events`, leads (the
//! form submission, customer records and conversions) in `leads`, and
//! purchases with revenue attribution in `purchases`. Other crates' tables are
//! changed only through their own functions, inside this crate's transaction
//! when a step must be atomic.

mod config;
pub mod dto;
pub mod entities;
pub mod error;
mod events;
pub mod journal;
mod leads;
mod purchases;
pub mod retention;
pub mod writer;

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use chrono::{DateTime, Utc};
use sea_orm::{DatabaseConnection, EntityTrait, Set};

use ca_campaigns::entities::campaign;
use ca_conversations::ConversationService;
use ca_core::rate_limit::{Limit, RateLimiter};

use entities::campaign_touch;
pub use error::TrackingError;
use writer::EventWriter;

/// Settings of the visitor side.
#[derive(Debug, Clone)]
pub struct TrackingConfig {
    /// This server's own origin (`https://app.example.in`): always accepted.
    pub public_url: String,
    /// How long a configuration answer is reused.
    pub config_cache: Duration,
    /// Days after a visitor's last interaction with a campaign during which
    /// their purchases count as the campaign's revenue.
    pub attribution_days: i64,
    /// Events and purchases per visitor IP per minute.
    pub events_ip_per_minute: u32,
    /// Events and purchases per campaign per minute.
    pub events_campaign_per_minute: u32,
}

/// A configuration answer ready to send.
#[derive(Debug, Clone)]
pub struct CachedConfig {
    pub body: Arc<String>,
    pub etag: String,
}

/// The visitor-side service.
#[derive(Clone)]
pub struct TrackingService {
    db: DatabaseConnection,
    limiter: Arc<RateLimiter>,
    writer: EventWriter,
    conversations: ConversationService,
    config: TrackingConfig,
    cache: Arc<Mutex<HashMap<String, (Instant, CachedConfig)>>>,
    /// Owner and website of recently seen campaigns, for the event path.
    sites: Arc<Mutex<HashMap<String, (Instant, Site)>>>,
    /// One lock per campaign whose configuration is being built for the
    /// first time (dropped when the build ends): concurrent first loads wait
    /// for that one build.
    builds: Arc<Mutex<HashMap<String, Arc<tokio::sync::Mutex<()>>>>>,
    /// Each owner's allowance (plan and visitors of the month) and when it was read.
    allowances: Arc<Mutex<HashMap<String, (Instant, config::Allowance)>>>,
    /// Configurations built from the database since start (every other
    /// answer came from memory).
    config_builds: Arc<std::sync::atomic::AtomicU64>,
}

/// What the event path needs to know about a campaign.
#[derive(Debug, Clone)]
struct Site {
    id: String,
    owner_id: String,
    website_url: String,
    is_active: bool,
}

/// Whether `origin` is this server's own page (the owner's Preview) and not
/// the campaign's website: what the widget reports from there is the owner
/// trying their campaign, never counted in its figures.
pub fn is_preview(origin: &str, website_url: &str, public_url: &str) -> bool {
    let (Ok(origin), Ok(own)) = (url::Url::parse(origin), url::Url::parse(public_url)) else {
        return false;
    };
    let site_is_ours = url::Url::parse(website_url).is_ok_and(|w| w.origin() == own.origin());
    origin.origin() == own.origin() && !site_is_ours
}

/// Whether `origin` may report events for a campaign on `website_url`: the
/// website's host or one of its subdomains (a leading `www.` is ignored), or
/// this server's own origin.
pub fn origin_allowed(origin: &str, website_url: &str, public_url: &str) -> bool {
    let Ok(origin) = url::Url::parse(origin) else {
        return false;
    };
    if !matches!(origin.scheme(), "http" | "https") {
        return false;
    }
    if let Ok(own) = url::Url::parse(public_url)
        && own.origin() == origin.origin()
    {
        return true;
    }
    let Some(host) = origin.host_str().map(str::to_lowercase) else {
        return false;
    };
    let Some(site) = url::Url::parse(website_url)
        .ok()
        .and_then(|u| u.host_str().map(str::to_lowercase))
    else {
        return false;
    };
    let site = site.strip_prefix("www.").unwrap_or(&site).to_string();
    host == site || host.ends_with(&format!(".{site}"))
}

impl TrackingService {
    pub fn new(
        db: DatabaseConnection,
        limiter: Arc<RateLimiter>,
        writer: EventWriter,
        conversations: ConversationService,
        config: TrackingConfig,
    ) -> Self {
        Self {
            db,
            limiter,
            writer,
            conversations,
            config,
            cache: Arc::new(Mutex::new(HashMap::new())),
            sites: Arc::new(Mutex::new(HashMap::new())),
            builds: Arc::default(),
            allowances: Arc::default(),
            config_builds: Arc::default(),
        }
    }

    /// How many times a campaign's configuration was built from the database
    /// since start.
    pub fn config_builds(&self) -> u64 {
        self.config_builds
            .load(std::sync::atomic::Ordering::Relaxed)
    }

    pub fn writer(&self) -> &EventWriter {
        &self.writer
    }

    async fn throttle(&self, ip: &str, campaign_id: &str) -> Result<(), TrackingError> {
        self.limiter
            .hit(
                &format!("events:ip:{ip}"),
                Limit::new(self.config.events_ip_per_minute, 60),
            )
            .await
            .map_err(TrackingError::RateLimited)?;
        self.limiter
            .hit(
                &format!("events:campaign:{campaign_id}"),
                Limit::new(self.config.events_campaign_per_minute, 60),
            )
            .await
            .map_err(TrackingError::RateLimited)
    }

    async fn campaign(&self, id: &str) -> Result<campaign::Model, TrackingError> {
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
    async fn site(&self, id: &str) -> Result<Site, TrackingError> {
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

    fn check_origin(&self, origin: Option<&str>, website_url: &str) -> Result<(), TrackingError> {
        match origin {
            Some(o) if origin_allowed(o, website_url, &self.config.public_url) => Ok(()),
            _ => Err(TrackingError::ForeignOrigin),
        }
    }

    /// Remembers that a visitor interacted with a campaign (attribution).
    pub async fn touch(
        &self,
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
        .exec_without_returning(&self.db)
        .await?;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn origins_of_the_site_its_subdomains_and_ours_are_allowed() {
        let site = "https://www.kesar.example.in/shop";
        let own = "https://app.convertassist.in";
        assert!(origin_allowed("https://kesar.example.in", site, own));
        assert!(origin_allowed("https://www.kesar.example.in", site, own));
        assert!(origin_allowed(
            "http://blog.kesar.example.in:8080",
            site,
            own
        ));
        assert!(origin_allowed("https://app.convertassist.in", site, own));
        assert!(!origin_allowed("https://evilkesar.example.in", site, own));
        assert!(!origin_allowed(
            "https://kesar.example.in.evil.com",
            site,
            own
        ));
        assert!(!origin_allowed("null", site, own));
        assert!(is_preview("https://app.convertassist.in", site, own));
        assert!(!is_preview("https://kesar.example.in", site, own));
        assert!(!is_preview("https://app.convertassist.in:8443", site, own));
        assert!(!is_preview(
            "https://app.convertassist.in",
            "https://app.convertassist.in/shop",
            own
        ));
        assert!(!origin_allowed(
            "https://app.convertassist.in.evil.com",
            site,
            own
        ));
    }
}
