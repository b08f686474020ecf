//! `POST /api/meta/track`: the dashboard reports its own conversions. Every
//! field is checked, calls are rate-limited per IP, a `Lead` must name an
//! account that just signed up, and a `Purchase` is forwarded only when its
//! order is one of our successful payments of that value (a browser cannot
//! invent purchases). The server also queues every successful payment itself,
//! under the same event id, so Meta counts it once.

use std::sync::Arc;
use std::time::Duration;

use chrono::{DateTime, Utc};
use rust_decimal::Decimal;
use sea_orm::{ColumnTrait, DatabaseConnection, EntityTrait, QueryFilter};
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value, json};
use utoipa::ToSchema;

use ca_auth::entities::user;
use ca_billing::entities::payment;
use ca_core::error::InfraError;
use ca_core::rate_limit::{Limit, RateLimiter};
use ca_core::{DomainError, ErrorKind, FieldErrors};

use ca_billing::entities::payment::CheckoutMode;

use crate::outbox::{Delivery, MAX_AGE_DAYS, Outbox, OutgoingEvent, UserData};

/// Tracking calls per client IP per minute.
pub const PER_IP: Limit = Limit::new(30, 60);
/// A `Lead` is accepted for an account this long after it signed up.
pub const LEAD_WINDOW_HOURS: i64 = 24;
/// How long the server's own Purchase waits for the browser's copy (which
/// adds the `_fbp`/`_fbc` cookies) before it is sent without them.
pub const BROWSER_WAIT_SECS: i64 = 60;
/// The owners' country: profiles hold no country, and the product sells in
/// India.
pub const HOME_COUNTRY: &str = "IN";

/// `GET /api/meta/config`: what the dashboard's pages need to keep Meta's
/// click cookies.
#[derive(Debug, Clone, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct MetaPublicConfig {
    /// The Meta pixel (dataset) id while events are forwarded to Meta;
    /// null otherwise, and then no Meta cookie is set.
    pub pixel_id: Option<String>,
}

/// The events `POST /api/meta/track` takes, for the API document.
#[derive(ToSchema)]
#[allow(dead_code)]
pub enum TrackEventName {
    Lead,
    Purchase,
}

/// `POST /api/meta/track`.
#[derive(Debug, Clone, Default, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct TrackIn {
    /// `Lead` (sign-up) or `Purchase` (a verified payment).
    #[serde(default)]
    #[schema(required = true, value_type = TrackEventName, inline)]
    pub event_name: String,
    /// Purchase: the payment's txnid.
    pub order_id: Option<String>,
    /// Purchase: rupees, as paid.
    #[schema(value_type = Option<f64>)]
    pub value: Option<Value>,
    /// `INR`.
    pub currency: Option<String>,
    pub content_name: Option<String>,
    pub content_category: Option<String>,
    /// Lead: the new account's id.
    pub lead_id: Option<String>,
    pub status: Option<String>,
    pub email: Option<String>,
    pub phone: Option<String>,
    pub first_name: Option<String>,
    pub last_name: Option<String>,
    /// The dashboard page the event happened on.
    pub event_source_url: Option<String>,
    /// Extra properties: at most 20, each a short text, number or flag.
    #[schema(value_type = Option<std::collections::HashMap<String, Value>>)]
    pub custom_properties: Option<Map<String, Value>>,
}

/// `{success, eventId, forwarded}`.
#[derive(Debug, Clone, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct TrackOut {
    pub success: bool,
    pub event_id: String,
    /// False while no Meta pixel is configured (the event is kept, not
    /// sent), and for a purchase that moved no money or a test purchase
    /// without a test event code.
    pub forwarded: bool,
}

/// Where the call came from.
#[derive(Debug, Clone, Default)]
pub struct Origin {
    pub ip: String,
    pub user_agent: Option<String>,
    pub fbp: Option<String>,
    pub fbc: Option<String>,
    pub referer: Option<String>,
}

