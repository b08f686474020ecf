//! The visitor-side service: what the widget reads and reports goes through
//! it. Its calls live in files named by what they do: the public
//! configuration (`config`), events (`events`), leads (`leads`), purchases
//! (`purchases`) and the campaign look-ups they share (`sites`).

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use sea_orm::DatabaseConnection;

use ca_conversations::ConversationService;
use ca_core::rate_limit::RateLimiter;

use crate::writer::EventWriter;

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
    /// New visitor ids one client address adds to an owner's monthly
    /// visitors per campaign per day; more are served but not counted.
    pub new_visitors_per_address: u32,
    /// A secret the day's salt of client addresses is made from: addresses
    /// are kept only as salted hashes that change every day.
    pub address_secret: String,
}

/// A configuration answer ready to send.
#[derive(Debug, Clone)]
pub struct CachedConfig {
    pub body: Arc<String>,
    pub etag: String,
}

/// The visitor-side service.
/// A cached public config: when it was built, the freshness version then, the answer.
pub(crate) type ConfigEntry = (Instant, u64, CachedConfig);

#[derive(Clone)]
pub struct TrackingService {
    pub(crate) db: DatabaseConnection,
    pub(crate) limiter: Arc<RateLimiter>,
    pub(crate) writer: EventWriter,
    pub(crate) conversations: ConversationService,
    pub(crate) config: TrackingConfig,
    /// Each entry with when it was built and the [`ca_core::freshness`]
    /// version then (a later change makes it out of date at once).
    pub(crate) cache: Arc<Mutex<HashMap<String, ConfigEntry>>>,
    /// Owner and website of recently seen campaigns, for the event path.
    pub(crate) sites: Arc<Mutex<HashMap<String, (Instant, Site)>>>,
    /// One lock per campaign whose configuration is being built for the
    /// first time (dropped when the build ends): concurrent first loads wait
    /// for that one build.
    pub(crate) builds: Arc<Mutex<HashMap<String, Arc<tokio::sync::Mutex<()>>>>>,
    /// Each owner's allowance (plan and visitors of the month) and when it was read.
    pub(crate) allowances: Arc<Mutex<HashMap<String, (Instant, Allowance)>>>,
    /// Configurations built from the database since start (every other
    /// answer came from memory).
    pub(crate) config_builds: Arc<std::sync::atomic::AtomicU64>,
    /// Which visitors' A/B test variants count, kept as long as a configuration.
    pub(crate) arms: ca_experiments::ArmCache,
}

/// What the event path needs to know about a campaign.
#[derive(Debug, Clone)]
pub(crate) struct Site {
    pub(crate) id: String,
    pub(crate) owner_id: String,
    pub(crate) website_url: String,
    pub(crate) is_active: bool,
}

/// Whether an owner's campaigns may run, as of when it was read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Allowance {
    Running,
    /// The owner's plan covers no campaign.
    PlanInactive,
    /// The owner's visitors of the month are used up.
    VisitorLimit,
    /// Staff suspended the owner's account and paused its widget.
    Paused,
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
            arms: ca_experiments::ArmCache::new(config.config_cache),
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
}
