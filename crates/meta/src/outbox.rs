//! Storing events and sending them to the Graph API.

use std::collections::BTreeMap;
use std::time::Duration;

use chrono::{DateTime, Utc};
use sea_orm::sea_query::{Expr, ExprTrait};
use sea_orm::{
    ActiveModelTrait, ColumnTrait, Condition, ConnectionTrait, DatabaseConnection, EntityTrait,
    QueryFilter, QueryOrder, QuerySelect, Set,
};
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value, json};

use crate::normalize::{hashed, is_placeholder_phone, sha256, with_country_code};
use crate::{entity, state};

/// Most events in one request (Meta's limit).
pub const BATCH: u64 = 1000;
/// Meta refuses events older than this.
pub const MAX_AGE_DAYS: i64 = 7;
/// How long a sender holds the events it claimed (a crashed sender's events
/// are taken up by another after this).
const CLAIM_SECS: i64 = 600;
/// The row of `meta_outbox_state`.
const STATE_ID: &str = "outbox";
/// What staff read while Meta rejects the access token.
pub const TOKEN_REJECTED: &str = "Meta token rejected";
/// What staff read while Meta refuses the pixel itself (it does not exist
/// or the token may not send to it): no event could go through.
pub const PIXEL_REFUSED: &str = "Meta refused the pixel";

/// Where and how events are sent.
#[derive(Debug, Clone)]
pub struct MetaConfig {
    pub pixel_id: Option<String>,
    pub access_token: Option<String>,
    /// `https://graph.facebook.com` (a local stand-in in tests).
    pub graph_url: String,
    pub api_version: String,
    /// Meta's test-events code, while testing: every request carries it,
    /// and only then are purchases from PayU's test environment sent.
    pub test_event_code: Option<String>,
    /// Longest wait for Meta's answer to one request.
    pub timeout: Duration,
}

impl MetaConfig {
    pub fn configured(&self) -> bool {
        self.pixel_id.is_some() && self.access_token.is_some()
    }
}

#[derive(Debug, thiserror::Error)]
pub enum MetaError {
    #[error("database error: {0}")]
    Db(#[from] sea_orm::DbErr),
    #[error("{message}")]
    Validation {
        message: String,
        errors: ca_core::FieldErrors,
    },
}

impl ca_core::DomainError for MetaError {
    fn kind(&self) -> ca_core::ErrorKind {
        match self {
            Self::Db(_) => ca_core::ErrorKind::Internal,
            Self::Validation { .. } => ca_core::ErrorKind::Validation,
        }
    }

    fn code(&self) -> &'static str {
        match self {
            Self::Db(_) => "internal_error",
            Self::Validation { .. } => "validation_failed",
        }
    }

    fn field_errors(&self) -> Option<&ca_core::FieldErrors> {
        match self {
            Self::Validation { errors, .. } => Some(errors),
            Self::Db(_) => None,
        }
    }
}

/// The states an event of the outbox is in.
pub const STATUSES: [&str; 5] = ["pending", "sent", "failed", "not_forwarded", "skipped"];

/// Which events staff list: every filter optional, empty meaning any.
#[derive(Debug, Clone, Default, Deserialize, utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
pub struct OutboxQuery {
    /// Only events in this state.
    #[param(schema_with = status_schema)]
    pub status: Option<String>,
    /// From 1.
    #[param(schema_with = ca_core::paging::page_schema)]
    pub page: Option<String>,
    /// 1–100 (default 50).
    #[param(schema_with = ca_core::paging::limit_schema)]
    pub limit: Option<String>,
}

fn status_schema() -> utoipa::openapi::schema::Schema {
    ca_core::paging::blank_or_one_of(&STATUSES)
}

/// Who the event is about, before normalising and hashing.
#[derive(Debug, Clone, Default)]
pub struct UserData {
    pub email: Option<String>,
    pub phone: Option<String>,
    pub first_name: Option<String>,
    pub last_name: Option<String>,
    pub external_id: Option<String>,
    /// ISO-3166 alpha-2 (`IN`); sent lowercase and hashed.
    pub country: Option<String>,
    pub client_ip_address: Option<String>,
    pub client_user_agent: Option<String>,
    pub fbp: Option<String>,
    pub fbc: Option<String>,
}

impl UserData {
    /// Meta's `user_data`: hashed where Meta requires, the rest as it is.
    /// A placeholder phone number (one digit repeated) is left out rather
    /// than sent as if it were the buyer's.
    pub fn to_meta(&self) -> Map<String, Value> {
        let mut m = Map::new();
        let mut put_hashed = |key: &str, field: &str, v: &Option<String>| {
            if let Some(h) = v.as_deref().and_then(|v| hashed(field, v)) {
                m.insert(key.into(), json!([h]));
            }
        };
        put_hashed("em", "em", &self.email);
        let phone = self
            .phone
            .as_deref()
            .filter(|p| !is_placeholder_phone(p))
            .map(with_country_code);
        put_hashed("ph", "ph", &phone);
        put_hashed("fn", "fn", &self.first_name);
        put_hashed("ln", "ln", &self.last_name);
        put_hashed("external_id", "external_id", &self.external_id);
        put_hashed("country", "country", &self.country);
        for (key, v) in [
            ("client_ip_address", &self.client_ip_address),
            ("client_user_agent", &self.client_user_agent),
            ("fbp", &self.fbp),
            ("fbc", &self.fbc),
        ] {
            if let Some(v) = v.as_deref().map(str::trim).filter(|v| !v.is_empty()) {
                m.insert(key.into(), json!(v));
            }
        }
        m
    }
}