#[derive(Debug, thiserror::Error)]
pub enum TrackError {
    #[error("{message}")]
    Validation {
        message: String,
        errors: FieldErrors,
    },
    #[error("This purchase could not be verified")]
    NotVerified,
    /// A purchase is reported only by the signed-in owner who paid.
    #[error("Please sign in to report a purchase")]
    SignInRequired,
    #[error("Too many requests. Please wait a moment and try again.")]
    RateLimited(Duration),
    #[error("internal error: {0}")]
    Infra(#[from] InfraError),
}

impl From<sea_orm::DbErr> for TrackError {
    fn from(e: sea_orm::DbErr) -> Self {
        Self::Infra(InfraError::Db(e))
    }
}

impl From<crate::MetaError> for TrackError {
    fn from(e: crate::MetaError) -> Self {
        Self::Infra(InfraError::Other(e.to_string()))
    }
}

impl DomainError for TrackError {
    fn kind(&self) -> ErrorKind {
        match self {
            Self::Validation { .. } => ErrorKind::Validation,
            Self::NotVerified => ErrorKind::BusinessRule,
            Self::SignInRequired => ErrorKind::Unauthorized,
            Self::RateLimited(d) => ErrorKind::RateLimited(*d),
            Self::Infra(_) => ErrorKind::Internal,
        }
    }

    fn code(&self) -> &'static str {
        match self {
            Self::Validation { .. } => "validation_failed",
            Self::NotVerified => "purchase_not_verified",
            Self::SignInRequired => "missing_token",
            Self::RateLimited(_) => "rate_limited",
            Self::Infra(_) => "internal_error",
        }
    }

    fn field_errors(&self) -> Option<&FieldErrors> {
        match self {
            Self::Validation { errors, .. } => Some(errors),
            _ => None,
        }
    }
}

fn text(v: &Option<String>, max: usize, field: &str, errors: &mut FieldErrors) -> Option<String> {
    let t = v.as_deref().map(str::trim).filter(|t| !t.is_empty())?;
    if t.chars().count() > max || t.contains('\0') {
        errors.insert(
            field.into(),
            vec![format!("{field} must be at most {max} characters")],
        );
        return None;
    }
    Some(t.to_string())
}

/// The ad-tracking service.
#[derive(Clone)]
pub struct MetaService {
    db: DatabaseConnection,
    outbox: Outbox,
    limiter: Arc<RateLimiter>,
    public_url: String,
}

impl MetaService {
    pub fn new(
        db: DatabaseConnection,
        outbox: Outbox,
        limiter: Arc<RateLimiter>,
        public_url: String,
    ) -> Self {
        Self {
            db,
            outbox,
            limiter,
            public_url,
        }
    }

    pub fn outbox(&self) -> &Outbox {
        &self.outbox
    }

    /// The public part of the Meta configuration.
    pub fn public_config(&self) -> MetaPublicConfig {
        MetaPublicConfig {
            pixel_id: self.outbox.public_pixel_id(),
        }
    }

