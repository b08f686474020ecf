//! The visitor side of ConvertAssist: what the embedded widget reads and
//! reports. The public configuration (cached, with an ETag), page views and
//! impressions through a batched writer, leads (customer records and
//! conversions) and purchases with revenue attribution.

pub mod dto;
pub mod entities;
pub mod error;
pub mod writer;

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use chrono::{DateTime, Utc};
use rust_decimal::Decimal;
use rust_decimal::prelude::ToPrimitive;
use sea_orm::sea_query::{Expr, ExprTrait};
use sea_orm::{
    ActiveModelTrait, ColumnTrait, DatabaseConnection, EntityTrait, QueryFilter, QueryOrder, Set,
    TransactionTrait,
};
use sha2::{Digest, Sha256};

use ca_auth::entities::user;
use ca_billing::service::entitlement;
use ca_campaigns::entities::campaign;
use ca_campaigns::settings::{CampaignSettings, DEFAULT_GREETING};
use ca_conversations::dto::{PublicForm, email_capture_form};
use ca_conversations::entities::conversation;
use ca_core::FieldErrors;
use ca_core::rate_limit::{Limit, RateLimiter};

use dto::{EventIn, PublicCampaign, PublicConfigOut, PurchaseIn, PurchaseOut};
use entities::{campaign_touch, purchase};
pub use error::TrackingError;
use writer::{Event, EventWriter, Kind};

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
    config: TrackingConfig,
    cache: Arc<Mutex<HashMap<String, (Instant, CachedConfig)>>>,
    /// Owner and website of recently seen campaigns, for the event path.
    sites: Arc<Mutex<HashMap<String, (Instant, Site)>>>,
}