/// Which of Meta's datasets an event may reach.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Delivery {
    /// The live dataset (or Test Events while a test event code is set).
    #[default]
    Live,
    /// Only Meta's Test Events view: a purchase in PayU's test environment,
    /// sent only while a test event code is configured.
    TestOnly,
    /// Never sent (the reason is stored): a purchase that moved no money.
    Never(&'static str),
}

/// One event to send.
#[derive(Debug, Clone)]
pub struct OutgoingEvent {
    pub event_id: String,
    pub event_name: String,
    pub event_time: DateTime<Utc>,
    pub event_source_url: Option<String>,
    pub user_data: UserData,
    pub custom_data: Map<String, Value>,
    pub delivery: Delivery,
}

impl OutgoingEvent {
    /// The event as the Graph API takes it.
    pub fn to_meta(&self) -> Value {
        let mut e = json!({
            "event_name": self.event_name,
            "event_time": self.event_time.timestamp(),
            "event_id": self.event_id,
            "action_source": "website",
            "user_data": self.user_data.to_meta(),
            "custom_data": self.custom_data,
        });
        if let Some(url) = &self.event_source_url {
            e["event_source_url"] = json!(url);
        }
        e
    }
}

/// An outbox event as staff see it.
#[derive(Debug, Clone, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct OutboxEntry {
    pub event_id: String,
    pub event_name: String,
    pub event_time: DateTime<Utc>,
    /// `pending`, `sent`, `failed`, `not_forwarded` or `skipped`.
    pub status: String,
    pub attempts: i32,
    /// Meta's reason for refusing the event, or why it waits; never holds
    /// the access token.
    pub last_error: Option<String>,
    /// A purchase from PayU's test environment (Test Events only).
    pub test_event: bool,
    pub created_at: DateTime<Utc>,
    pub sent_at: Option<DateTime<Utc>>,
}

/// Sending stopped because Meta rejected the access token, or refused the
/// pixel (it does not exist, or the token may not send to it).
#[derive(Debug, Clone, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct OutboxPause {
    /// "Meta token rejected" or "Meta refused the pixel", and Meta's own message.
    pub reason: String,
    pub since: DateTime<Utc>,
    /// What to fix: `token` (CA_META_ACCESS_TOKEN) or `pixel`
    /// (CA_META_PIXEL_ID, or the token's access to that pixel).
    #[schema(value_type = String, example = "token")]
    pub cause: &'static str,
}

/// What staff see of the outbox: whether events go to Meta at all, whether
/// sending is paused and why, how many are in each state, and the newest.
#[derive(Debug, Clone, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct OutboxView {
    /// A pixel id and access token are configured; without them events are
    /// stored as `not_forwarded` and sent once they are.
    pub forwarding: bool,
    /// A test event code is configured: every event goes to Meta's Test
    /// Events view, and purchases from PayU's test environment are sent.
    pub test_events: bool,
    /// Set while Meta rejects the access token: nothing is sent, nothing is
    /// lost; sending resumes when the token is replaced or staff retry.
    pub paused: Option<OutboxPause>,
    pub pending: u64,
    pub sent: u64,
    pub failed: u64,
    pub not_forwarded: u64,
    /// Purchases that moved no money (simulator, demo): never sent.
    pub skipped: u64,
    /// One page of the events (in the state asked for, if any), newest first.
    pub events: Vec<OutboxEntry>,
    /// Where that page is in the list.
    pub pagination: ca_core::paging::Pagination,
}

/// What re-queueing failed events did.
#[derive(Debug, Clone, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct RequeueOut {
    /// Failed events put back in the queue (and a pause lifted).
    pub requeued: u64,
    /// Failed events left failed: older than Meta accepts (7 days).
    pub too_old: u64,
}

/// An event as staff see it.
fn entry(e: entity::Model) -> OutboxEntry {
    OutboxEntry {
        event_id: e.event_id,
        event_name: e.event_name,
        event_time: e.event_time,
        status: e.status,
        attempts: e.attempts,
        last_error: e.last_error,
        test_event: e.test_event,
        created_at: e.created_at,
        sent_at: e.sent_at,
    }
}

/// Meta's `error` object.
#[derive(Debug, Clone, Default, Deserialize)]
pub struct GraphError {
    pub message: Option<String>,
    #[serde(rename = "type")]
    pub kind: Option<String>,
    pub code: Option<i64>,
    pub error_subcode: Option<i64>,
    pub is_transient: Option<bool>,
    pub error_user_title: Option<String>,
    pub error_user_msg: Option<String>,
    pub fbtrace_id: Option<String>,
}

#[derive(Debug, Deserialize)]
struct GraphErrorBody {
    error: GraphError,
}

/// What one request to Meta came to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Outcome {
    Sent,
    /// A temporary failure (network, 5xx, throttling, `is_transient`).
    Retry(String),
    /// The access token is invalid or expired: nothing will go through.
    TokenRejected(String),
    /// The pixel does not exist, or the token may not send to it: nothing
    /// will go through either.
    PixelRefused(String),
    /// Meta refused the request because of its events.
    Refused(String),
}

