//! Storing events and sending them to the Graph API.

use std::time::Duration;

use chrono::{DateTime, Utc};
use sea_orm::sea_query::Expr;
use sea_orm::{
    ActiveModelTrait, ColumnTrait, Condition, ConnectionTrait, DatabaseConnection, EntityTrait,
    QueryFilter, QueryOrder, QuerySelect, Set,
};
use serde::Serialize;
use serde_json::{Map, Value, json};

use crate::entity;
use crate::normalize::{hashed, with_country_code};

/// Most events in one request (Meta's limit).
pub const BATCH: u64 = 1000;
/// Meta refuses events older than this.
pub const MAX_AGE_DAYS: i64 = 7;

/// Where and how events are sent.
#[derive(Debug, Clone)]
pub struct MetaConfig {
    pub pixel_id: Option<String>,
    pub access_token: Option<String>,
    /// `https://graph.facebook.com` (a local stand-in in tests).
    pub graph_url: String,
    pub api_version: String,
    /// Meta's test-events code, while testing.
    pub test_event_code: Option<String>,
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
}

/// Who the event is about, before normalising and hashing.
#[derive(Debug, Clone, Default)]
pub struct UserData {
    pub email: Option<String>,
    pub phone: Option<String>,
    pub first_name: Option<String>,
    pub last_name: Option<String>,
    pub external_id: Option<String>,
    pub client_ip_address: Option<String>,
    pub client_user_agent: Option<String>,
    pub fbp: Option<String>,
    pub fbc: Option<String>,
}