/// What the event path needs to know about a campaign.
#[derive(Debug, Clone)]
struct Site {
    id: String,
    owner_id: String,
    website_url: String,
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

fn greeting(settings: &CampaignSettings) -> String {
    let g = settings.ai_settings.initial_message.trim();
    if g.is_empty() {
        DEFAULT_GREETING.into()
    } else {
        g.into()
    }
}

/// Rupees (a JSON number or numeric string, at most 2 decimals) to paise.
fn paise(value: Option<&serde_json::Value>) -> Option<i64> {
    let text = match value? {
        serde_json::Value::Number(n) => n.to_string(),
        serde_json::Value::String(s) => s.trim().to_string(),
        _ => return None,
    };
    let d: Decimal = text.parse().ok()?;
    if d <= Decimal::ZERO || d.scale() > 2 || d > Decimal::new(10_000_000_000, 0) {
        return None;
    }
    (d * Decimal::new(100, 0)).round().to_i64()
}

impl TrackingService {
    pub fn new(
        db: DatabaseConnection,
        limiter: Arc<RateLimiter>,
        writer: EventWriter,
        config: TrackingConfig,
    ) -> Self {
        Self {
            db,
            limiter,
            writer,
            config,
            cache: Arc::new(Mutex::new(HashMap::new())),
            sites: Arc::new(Mutex::new(HashMap::new())),
        }
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
        };
        if let Ok(mut sites) = self.sites.lock() {
            if sites.len() > 10_000 {
                sites.clear();
            }
            sites.insert(id.to_string(), (Instant::now(), site.clone()));
        }
        Ok(site)
    }

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
                greeting: greeting(&settings),
                email_capture: PublicForm::of(&email_capture_form(&settings)),
            }),
        })
    }

    /// Checks an event and queues it for the batched writer.
    pub async fn event(
        &self,
        input: EventIn,
        origin: Option<&str>,
        ip: &str,
        now: DateTime<Utc>,
    ) -> Result<(), TrackingError> {
        let mut errors = FieldErrors::new();
        let kind = match input.event_type.as_str() {
            "pageview" => Some(Kind::PageView),
            "impression" => Some(Kind::Impression),
            _ => {
                errors.insert(
                    "type".into(),
                    vec!["Event type must be pageview or impression".into()],
                );
                None
            }
        };
        if !ca_core::validation::client_token(&input.visitor_id) {
            errors.insert(
                "visitorId".into(),
                vec!["Visitor id must be 8 to 64 letters, digits, - or _".into()],
            );
        }
        if !errors.is_empty() {
            return Err(TrackingError::invalid(errors));
        }
        let campaign = self.site(&input.campaign_id).await?;
        self.check_origin(origin, &campaign.website_url)?;
        self.throttle(ip, &campaign.id).await?;
        let Some(kind) = kind else {
            return Err(TrackingError::invalid(FieldErrors::new()));
        };
        let queued = self
            .writer
            .push(Event {
                kind,
                owner_id: campaign.owner_id,
                campaign_id: campaign.id,
                visitor_id: input.visitor_id,
                at: now,
            })
            .await;
        if queued {
            Ok(())
        } else {
            Err(TrackingError::ShuttingDown)
        }
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

    /// A form submitted in `conv` collected an email: creates or updates the
    /// owner's customer, and on the conversation's first lead marks it
    /// `conversion` and counts a campaign conversion. One transaction.
    pub async fn record_lead(
        &self,
        conv: &conversation::Model,
        now: DateTime<Utc>,
    ) -> Result<Option<String>, TrackingError> {
        let data: serde_json::Map<String, serde_json::Value> =
            serde_json::from_str(&conv.collected_data).unwrap_or_default();
        let text = |k: &str| data.get(k).and_then(|v| v.as_str()).map(str::to_string);
        let Some(email) = text("email") else {
            return Ok(None);
        };
        let campaign = campaign::Entity::find_by_id(conv.campaign_id.clone())
            .one(&self.db)
            .await?
            .ok_or(TrackingError::CampaignNotFound)?;
        let txn = self.db.begin().await?;
        // Only the first lead of a conversation counts as a conversion.
        let first = conversation::Entity::update_many()
            .col_expr(conversation::Column::Outcome, Expr::value("conversion"))
            .filter(conversation::Column::Id.eq(&conv.id))
            .filter(conversation::Column::Outcome.ne("conversion"))
            .exec(&txn)
            .await?
            .rows_affected
            == 1;
        let (name, phone, company) = (text("name"), text("phone"), text("company"));
        let customer = ca_customers::upsert_lead(
            &txn,
            &ca_customers::Lead {
                owner_id: &conv.owner_id,
                email: &email,
                name: name.as_deref(),
                phone: phone.as_deref(),
                company: company.as_deref(),
                collected_data: &conv.collected_data,
                campaign_id: &campaign.id,
                campaign_name: &campaign.name,
                visitor_id: &conv.visitor_id,
                messages: conv.visitor_messages,
                new_conversation: first,
            },
            now,
        )
        .await?;
        if first {
            campaign::Entity::update_many()
                .col_expr(
                    campaign::Column::Conversions,
                    Expr::col(campaign::Column::Conversions).add(1),
                )
                .filter(campaign::Column::Id.eq(&campaign.id))
                .exec(&txn)
                .await?;
        }
        txn.commit().await?;
        self.touch(&campaign.id, &conv.owner_id, &conv.visitor_id, now)
            .await?;
        tracing::info!(campaign = %campaign.id, customer = %customer.id, first, "lead recorded");
        Ok(Some(customer.id))
    }

    /// Records a purchase reported from the owner's thank-you page. The same
    /// order id never counts twice; the value goes to the campaign the visitor
    /// last interacted with inside the attribution window.
    pub async fn purchase(
        &self,
        input: PurchaseIn,
        origin: Option<&str>,
        ip: &str,
        now: DateTime<Utc>,
    ) -> Result<PurchaseOut, TrackingError> {
        let mut errors = FieldErrors::new();
        if !ca_core::validation::client_token(&input.visitor_id) {
            errors.insert(
                "visitorId".into(),
                vec!["Visitor id must be 8 to 64 letters, digits, - or _".into()],
            );
        }
        let order_id = input.order_id.trim().to_string();
        if order_id.is_empty() || order_id.chars().count() > 100 {
            errors.insert(
                "orderId".into(),
                vec!["Order id is required (at most 100 characters)".into()],
            );
        }
        let value = paise(input.value.as_ref());
        if value.is_none() {
            errors.insert(
                "value".into(),
                vec!["Value must be a positive amount in rupees with at most 2 decimals".into()],
            );
        }
        let currency = input
            .currency
            .as_deref()
            .map(|c| c.trim().to_uppercase())
            .unwrap_or_else(|| "INR".into());
        if currency != "INR" {
            errors.insert(
                "currency".into(),
                vec!["Only INR purchases are tracked".into()],
            );
        }
        if !errors.is_empty() {
            return Err(TrackingError::invalid(errors));
        }
        let value = value.unwrap_or(0);
        let campaign = self.campaign(&input.campaign_id).await?;
        self.check_origin(origin, &campaign.website_url)?;
        self.throttle(ip, &campaign.id).await?;
        let owner_id = campaign.owner_id.clone();
        let window = now - chrono::Duration::days(self.config.attribution_days);
        let txn = self.db.begin().await?;
        let exists = purchase::Entity::find()
            .filter(purchase::Column::OwnerId.eq(&owner_id))
            .filter(purchase::Column::OrderId.eq(&order_id))
            .one(&txn)
            .await?;
        if exists.is_some() {
            txn.rollback().await?;
            return Ok(PurchaseOut {
                success: true,
                duplicate: true,
                attributed_campaign_id: None,
            });
        }
        let touch = campaign_touch::Entity::find()
            .filter(campaign_touch::Column::OwnerId.eq(&owner_id))
            .filter(campaign_touch::Column::VisitorId.eq(&input.visitor_id))
            .filter(campaign_touch::Column::LastAt.gte(window))
            .order_by_desc(campaign_touch::Column::LastAt)
            .one(&txn)
            .await?;
        let attributed = touch.map(|t| t.campaign_id);
        let inserted = purchase::ActiveModel {
            id: Set(ca_core::ids::new_id().to_string()),
            owner_id: Set(owner_id.clone()),
            order_id: Set(order_id.clone()),
            campaign_id: Set(attributed.clone()),
            visitor_id: Set(input.visitor_id.clone()),
            value_paise: Set(value),
            currency: Set(currency),
            attributed: Set(attributed.is_some()),
            created_at: Set(now),
        }
        .insert(&txn)
        .await;
        if let Err(err) = inserted {
            // A concurrent report of the same order won the unique index.
            txn.rollback().await?;
            let dup = purchase::Entity::find()
                .filter(purchase::Column::OwnerId.eq(&owner_id))
                .filter(purchase::Column::OrderId.eq(&order_id))
                .one(&self.db)
                .await?
                .is_some();
            if dup {
                return Ok(PurchaseOut {
                    success: true,
                    duplicate: true,
                    attributed_campaign_id: None,
                });
            }
            return Err(err.into());
        }
        if let Some(campaign_id) = &attributed {
            campaign::Entity::update_many()
                .col_expr(
                    campaign::Column::RevenuePaise,
                    Expr::col(campaign::Column::RevenuePaise).add(value),
                )
                .filter(campaign::Column::Id.eq(campaign_id))
                .exec(&txn)
                .await?;
            ca_customers::record_purchase(&txn, &owner_id, &input.visitor_id, value, now).await?;
        }
        txn.commit().await?;
        tracing::info!(order = %order_id, campaign = ?attributed, "purchase recorded");
        Ok(PurchaseOut {
            success: true,
            duplicate: false,
            attributed_campaign_id: attributed,
        })
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
        assert!(!origin_allowed(
            "https://app.convertassist.in.evil.com",
            site,
            own
        ));
    }

    #[test]
    fn values_are_rupees_with_two_decimals() {
        use serde_json::json;
        assert_eq!(paise(Some(&json!(1499))), Some(149_900));
        assert_eq!(paise(Some(&json!(1499.5))), Some(149_950));
        assert_eq!(paise(Some(&json!("999.99"))), Some(99_999));
        assert_eq!(paise(Some(&json!(0))), None);
        assert_eq!(paise(Some(&json!(-5))), None);
        assert_eq!(paise(Some(&json!(1.234))), None);
        assert_eq!(paise(Some(&json!("abc"))), None);
        assert_eq!(paise(None), None);
    }
}