/// Meta's codes for a token that is invalid, expired or lacks permission.
fn token_code(code: i64) -> bool {
    matches!(code, 102 | 190)
}

/// Meta's answers about the request's target rather than its events: the
/// pixel does not exist or cannot be reached with this token (code 100,
/// subcode 33), or the app or token lacks a permission (10, 200–299).
fn pixel_code(code: i64, subcode: Option<i64>) -> bool {
    (code == 100 && subcode == Some(33)) || code == 10 || (200..300).contains(&code)
}

/// Meta's codes for throttling and temporary trouble.
fn transient_code(code: i64) -> bool {
    matches!(code, 1 | 2 | 4 | 17 | 32 | 341 | 613 | 80004)
}

/// Reads Meta's answer to a request that was not a success: its `error`
/// object decides between retrying, pausing and refusing.
pub fn classify(status: u16, body: &str) -> Outcome {
    let parsed = serde_json::from_str::<GraphErrorBody>(body)
        .ok()
        .map(|b| b.error);
    let Some(e) = parsed else {
        let text: String = body.chars().take(200).collect();
        let reason = format!("Meta answered {status} without an error object: {text}");
        return if status >= 500 || status == 429 {
            Outcome::Retry(reason)
        } else if status == 401 {
            Outcome::TokenRejected(format!("{TOKEN_REJECTED}: {reason}"))
        } else {
            Outcome::Refused(reason)
        };
    };
    let mut reason = format!(
        "Meta answered {status}: {}",
        e.message.as_deref().unwrap_or("no message")
    );
    if let Some(msg) = e
        .error_user_msg
        .as_deref()
        .or(e.error_user_title.as_deref())
    {
        reason.push_str(&format!(" ({msg})"));
    }
    let mut parts = Vec::new();
    if let Some(kind) = &e.kind {
        parts.push(format!("type {kind}"));
    }
    if let Some(code) = e.code {
        parts.push(format!("code {code}"));
    }
    if let Some(sub) = e.error_subcode {
        parts.push(format!("subcode {sub}"));
    }
    if let Some(trace) = &e.fbtrace_id {
        parts.push(format!("fbtrace_id {trace}"));
    }
    if !parts.is_empty() {
        reason.push_str(&format!(" [{}]", parts.join(", ")));
    }
    let reason: String = reason.chars().take(600).collect();
    // An OAuthException alone is not a token problem: Meta labels invalid
    // event parameters (code 100) with that type too.
    let token = e.code.is_some_and(token_code)
        || (status == 401 && e.code.is_none_or(|c| !transient_code(c)))
        || (e.kind.as_deref() == Some("OAuthException") && e.code.is_none());
    if token {
        return Outcome::TokenRejected(format!("{TOKEN_REJECTED}: {reason}"));
    }
    if e.code.is_some_and(|c| pixel_code(c, e.error_subcode)) {
        return Outcome::PixelRefused(format!("{PIXEL_REFUSED}: {reason}"));
    }
    if status >= 500
        || status == 429
        || e.is_transient == Some(true)
        || e.code.is_some_and(transient_code)
    {
        return Outcome::Retry(reason);
    }
    Outcome::Refused(reason)
}

/// A fingerprint of the pixel id and access token sending was paused with,
/// to tell a changed one from the refused one (never the token itself).
fn fingerprint(pixel: &str, token: &str) -> String {
    sha256(&format!("convertassist-meta-token|{token}|{pixel}"))[..32].to_string()
}

/// A transport error's text without its URL and without the token.
fn describe_transport(err: reqwest::Error, token: &str) -> String {
    let err = err.without_url();
    let mut text = err.to_string();
    let mut source = std::error::Error::source(&err);
    while let Some(s) = source {
        text.push_str(": ");
        text.push_str(&s.to_string());
        source = s.source();
    }
    redact(&format!("sending failed: {text}"), token)
}

/// `text` with every occurrence of `token` blanked out.
fn redact(text: &str, token: &str) -> String {
    if token.is_empty() {
        text.to_string()
    } else {
        text.replace(token, "[access token]")
    }
}

/// The outbox and its sender.
#[derive(Clone)]
pub struct Outbox {
    db: DatabaseConnection,
    config: MetaConfig,
    http: reqwest::Client,
}

/// Time before attempt `n` + 1: 2, 4, 8 … seconds, at most an hour.
pub fn backoff(attempts: i32) -> chrono::Duration {
    let secs = 2i64.saturating_pow(u32::try_from(attempts.clamp(1, 12)).unwrap_or(12));
    chrono::Duration::seconds(std::cmp::min(secs, 3600))
}

/// The events of one outbox page, newest first, all of them or those in
/// `status`: ordered as the `meta_events` indexes are, so a deep page reads
/// its rows from the index instead of sorting the table.
pub fn page_query(status: Option<&str>) -> sea_orm::Select<entity::Entity> {
    let events = entity::Entity::find()
        .order_by_desc(entity::Column::CreatedAt)
        .order_by_desc(entity::Column::EventId);
    match status {
        Some(s) => events.filter(entity::Column::Status.eq(s)),
        None => events,
    }
}

impl Outbox {
    pub fn new(db: DatabaseConnection, config: MetaConfig) -> Self {
        Self {
            db,
            config,
            http: reqwest::Client::new(),
        }
    }

    pub fn configured(&self) -> bool {
        self.config.configured()
    }