    /// Checks and stores one dashboard event; `signed_in` is the caller's
    /// account when the call carried a valid session. A `Purchase` is taken
    /// only from the owner who paid.
    pub async fn track(
        &self,
        input: TrackIn,
        origin: Origin,
        signed_in: Option<&user::Model>,
        now: DateTime<Utc>,
    ) -> Result<TrackOut, TrackError> {
        self.limiter
            .hit(&format!("meta:ip:{}", origin.ip), PER_IP)
            .await
            .map_err(TrackError::RateLimited)?;
        let mut errors = FieldErrors::new();
        let email = text(&input.email, 254, "email", &mut errors);
        let phone = text(&input.phone, 30, "phone", &mut errors);
        let first_name = text(&input.first_name, 60, "firstName", &mut errors);
        let last_name = text(&input.last_name, 60, "lastName", &mut errors);
        let content_name = text(&input.content_name, 100, "contentName", &mut errors);
        let content_category = text(&input.content_category, 60, "contentCategory", &mut errors);
        let status = text(&input.status, 40, "status", &mut errors);
        let source = text(&input.event_source_url, 500, "eventSourceUrl", &mut errors)
            .or(origin.referer.clone())
            .filter(|u| u.starts_with(&self.public_url));
        let mut custom = Map::new();
        if let Some(props) = &input.custom_properties {
            if props.len() > 20 {
                errors.insert(
                    "customProperties".into(),
                    vec!["At most 20 custom properties".into()],
                );
            }
            for (k, v) in props.iter().take(20) {
                let ok_key =
                    k.len() <= 40 && k.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
                let ok_value = match v {
                    Value::String(s) => s.chars().count() <= 200 && !s.contains('\0'),
                    Value::Number(_) | Value::Bool(_) | Value::Null => true,
                    _ => false,
                };
                if !ok_key || !ok_value {
                    errors.insert(
                        "customProperties".into(),
                        vec!["Custom properties are short names with a text (at most 200 characters), number or flag".into()],
                    );
                    break;
                }
                custom.insert(k.clone(), v.clone());
            }
        }
        if let Some(c) = &content_name {
            custom.insert("content_name".into(), json!(c));
        }
        if let Some(c) = &content_category {
            custom.insert("content_category".into(), json!(c));
        }
        if let Some(s) = &status {
            custom.insert("status".into(), json!(s));
        }
        let name = input.event_name.trim();
        if !matches!(name, "Lead" | "Purchase") {
            errors.insert(
                "eventName".into(),
                vec!["Event name must be Lead or Purchase".into()],
            );
        }
        if !errors.is_empty() {
            return Err(TrackError::Validation {
                message: ca_core::validation::first_message(&errors),
                errors,
            });
        }
        let mut user_data = UserData {
            email,
            phone,
            first_name,
            last_name,
            external_id: None,
            country: Some(HOME_COUNTRY.into()),
            client_ip_address: Some(origin.ip.clone()).filter(|ip| ip != "unknown"),
            client_user_agent: origin.user_agent.clone(),
            fbp: origin.fbp.clone(),
            fbc: origin.fbc.clone(),
        };
        let event = if name == "Purchase" {
            let order = text(&input.order_id, 25, "orderId", &mut errors);
            let value = match &input.value {
                Some(Value::Number(n)) => n.to_string().parse::<Decimal>().ok(),
                Some(Value::String(s)) => s.trim().parse::<Decimal>().ok(),
                _ => None,
            };
            let currency = input
                .currency
                .as_deref()
                .map(|c| c.trim().to_uppercase())
                .unwrap_or_else(|| "INR".into());
            let Some(buyer) = signed_in else {
                return Err(TrackError::SignInRequired);
            };
            let (Some(order), Some(value)) = (order, value) else {
                return Err(TrackError::Validation {
                    message: "A purchase needs its orderId and value".into(),
                    errors: FieldErrors::from([(
                        "orderId".to_string(),
                        vec!["A purchase needs its orderId and value".to_string()],
                    )]),
                });
            };
            let paid = payment::Entity::find()
                .filter(payment::Column::Txnid.eq(&order))
                .filter(
                    payment::Column::Status
                        .eq(ca_billing::entities::payment::PaymentStatus::Success),
                )
                .one(&self.db)
                .await?
                .filter(|p| {
                    p.owner_id == buyer.id
                        && Decimal::new(p.amount_paise, 2) == value
                        && currency == p.currency
                })
                .ok_or(TrackError::NotVerified)?;
            // The payment's own record wins; the browser adds its cookies.
            purchase_event(&paid, Some(user_data), source)
        } else {
            let lead = text(&input.lead_id, 64, "leadId", &mut errors).ok_or_else(|| {
                TrackError::Validation {
                    message: "A lead needs its leadId".into(),
                    errors: FieldErrors::from([(
                        "leadId".to_string(),
                        vec!["A lead needs its leadId".to_string()],
                    )]),
                }
            })?;
            let account = user::Entity::find_by_id(lead.clone())
                .one(&self.db)
                .await?
                .filter(|u| now - u.created_at <= chrono::Duration::hours(LEAD_WINDOW_HOURS))
                .filter(|u| {
                    user_data
                        .email
                        .as_deref()
                        .is_none_or(|e| e.eq_ignore_ascii_case(&u.email))
                })
                .ok_or(TrackError::NotVerified)?;
            user_data.external_id = Some(account.id.clone());
            user_data.email = Some(account.email.clone());
            OutgoingEvent {
                event_id: format!("lead-{}", account.id),
                event_name: "Lead".into(),
                event_time: now,
                event_source_url: source,
                user_data,
                custom_data: custom,
                delivery: Delivery::Live,
            }
        };
        self.outbox.enqueue_from_browser(&self.db, &event).await?;
        Ok(TrackOut {
            success: true,
            event_id: event.event_id,
            forwarded: self.outbox.will_send(event.delivery),
        })
    }