impl UserData {
    /// Meta's `user_data`: hashed where Meta requires, the rest as it is.
    pub fn to_meta(&self) -> Map<String, Value> {
        let mut m = Map::new();
        let mut put_hashed = |key: &str, field: &str, v: &Option<String>| {
            if let Some(h) = v.as_deref().and_then(|v| hashed(field, v)) {
                m.insert(key.into(), json!([h]));
            }
        };
        put_hashed("em", "em", &self.email);
        put_hashed("ph", "ph", &self.phone.as_deref().map(with_country_code));
        put_hashed("fn", "fn", &self.first_name);
        put_hashed("ln", "ln", &self.last_name);
        put_hashed("external_id", "external_id", &self.external_id);
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

/// One event to send.
#[derive(Debug, Clone)]
pub struct OutgoingEvent {
    pub event_id: String,
    pub event_name: String,
    pub event_time: DateTime<Utc>,
    pub event_source_url: Option<String>,
    pub user_data: UserData,
    pub custom_data: Map<String, Value>,
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
    /// `pending`, `sent`, `failed` or `not_forwarded`.
    pub status: String,
    pub attempts: i32,
    pub last_error: Option<String>,
    pub created_at: DateTime<Utc>,
    pub sent_at: Option<DateTime<Utc>>,
}

/// What staff see of the outbox: whether events go to Meta at all, how many
/// are in each state, and the newest.
#[derive(Debug, Clone, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct OutboxView {
    /// A pixel id and access token are configured; without them events are
    /// stored as `not_forwarded` and sent once they are.
    pub forwarding: bool,
    pub pending: u64,
    pub sent: u64,
    pub failed: u64,
    pub not_forwarded: u64,
    /// The 50 newest, newest first.
    pub events: Vec<OutboxEntry>,
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

    /// Stores `event` (once per `event_id`: a later copy of the same event
    /// only adds the browser's details while it is still unsent).
    pub async fn enqueue<C: ConnectionTrait>(
        &self,
        conn: &C,
        event: &OutgoingEvent,
    ) -> Result<bool, MetaError> {
        let payload = event.to_meta().to_string();
        let now = Utc::now();
        let status = if self.configured() {
            "pending"
        } else {
            "not_forwarded"
        };
        let exists = entity::Entity::find()
            .filter(entity::Column::EventId.eq(&event.event_id))
            .one(conn)
            .await?
            .is_some();
        let inserted = if exists {
            0
        } else {
            let row = entity::ActiveModel {
                id: Set(ca_core::ids::new_id().to_string()),
                event_id: Set(event.event_id.clone()),
                event_name: Set(event.event_name.clone()),
                event_time: Set(event.event_time),
                payload: Set(payload.clone()),
                status: Set(status.into()),
                attempts: Set(0),
                next_attempt_at: Set(now),
                claim_token: Set(None),
                claimed_until: Set(None),
                last_error: Set(None),
                created_at: Set(now),
                sent_at: Set(None),
            };
            match row.insert(conn).await {
                Ok(_) => 1,
                // Stored meanwhile by a concurrent call: the unique index decides.
                Err(err)
                    if matches!(
                        err.sql_err(),
                        Some(sea_orm::SqlErr::UniqueConstraintViolation(_))
                    ) =>
                {
                    0
                }
                Err(err) => return Err(err.into()),
            }
        };
        if inserted == 0 {
            // Same event again (e.g. the browser's Purchase after the server's):
            // richer details replace the stored ones while it is unsent.
            let has_browser = event.user_data.client_user_agent.is_some();
            if has_browser {
                entity::Entity::update_many()
                    .col_expr(entity::Column::Payload, Expr::value(payload))
                    .filter(entity::Column::EventId.eq(&event.event_id))
                    .filter(entity::Column::Status.is_in(["pending", "not_forwarded"]))
                    .exec(conn)
                    .await?;
            }
            return Ok(false);
        }
        Ok(true)
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

    /// The outbox as staff see it.
    pub async fn view(&self) -> Result<OutboxView, MetaError> {
        use sea_orm::PaginatorTrait;
        let count = |status: &'static str| {
            entity::Entity::find()
                .filter(entity::Column::Status.eq(status))
                .count(&self.db)
        };
        Ok(OutboxView {
            forwarding: self.configured(),
            pending: count("pending").await?,
            sent: count("sent").await?,
            failed: count("failed").await?,
            not_forwarded: count("not_forwarded").await?,
            events: self.recent(50).await?,
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
            .map(|e| OutboxEntry {
                event_id: e.event_id,
                event_name: e.event_name,
                event_time: e.event_time,
                status: e.status,
                attempts: e.attempts,
                last_error: e.last_error,
                created_at: e.created_at,
                sent_at: e.sent_at,
            })
            .collect())
    }

    /// Claims due events (so two instances never send the same batch) and
    /// sends them in one request. Returns how many were sent.
    pub async fn send_due(&self, now: DateTime<Utc>) -> Result<usize, MetaError> {
        let (Some(pixel), Some(token)) = (&self.config.pixel_id, &self.config.access_token) else {
            return Ok(0);
        };
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
                Expr::value(Some(now + chrono::Duration::seconds(60))),
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
            .all(&self.db)
            .await?;
        if batch.is_empty() {
            return Ok(0);
        }
        let data: Vec<Value> = batch
            .iter()
            .filter_map(|e| serde_json::from_str(&e.payload).ok())
            .collect();
        let mut body = json!({ "data": data });
        if let Some(code) = &self.config.test_event_code {
            body["test_event_code"] = json!(code);
        }
        let url = format!(
            "{}/{}/{}/events",
            self.config.graph_url.trim_end_matches('/'),
            self.config.api_version,
            pixel
        );
        let result = self
            .http
            .post(&url)
            .query(&[("access_token", token.as_str())])
            .timeout(Duration::from_secs(30))
            .json(&body)
            .send()
            .await;
        let ids: Vec<String> = batch.iter().map(|e| e.id.clone()).collect();
        let (outcome, error) = match result {
            Ok(res) if res.status().is_success() => ("sent", None),
            Ok(res) => {
                let status = res.status();
                let text: String = res
                    .text()
                    .await
                    .unwrap_or_default()
                    .chars()
                    .take(500)
                    .collect();
                let retry = status.is_server_error()
                    || status.as_u16() == 429
                    || text.contains("\"is_transient\":true");
                (
                    if retry { "retry" } else { "failed" },
                    Some(format!("Meta answered {status}: {text}")),
                )
            }
            Err(err) => ("retry", Some(format!("sending failed: {err}"))),
        };
        match outcome {
            "sent" => {
                entity::Entity::update_many()
                    .col_expr(entity::Column::Status, Expr::value("sent"))
                    .col_expr(entity::Column::SentAt, Expr::value(Some(now)))
                    .col_expr(entity::Column::LastError, Expr::value(None::<String>))
                    .filter(entity::Column::Id.is_in(ids))
                    .exec(&self.db)
                    .await?;
                tracing::info!(events = batch.len(), "Meta events sent");
                Ok(batch.len())
            }
            "failed" => {
                tracing::warn!(events = batch.len(), error = ?error, "Meta refused the events; not retried");
                entity::Entity::update_many()
                    .col_expr(entity::Column::Status, Expr::value("failed"))
                    .col_expr(entity::Column::LastError, Expr::value(error))
                    .col_expr(
                        entity::Column::Attempts,
                        sea_orm::sea_query::ExprTrait::add(Expr::col(entity::Column::Attempts), 1),
                    )
                    .filter(entity::Column::Id.is_in(ids))
                    .exec(&self.db)
                    .await?;
                Ok(0)
            }
            _ => {
                tracing::warn!(events = batch.len(), error = ?error, "Meta events will be retried");
                for e in &batch {
                    let attempts = e.attempts + 1;
                    let mut active: entity::ActiveModel = e.clone().into();
                    active.attempts = Set(attempts);
                    active.next_attempt_at = Set(now + backoff(attempts));
                    active.last_error = Set(error.clone());
                    active.claim_token = Set(None);
                    active.claimed_until = Set(None);
                    active.update(&self.db).await?;
                }
                Ok(0)
            }
        }
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
}