    /// Whether an event of `delivery` goes to Meta with this configuration.
    pub fn will_send(&self, delivery: Delivery) -> bool {
        self.initial_status(delivery).0 == "pending"
    }

    /// The pixel id the dashboard's pages may use for Meta's cookies, when
    /// events are forwarded.
    pub fn public_pixel_id(&self) -> Option<String> {
        self.configured()
            .then(|| self.config.pixel_id.clone())
            .flatten()
    }

    /// Stores the server's own `event` (once per `event_id`), due at once.
    pub async fn enqueue<C: ConnectionTrait>(
        &self,
        conn: &C,
        event: &OutgoingEvent,
    ) -> Result<bool, MetaError> {
        self.store(conn, event, None, Utc::now()).await
    }

    /// Stores the server's own `event`, due at `not_before` (so the
    /// browser's copy, with its cookies, can join it first).
    pub async fn enqueue_after<C: ConnectionTrait>(
        &self,
        conn: &C,
        event: &OutgoingEvent,
        not_before: DateTime<Utc>,
    ) -> Result<bool, MetaError> {
        self.store(conn, event, None, not_before).await
    }

    /// Stores the browser's copy of `event`. The first copy of an event id
    /// is kept: if the server stored the event first, the browser's copy
    /// adds only what the server cannot know (its `_fbp`/`_fbc` cookies)
    /// while the event is unsent, and makes it due at once; every later
    /// copy changes nothing. Returns whether a new event was stored.
    pub async fn enqueue_from_browser<C: ConnectionTrait>(
        &self,
        conn: &C,
        event: &OutgoingEvent,
    ) -> Result<bool, MetaError> {
        let now = Utc::now();
        if self.store(conn, event, Some(now), now).await? {
            return Ok(true);
        }
        let Some(stored) = entity::Entity::find()
            .filter(entity::Column::EventId.eq(&event.event_id))
            .one(conn)
            .await?
        else {
            return Ok(false);
        };
        if stored.browser_at.is_some() {
            return Ok(false);
        }
        let Ok(mut payload) = serde_json::from_str::<Value>(&stored.payload) else {
            // Unreadable: the sender marks it failed; nothing to merge into.
            return Ok(false);
        };
        let browser = event.to_meta();
        if let (Some(user), Some(from)) = (
            payload.get_mut("user_data").and_then(Value::as_object_mut),
            browser.get("user_data").and_then(Value::as_object),
        ) {
            for key in ["fbp", "fbc"] {
                if let Some(v) = from.get(key)
                    && !user.contains_key(key)
                {
                    user.insert(key.into(), v.clone());
                }
            }
        }
        // Only the first browser copy gets here past `browser_at IS NULL`.
        entity::Entity::update_many()
            .col_expr(entity::Column::Payload, Expr::value(payload.to_string()))
            .col_expr(entity::Column::BrowserAt, Expr::value(Some(now)))
            .filter(entity::Column::EventId.eq(&event.event_id))
            .filter(entity::Column::BrowserAt.is_null())
            .filter(entity::Column::Status.is_in(["pending", "not_forwarded"]))
            .exec(conn)
            .await?;
        // The event no longer waits for the browser.
        entity::Entity::update_many()
            .col_expr(entity::Column::NextAttemptAt, Expr::value(now))
            .filter(entity::Column::EventId.eq(&event.event_id))
            .filter(entity::Column::Status.eq("pending"))
            .filter(entity::Column::Attempts.eq(0))
            .filter(entity::Column::NextAttemptAt.gt(now))
            .exec(conn)
            .await?;
        Ok(false)
    }

    /// The status a new event starts in, and why it waits (if it does).
    fn initial_status(&self, delivery: Delivery) -> (&'static str, Option<String>) {
        match delivery {
            Delivery::Never(reason) => ("skipped", Some(reason.to_string())),
            _ if !self.configured() => ("not_forwarded", None),
            Delivery::TestOnly if self.config.test_event_code.is_none() => (
                "not_forwarded",
                Some(
                    "A test payment: sent to Meta's Test Events only while CA_META_TEST_EVENT_CODE is set"
                        .into(),
                ),
            ),
            _ => ("pending", None),
        }
    }

    /// Inserts `event` unless its id is stored; true when inserted.
    async fn store<C: ConnectionTrait>(
        &self,
        conn: &C,
        event: &OutgoingEvent,
        browser_at: Option<DateTime<Utc>>,
        not_before: DateTime<Utc>,
    ) -> Result<bool, MetaError> {
        let payload = event.to_meta().to_string();
        let now = Utc::now();
        let (status, reason) = self.initial_status(event.delivery);
        let exists = entity::Entity::find()
            .filter(entity::Column::EventId.eq(&event.event_id))
            .one(conn)
            .await?
            .is_some();
        if exists {
            return Ok(false);
        }
        let row = entity::ActiveModel {
            id: Set(ca_core::ids::new_id().to_string()),
            event_id: Set(event.event_id.clone()),
            event_name: Set(event.event_name.clone()),
            event_time: Set(event.event_time),
            payload: Set(payload),
            status: Set(status.into()),
            attempts: Set(0),
            next_attempt_at: Set(not_before),
            claim_token: Set(None),
            claimed_until: Set(None),
            last_error: Set(reason),
            created_at: Set(now),
            sent_at: Set(None),
            browser_at: Set(browser_at),
            test_event: Set(event.delivery == Delivery::TestOnly),
        };
        match row.insert(conn).await {
            Ok(_) => Ok(true),
            // Stored meanwhile by a concurrent call: the unique index decides.
            Err(err)
                if matches!(
                    err.sql_err(),
                    Some(sea_orm::SqlErr::UniqueConstraintViolation(_))
                ) =>
            {
                Ok(false)
            }
            Err(err) => Err(err.into()),
        }
    }