    /// Queues a `Purchase` for every successful payment of the last week not
    /// queued yet (the server's own report, complete with the buyer's
    /// browser as seen at checkout; the browser's copy adds its cookies and
    /// is waited for a minute). Payments that moved no money are recorded
    /// as never sent; test payments go only to Meta's Test Events.
    pub async fn sync_purchases(&self, now: DateTime<Utc>) -> Result<usize, TrackError> {
        let paid = payment::Entity::find()
            .filter(
                payment::Column::Status.eq(ca_billing::entities::payment::PaymentStatus::Success),
            )
            .filter(payment::Column::SettledAt.gte(now - chrono::Duration::days(MAX_AGE_DAYS)))
            .all(&self.db)
            .await?;
        // One look at the outbox per round, not one per payment.
        let stored = self
            .outbox
            .stored(paid.iter().map(|p| purchase_event_id(&p.txnid)).collect())
            .await?;
        let mut queued = 0;
        for p in paid {
            if stored.contains(&purchase_event_id(&p.txnid)) {
                continue;
            }
            let event = purchase_event(&p, None, None);
            let wait = chrono::Duration::seconds(BROWSER_WAIT_SECS);
            if self
                .outbox
                .enqueue_after(&self.db, &event, now + wait)
                .await?
            {
                queued += 1;
            }
        }
        Ok(queued)
    }

    /// Queues the server's purchases and sends what is due; run every few seconds.
    pub async fn tick(&self, now: DateTime<Utc>) -> Result<usize, TrackError> {
        self.sync_purchases(now).await?;
        Ok(self.outbox.send_due(now).await?)
    }
}

/// The Purchase event id of a payment: the same from the server and the browser.
pub fn purchase_event_id(txnid: &str) -> String {
    format!("purchase-{txnid}")
}

fn purchase_event(
    p: &payment::Model,
    browser: Option<UserData>,
    source: Option<String>,
) -> OutgoingEvent {
    let browser = browser.unwrap_or_default();
    // What the payment recorded wins over what a browser says: the buyer's
    // browser at checkout, their email, their phone only when they gave one.
    let user_data = UserData {
        email: Some(p.email.clone()),
        phone: Some(p.phone.clone()).filter(|ph| ph != ca_billing::payments::DEFAULT_PHONE),
        first_name: p.firstname.split_whitespace().next().map(str::to_string),
        last_name: None,
        external_id: Some(p.owner_id.clone()),
        country: Some(HOME_COUNTRY.into()),
        client_ip_address: p.client_ip.clone().or(browser.client_ip_address),
        client_user_agent: p.client_user_agent.clone().or(browser.client_user_agent),
        fbp: browser.fbp,
        fbc: browser.fbc,
    };
    let mut custom = Map::new();
    custom.insert("value".into(), json!(p.amount_paise as f64 / 100.0));
    custom.insert("currency".into(), json!(p.currency));
    custom.insert("content_name".into(), json!(p.productinfo));
    custom.insert("content_category".into(), json!("subscription"));
    custom.insert("order_id".into(), json!(p.txnid));
    OutgoingEvent {
        event_id: purchase_event_id(&p.txnid),
        event_name: "Purchase".into(),
        event_time: p.settled_at.unwrap_or(p.created_at),
        event_source_url: p.source_url.clone().or(source),
        user_data,
        custom_data: custom,
        delivery: match p.mode {
            CheckoutMode::Live => Delivery::Live,
            CheckoutMode::Test => Delivery::TestOnly,
            CheckoutMode::Simulator | CheckoutMode::Demo => {
                Delivery::Never("No money moved (simulator or demo payment): never sent to Meta")
            }
        },
    }
}