    /// Which of `event_ids` are stored.
    pub async fn stored(
        &self,
        event_ids: Vec<String>,
    ) -> Result<std::collections::HashSet<String>, MetaError> {
        if event_ids.is_empty() {
            return Ok(Default::default());
        }
        Ok(entity::Entity::find()
            .select_only()
            .column(entity::Column::EventId)
            .filter(entity::Column::EventId.is_in(event_ids))
            .into_tuple::<String>()
            .all(&self.db)
            .await?
            .into_iter()
            .collect())
    }

    /// The pause, if sending is paused.
    pub async fn pause(&self) -> Result<Option<OutboxPause>, MetaError> {
        Ok(state::Entity::find_by_id(STATE_ID)
            .one(&self.db)
            .await?
            .and_then(|s| {
                let reason = s.paused_reason?;
                Some(OutboxPause {
                    cause: if reason.starts_with(PIXEL_REFUSED) {
                        "pixel"
                    } else {
                        "token"
                    },
                    reason,
                    since: s.paused_at?,
                })
            }))
    }

    async fn set_pause(
        &self,
        reason: Option<String>,
        target: Option<(&str, &str)>,
        now: DateTime<Utc>,
    ) -> Result<(), MetaError> {
        let row = state::ActiveModel {
            id: Set(STATE_ID.into()),
            paused_at: Set(reason.as_ref().map(|_| now)),
            paused_reason: Set(reason),
            token_fingerprint: Set(target.map(|(pixel, token)| fingerprint(pixel, token))),
        };
        state::Entity::insert(row)
            .on_conflict(
                sea_orm::sea_query::OnConflict::column(state::Column::Id)
                    .update_columns([
                        state::Column::PausedReason,
                        state::Column::PausedAt,
                        state::Column::TokenFingerprint,
                    ])
                    .to_owned(),
            )
            .exec(&self.db)
            .await?;
        Ok(())
    }

    /// The outbox as staff see it: the counts, and one page of the events
    /// `query` asks for. A bad filter or page is an error naming it.
    pub async fn view(&self, query: &OutboxQuery) -> Result<OutboxView, MetaError> {
        use ca_core::paging::{Pagination, whole_number};
        use sea_orm::PaginatorTrait;
        let mut errors = ca_core::FieldErrors::new();
        let page = whole_number(query.page.as_deref(), "page", 1, 1, 1_000_000, &mut errors);
        let limit = whole_number(query.limit.as_deref(), "limit", 50, 1, 100, &mut errors);
        let status = query
            .status
            .as_deref()
            .map(str::trim)
            .filter(|s| !s.is_empty());
        if let Some(s) = status
            && !STATUSES.contains(&s)
        {
            errors.insert(
                "status".into(),
                vec![format!("status must be one of {}", STATUSES.join(", "))],
            );
        }
        if !errors.is_empty() {
            return Err(MetaError::Validation {
                message: ca_core::validation::first_message(&errors),
                errors,
            });
        }
        let count = |status: &'static str| {
            entity::Entity::find()
                .filter(entity::Column::Status.eq(status))
                .count(&self.db)
        };
        let counts = [
            count("pending").await?,
            count("sent").await?,
            count("failed").await?,
            count("not_forwarded").await?,
            count("skipped").await?,
        ];
        let total = match status {
            Some(s) => counts[STATUSES.iter().position(|x| *x == s).unwrap_or(0)],
            None => counts.iter().sum(),
        };
        let pagination = Pagination::new(page, limit, total);
        let events = page_query(status)
            .offset(pagination.offset())
            .limit(limit)
            .all(&self.db)
            .await?
            .into_iter()
            .map(entry)
            .collect();
        Ok(OutboxView {
            forwarding: self.configured(),
            test_events: self.config.test_event_code.is_some(),
            paused: self.pause().await?,
            pending: counts[0],
            sent: counts[1],
            failed: counts[2],
            not_forwarded: counts[3],
            skipped: counts[4],
            events,
            pagination,
        })
    }

    /// The newest events, for staff.
    pub async fn recent(&self, limit: u64) -> Result<Vec<OutboxEntry>, MetaError> {
        Ok(entity::Entity::find()
            .order_by_desc(entity::Column::CreatedAt)
            .limit(limit)
            .all(&self.db)
            .await?
            .into_iter()
            .map(entry)
            .collect())
    }

    /// Staff put failed events back in the queue (those Meta still accepts,
    /// younger than 7 days) and lift a pause: after a token is replaced, or
    /// once whatever Meta refused is fixed.
    pub async fn requeue_failed(&self, now: DateTime<Utc>) -> Result<RequeueOut, MetaError> {
        let oldest = now - chrono::Duration::days(MAX_AGE_DAYS);
        let requeued = entity::Entity::update_many()
            .col_expr(entity::Column::Status, Expr::value("pending"))
            .col_expr(entity::Column::Attempts, Expr::value(0))
            .col_expr(entity::Column::NextAttemptAt, Expr::value(now))
            .col_expr(entity::Column::LastError, Expr::value(None::<String>))
            .col_expr(entity::Column::ClaimToken, Expr::value(None::<String>))
            .col_expr(
                entity::Column::ClaimedUntil,
                Expr::value(None::<DateTime<Utc>>),
            )
            .filter(entity::Column::Status.eq("failed"))
            .filter(entity::Column::EventTime.gte(oldest))
            .exec(&self.db)
            .await?
            .rows_affected;
        use sea_orm::PaginatorTrait;
        let too_old = entity::Entity::find()
            .filter(entity::Column::Status.eq("failed"))
            .count(&self.db)
            .await?;
        if self.pause().await?.is_some() {
            self.set_pause(None, None, now).await?;
            tracing::info!("Meta outbox resumed by staff");
        }
        Ok(RequeueOut { requeued, too_old })
    }

    /// Claims due events (so two instances never send the same batch) and
    /// sends them. A batch Meta refuses is split in halves and each half
    /// sent again, down to the single events at fault, so one bad event
    /// never takes good ones with it. A rejected access token pauses
    /// sending with every event kept pending. Returns how many were sent.
    pub async fn send_due(&self, now: DateTime<Utc>) -> Result<usize, MetaError> {
        let (Some(pixel), Some(token)) = (&self.config.pixel_id, &self.config.access_token) else {
            return Ok(0);
        };
        if let Some(paused) = state::Entity::find_by_id(STATE_ID).one(&self.db).await?
            && paused.paused_reason.is_some()
        {
            if paused.token_fingerprint.as_deref() == Some(fingerprint(pixel, token).as_str()) {
                return Ok(0);
            }
            tracing::info!("the Meta pixel id or access token was changed: sending resumes");
            self.set_pause(None, None, now).await?;
        }
        let testing = self.config.test_event_code.is_some();
        // Events kept while Meta was not configured go now; a test purchase
        // goes only while a test event code is set.
        let mut promote = entity::Entity::update_many()
            .col_expr(entity::Column::Status, Expr::value("pending"))
            .col_expr(entity::Column::NextAttemptAt, Expr::value(now))
            .col_expr(entity::Column::LastError, Expr::value(None::<String>))
            .filter(entity::Column::Status.eq("not_forwarded"));
        if !testing {
            promote = promote.filter(entity::Column::TestEvent.eq(false));
            entity::Entity::update_many()
                .col_expr(entity::Column::Status, Expr::value("not_forwarded"))
                .col_expr(
                    entity::Column::LastError,
                    Expr::value(Some(
                        "A test payment: sent to Meta's Test Events only while CA_META_TEST_EVENT_CODE is set"
                            .to_string(),
                    )),
                )
                .filter(entity::Column::Status.eq("pending"))
                .filter(entity::Column::TestEvent.eq(true))
                .exec(&self.db)
                .await?;
        }
        promote.exec(&self.db).await?;
        // Too old for Meta: mark failed rather than retry forever.
        entity::Entity::update_many()
            .col_expr(entity::Column::Status, Expr::value("failed"))
            .col_expr(
                entity::Column::LastError,
                Expr::value(Some("older than Meta accepts (7 days)".to_string())),
            )
            .filter(entity::Column::Status.eq("pending"))
            .filter(entity::Column::EventTime.lt(now - chrono::Duration::days(MAX_AGE_DAYS)))
            .exec(&self.db)
            .await?;
        let claim = ca_core::ids::new_id().to_string();
        let due: Vec<String> = entity::Entity::find()
            .select_only()
            .column(entity::Column::Id)
            .filter(entity::Column::Status.eq("pending"))
            .filter(entity::Column::NextAttemptAt.lte(now))
            .filter(
                Condition::any()
                    .add(entity::Column::ClaimedUntil.is_null())
                    .add(entity::Column::ClaimedUntil.lt(now)),
            )
            .order_by_asc(entity::Column::CreatedAt)
            .limit(BATCH)
            .into_tuple()
            .all(&self.db)
            .await?;
        if due.is_empty() {
            return Ok(0);
        }
        entity::Entity::update_many()
            .col_expr(entity::Column::ClaimToken, Expr::value(Some(claim.clone())))
            .col_expr(
                entity::Column::ClaimedUntil,
                Expr::value(Some(now + chrono::Duration::seconds(CLAIM_SECS))),
            )
            .filter(entity::Column::Id.is_in(due))
            .filter(
                Condition::any()
                    .add(entity::Column::ClaimedUntil.is_null())
                    .add(entity::Column::ClaimedUntil.lt(now)),
            )
            .exec(&self.db)
            .await?;
        let batch = entity::Entity::find()
            .filter(entity::Column::ClaimToken.eq(&claim))
            .filter(entity::Column::Status.eq("pending"))
            .order_by_asc(entity::Column::CreatedAt)
            .all(&self.db)
            .await?;
        let mut readable = Vec::with_capacity(batch.len());
        for e in batch {
            match serde_json::from_str::<Value>(&e.payload) {
                Ok(v) if v.is_object() => readable.push((e, v)),
                Ok(_) => self.fail_unreadable(&e, "not a JSON object").await?,
                Err(err) => self.fail_unreadable(&e, &err.to_string()).await?,
            }
        }
        if readable.is_empty() {
            return Ok(0);
        }
        let url = format!(
            "{}/{}/{}/events",
            self.config.graph_url.trim_end_matches('/'),
            self.config.api_version,
            pixel
        );
        let mut sent = 0;
        let mut parts = vec![readable];
        while let Some(part) = parts.pop() {
            let ids: Vec<String> = part.iter().map(|(e, _)| e.id.clone()).collect();
            let data: Vec<&Value> = part.iter().map(|(_, v)| v).collect();
            match self.post(&url, token, &data).await {
                Outcome::Sent => {
                    self.mark_sent(ids, now).await?;
                    sent += part.len();
                }
                Outcome::Retry(error) => {
                    tracing::warn!(events = part.len(), %error, "Meta events will be retried");
                    let rows: Vec<&entity::Model> = part.iter().map(|(e, _)| e).collect();
                    self.mark_retry(&rows, &error, now).await?;
                }
                // Nothing can go through until the set-up is fixed: every
                // event waits, none is marked failed for it.
                Outcome::TokenRejected(reason) | Outcome::PixelRefused(reason) => {
                    tracing::error!(%reason, "Meta refused the pixel or the access token: sending paused, events kept");
                    self.set_pause(Some(reason.clone()), Some((pixel, token)), now)
                        .await?;
                    let mut waiting = ids;
                    waiting.extend(parts.iter().flatten().map(|(e, _)| e.id.clone()));
                    self.release(waiting, &reason).await?;
                    break;
                }
                Outcome::Refused(error) if part.len() == 1 => {
                    tracing::warn!(event_id = %part[0].0.event_id, %error, "Meta refused an event; not retried");
                    self.mark_failed(ids, &error).await?;
                }
                Outcome::Refused(error) => {
                    tracing::info!(events = part.len(), %error, "Meta refused a batch: sending its halves to find the event at fault");
                    let mut first = part;
                    let second = first.split_off(first.len() / 2);
                    // Depth first, in order: the first half is popped next.
                    parts.push(second);
                    parts.push(first);
                }
            }
        }
        if sent > 0 {
            tracing::info!(events = sent, "Meta events sent");
        }
        Ok(sent)
    }

    /// One request to the Graph API. The token travels in the body, never
    /// in the URL, so no error text can carry it.
    async fn post(&self, url: &str, token: &str, data: &[&Value]) -> Outcome {
        let mut body = json!({ "data": data, "access_token": token });
        if let Some(code) = &self.config.test_event_code {
            body["test_event_code"] = json!(code);
        }
        let result = self
            .http
            .post(url)
            .timeout(self.config.timeout)
            .json(&body)
            .send()
            .await;
        match result {
            Err(err) => Outcome::Retry(describe_transport(err, token)),
            Ok(res) if res.status().is_success() => Outcome::Sent,
            Ok(res) => {
                let status = res.status().as_u16();
                let text = match res.text().await {
                    Ok(text) => text,
                    Err(err) => return Outcome::Retry(describe_transport(err, token)),
                };
                match classify(status, &text) {
                    Outcome::Retry(r) => Outcome::Retry(redact(&r, token)),
                    Outcome::TokenRejected(r) => Outcome::TokenRejected(redact(&r, token)),
                    Outcome::PixelRefused(r) => Outcome::PixelRefused(redact(&r, token)),
                    Outcome::Refused(r) => Outcome::Refused(redact(&r, token)),
                    Outcome::Sent => Outcome::Sent,
                }
            }
        }
    }

    async fn fail_unreadable(&self, e: &entity::Model, why: &str) -> Result<(), MetaError> {
        let reason = format!("the stored event could not be read: {why}");
        tracing::error!(event_id = %e.event_id, %reason, "Meta event not sent");
        self.mark_failed(vec![e.id.clone()], &reason).await
    }

    async fn mark_sent(&self, ids: Vec<String>, now: DateTime<Utc>) -> Result<(), MetaError> {
        for chunk in ids.chunks(500) {
            entity::Entity::update_many()
                .col_expr(entity::Column::Status, Expr::value("sent"))
                .col_expr(entity::Column::SentAt, Expr::value(Some(now)))
                .col_expr(entity::Column::LastError, Expr::value(None::<String>))
                .col_expr(entity::Column::ClaimToken, Expr::value(None::<String>))
                .col_expr(
                    entity::Column::ClaimedUntil,
                    Expr::value(None::<DateTime<Utc>>),
                )
                .filter(entity::Column::Id.is_in(chunk.to_vec()))
                .exec(&self.db)
                .await?;
        }
        Ok(())
    }

    async fn mark_failed(&self, ids: Vec<String>, error: &str) -> Result<(), MetaError> {
        for chunk in ids.chunks(500) {
            entity::Entity::update_many()
                .col_expr(entity::Column::Status, Expr::value("failed"))
                .col_expr(
                    entity::Column::LastError,
                    Expr::value(Some(error.to_string())),
                )
                .col_expr(
                    entity::Column::Attempts,
                    Expr::col(entity::Column::Attempts).add(1),
                )
                .col_expr(entity::Column::ClaimToken, Expr::value(None::<String>))
                .col_expr(
                    entity::Column::ClaimedUntil,
                    Expr::value(None::<DateTime<Utc>>),
                )
                .filter(entity::Column::Id.is_in(chunk.to_vec()))
                .exec(&self.db)
                .await?;
        }
        Ok(())
    }

    /// Back to pending, unclaimed and not counted as an attempt.
    async fn release(&self, ids: Vec<String>, why: &str) -> Result<(), MetaError> {
        for chunk in ids.chunks(500) {
            entity::Entity::update_many()
                .col_expr(
                    entity::Column::LastError,
                    Expr::value(Some(why.to_string())),
                )
                .col_expr(entity::Column::ClaimToken, Expr::value(None::<String>))
                .col_expr(
                    entity::Column::ClaimedUntil,
                    Expr::value(None::<DateTime<Utc>>),
                )
                .filter(entity::Column::Id.is_in(chunk.to_vec()))
                .exec(&self.db)
                .await?;
        }
        Ok(())
    }

    /// One more attempt, due after the backoff of its count.
    async fn mark_retry(
        &self,
        rows: &[&entity::Model],
        error: &str,
        now: DateTime<Utc>,
    ) -> Result<(), MetaError> {
        let mut by_attempts: BTreeMap<i32, Vec<String>> = BTreeMap::new();
        for e in rows {
            by_attempts
                .entry(e.attempts + 1)
                .or_default()
                .push(e.id.clone());
        }
        for (attempts, ids) in by_attempts {
            for chunk in ids.chunks(500) {
                entity::Entity::update_many()
                    .col_expr(entity::Column::Attempts, Expr::value(attempts))
                    .col_expr(
                        entity::Column::NextAttemptAt,
                        Expr::value(now + backoff(attempts)),
                    )
                    .col_expr(
                        entity::Column::LastError,
                        Expr::value(Some(error.to_string())),
                    )
                    .col_expr(entity::Column::ClaimToken, Expr::value(None::<String>))
                    .col_expr(
                        entity::Column::ClaimedUntil,
                        Expr::value(None::<DateTime<Utc>>),
                    )
                    .filter(entity::Column::Id.is_in(chunk.to_vec()))
                    .exec(&self.db)
                    .await?;
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn backoff_doubles_up_to_an_hour() {
        assert_eq!(backoff(1).num_seconds(), 2);
        assert_eq!(backoff(3).num_seconds(), 8);
        assert_eq!(backoff(40).num_seconds(), 3600);
    }

    #[test]
    fn metas_error_object_decides_what_happens() {
        let bad_event = r#"{"error":{"message":"Invalid parameter","type":"OAuthException","code":100,"error_subcode":2804003,"is_transient":false,"error_user_title":"Event Timestamp Too Old","fbtrace_id":"AbC"}}"#;
        match classify(400, bad_event) {
            Outcome::Refused(r) => {
                assert!(r.contains("Invalid parameter"), "{r}");
                assert!(r.contains("code 100"), "{r}");
                assert!(r.contains("subcode 2804003"), "{r}");
                assert!(r.contains("fbtrace_id AbC"), "{r}");
            }
            other => panic!("{other:?}"),
        }
        let expired = r#"{"error":{"message":"Error validating access token: Session has expired","type":"OAuthException","code":190,"error_subcode":463}}"#;
        assert!(matches!(
            classify(400, expired),
            Outcome::TokenRejected(r) if r.starts_with(TOKEN_REJECTED)
        ));
        let transient = r#"{"error":{"message":"An unexpected error has occurred. Please retry your request later.","type":"OAuthException","code":2,"is_transient":true}}"#;
        assert!(matches!(classify(400, transient), Outcome::Retry(_)));
        // A message that merely mentions `is_transient` is not transient.
        let tricky = r#"{"error":{"message":"field \"is_transient\":true is not allowed","type":"GraphMethodException","code":100,"is_transient":false}}"#;
        assert!(matches!(classify(400, tricky), Outcome::Refused(_)));
        // About the pixel or the token's permissions, not the events.
        let no_pixel = r#"{"error":{"message":"Unsupported post request. Object with ID '1234' does not exist, cannot be loaded due to missing permissions, or does not support this operation.","type":"GraphMethodException","code":100,"error_subcode":33,"fbtrace_id":"Ab1"}}"#;
        assert!(matches!(
            classify(400, no_pixel),
            Outcome::PixelRefused(r) if r.starts_with(PIXEL_REFUSED) && r.contains("subcode 33")
        ));
        let no_permission = r#"{"error":{"message":"(#10) Application does not have permission for this action","type":"OAuthException","code":10}}"#;
        assert!(matches!(
            classify(403, no_permission),
            Outcome::PixelRefused(_)
        ));
        let permissions = r#"{"error":{"message":"(#200) Permissions error","type":"OAuthException","code":200}}"#;
        assert!(matches!(
            classify(403, permissions),
            Outcome::PixelRefused(_)
        ));
        assert!(matches!(classify(503, "upstream down"), Outcome::Retry(_)));
        assert!(matches!(classify(400, "<html>"), Outcome::Refused(_)));
    }

    #[test]
    fn the_token_is_blanked_out_and_fingerprinted_not_stored() {
        assert_eq!(redact("a TOKEN b", "TOKEN"), "a [access token] b");
        let f = fingerprint("1234", "EAAB-secret");
        assert!(!f.contains("EAAB"));
        assert_eq!(f.len(), 32);
        assert_ne!(f, fingerprint("1234", "EAAB-other"));
        assert_ne!(f, fingerprint("5678", "EAAB-secret"), "another pixel");
    }
}
