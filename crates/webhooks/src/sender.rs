//! Delivering what is due. Every half second the sender claims the
//! deliveries that are due (each claimed by one server, for as long as an
//! answer may take) and
//! sends each on its own task, at most `per_endpoint` at once per endpoint,
//! so a slow endpoint never delays another. A delivery waits at most 10 s
//! for the answer; 2xx is delivered; a network error, a timeout, 429 or 5xx
//! is tried again after 5 s, 5 min, 30 min, 2 h, 5 h, 10 h and 10 h (the
//! schedule Svix uses), then given up; any other answer is not retried. An
//! endpoint that has failed for 5 days without a success is switched off
//! and its owner emailed, in the same transaction.

use std::sync::Arc;
use std::time::Instant;

use chrono::{DateTime, Duration, Utc};
use sea_orm::sea_query::Expr;
use sea_orm::{
    ActiveModelTrait, ColumnTrait, Condition, EntityTrait, QueryFilter, QueryOrder, QuerySelect,
    Set,
};

use crate::WebhookError;
use crate::answer::Answer;
use crate::entities::{attempt, delivery, endpoint, event};
use crate::safety;
use crate::service::{InFlight, WebhookService};
use crate::signing;

/// Pauses before the 2nd … 8th attempt.
pub const SCHEDULE_SECS: [i64; 7] = [5, 300, 1800, 7200, 18_000, 36_000, 36_000];
/// An endpoint failing this long without a success is switched off.
pub const DISABLE_AFTER_DAYS: i64 = 5;
pub use crate::answer::EXCERPT_BYTES;
/// How long a claimed delivery stays with the server that claimed it,
/// beyond the longest wait for an answer (a server that stopped mid-way
/// leaves it to be sent again once this has passed).
const LEASE_MARGIN_SECS: i64 = 5;
/// The most deliveries claimed in one round.
const PER_ROUND: u64 = 200;

/// Releases an endpoint's slot when a delivery's task ends, however it ends.
struct Slot {
    running: InFlight,
    endpoint: String,
    freed: Arc<tokio::sync::Notify>,
}

impl Drop for Slot {
    fn drop(&mut self) {
        if let Ok(mut running) = self.running.lock()
            && let Some(n) = running.get_mut(&self.endpoint)
        {
            *n = n.saturating_sub(1);
            if *n == 0 {
                running.remove(&self.endpoint);
            }
        }
        self.freed.notify_one();
    }
}

impl WebhookService {
    /// One round of the sender: claims what is due and starts sending it.
    /// Returns how many deliveries were started.
    pub async fn tick(&self, now: DateTime<Utc>) -> Result<usize, WebhookError> {
        // Events stored since the last round get their deliveries first, so
        // a new lead's are sent in this same round.
        crate::events::fan_out(&self.db, now).await?;
        // Endpoints with every slot taken are left out of the query, so a
        // backlog for one slow endpoint never hides others' deliveries.
        let full: Vec<String> = self
            .running
            .lock()
            .map(|r| {
                r.iter()
                    .filter(|(_, n)| **n >= self.config.per_endpoint)
                    .map(|(e, _)| e.clone())
                    .collect()
            })
            .unwrap_or_default();
        let due = delivery::Entity::find()
            .filter(delivery::Column::Status.eq("pending"))
            .filter(delivery::Column::EndpointId.is_not_in(full))
            .filter(delivery::Column::NextAttemptAt.lte(now))
            .filter(
                Condition::any()
                    .add(delivery::Column::ClaimedUntil.is_null())
                    .add(delivery::Column::ClaimedUntil.lt(now)),
            )
            .order_by_asc(delivery::Column::NextAttemptAt)
            .limit(PER_ROUND)
            .all(&self.db)
            .await?;
        let lease = Duration::seconds(
            i64::try_from(self.config.timeout.as_secs()).unwrap_or(60) + LEASE_MARGIN_SECS,
        );
        // Every claim of the round in one write: one commit, not one per
        // delivery, however many are due.
        let mut slotted = Vec::new();
        for d in due {
            if let Some(slot) = self.take_slot(&d.endpoint_id) {
                slotted.push((d, slot));
            }
        }
        if slotted.is_empty() {
            return Ok(0);
        }
        let txn = ca_core::db::begin_background_write(&self.db).await?;
        let mut claimed = Vec::with_capacity(slotted.len());
        for (d, slot) in slotted {
            let won = delivery::Entity::update_many()
                .col_expr(
                    delivery::Column::ClaimedUntil,
                    Expr::value(Some(now + lease)),
                )
                .filter(delivery::Column::Id.eq(&d.id))
                .filter(delivery::Column::Status.eq("pending"))
                .filter(
                    Condition::any()
                        .add(delivery::Column::ClaimedUntil.is_null())
                        .add(delivery::Column::ClaimedUntil.lt(now)),
                )
                .exec(&txn)
                .await?
                .rows_affected
                == 1;
            if won {
                claimed.push((d, slot));
            }
        }
        txn.commit().await?;
        let started = claimed.len();
        for (d, slot) in claimed {
            let service = self.clone();
            tokio::spawn(async move {
                let _slot = slot;
                let id = d.id.clone();
                if let Err(err) = service.deliver(d).await {
                    tracing::warn!(delivery = %id, %err, "a webhook delivery could not be recorded");
                }
            });
        }
        Ok(started)
    }

    fn take_slot(&self, endpoint_id: &str) -> Option<Slot> {
        let mut running = self.running.lock().ok()?;
        let n = running.entry(endpoint_id.to_string()).or_default();
        if *n >= self.config.per_endpoint {
            return None;
        }
        *n += 1;
        Some(Slot {
            running: self.running.clone(),
            endpoint: endpoint_id.to_string(),
            freed: self.freed.clone(),
        })
    }

    /// Waits until a delivery of this server ends (a slot is free again).
    pub async fn delivery_ended(&self) {
        self.freed.notified().await;
    }

    /// Deliveries being sent by this server now.
    pub fn in_flight(&self) -> usize {
        self.running.lock().map(|r| r.values().sum()).unwrap_or(0)
    }

    /// Sends the claimed delivery `d` once and records the attempt.
    async fn deliver(&self, d: delivery::Model) -> Result<(), WebhookError> {
        let Some(e) = endpoint::Entity::find_by_id(d.endpoint_id.clone())
            .one(&self.db)
            .await?
        else {
            return Ok(());
        };
        let Some(ev) = event::Entity::find_by_id(d.event_id.clone())
            .one(&self.db)
            .await?
        else {
            return Ok(());
        };
        let started = Instant::now();
        // Signed (or sent to Mailchimp) with the secret opened; an attempt
        // whose secret does not open fails and is tried again later.
        let (e, unreadable) = match crate::endpoints::opened(&self.config.data_keys, e.clone()) {
            Ok(open) => (open, false),
            Err(_) => (e, true),
        };
        let answer = if unreadable {
            Answer::Refused {
                status: None,
                body: "This server cannot read the endpoint's secret; see the server log".into(),
            }
        } else if !e.enabled && ev.event_type != "webhook.test" {
            Answer::Refused {
                status: None,
                body: "The endpoint is switched off".into(),
            }
        } else if e.kind == "mailchimp" {
            crate::mailchimp::push(&self.config, &e, &ev).await
        } else {
            self.post(&e, &ev).await
        };
        let took = i64::try_from(started.elapsed().as_millis()).unwrap_or(i64::MAX);
        self.record(&d, &e, answer, took, Utc::now()).await
    }

    /// Posts the event to a webhook endpoint, signed.
    async fn post(&self, e: &endpoint::Model, ev: &event::Model) -> Answer {
        let url = match url::Url::parse(&e.url) {
            Ok(u) => u,
            Err(_) => {
                return Answer::Refused {
                    status: None,
                    body: "The endpoint's URL is not valid".into(),
                };
            }
        };
        let addr = match safety::resolve(&url, self.config.allow_private).await {
            Ok(addr) => addr,
            Err(safety::Refused::Unresolvable) => {
                return Answer::Retry {
                    status: None,
                    body: "The endpoint's host could not be resolved".into(),
                };
            }
            Err(why) => {
                return Answer::Refused {
                    status: None,
                    body: format!("Not sent: {why}"),
                };
            }
        };
        let host = url.host_str().unwrap_or_default().to_string();
        let client = match reqwest::Client::builder()
            .redirect(reqwest::redirect::Policy::none())
            .timeout(self.config.timeout)
            .resolve(&host, addr)
            .user_agent("ConvertAssist-Webhooks/1")
            .build()
        {
            Ok(c) => c,
            Err(err) => {
                return Answer::Retry {
                    status: None,
                    body: err.without_url().to_string(),
                };
            }
        };
        let timestamp = Utc::now().timestamp();
        let now = Utc::now();
        let mut secrets = vec![e.secret.as_str()];
        if let (Some(previous), Some(until)) = (&e.previous_secret, e.previous_secret_expires_at)
            && until > now
        {
            secrets.push(previous.as_str());
        }
        let signature = signing::signature_header(&secrets, &ev.id, timestamp, &ev.payload);
        let sent = client
            .post(url)
            .header("content-type", "application/json")
            .header("webhook-id", &ev.id)
            .header("webhook-timestamp", timestamp.to_string())
            .header("webhook-signature", signature)
            .body(ev.payload.clone())
            .send()
            .await;
        let res = match sent {
            Ok(res) => res,
            Err(err) => {
                let why = if err.is_timeout() {
                    format!("No answer within {} s", self.config.timeout.as_secs())
                } else {
                    format!("Could not connect: {}", err.without_url())
                };
                return Answer::Retry {
                    status: None,
                    body: why,
                };
            }
        };
        Answer::of(res).await
    }

    /// Records `answer` to attempt `d.attempts + 1`, moves the delivery on,
    /// and keeps the endpoint's failing streak; switches off an endpoint
    /// failing for 5 days and emails its owner, in the same transaction.
    pub(crate) async fn record(
        &self,
        d: &delivery::Model,
        e: &endpoint::Model,
        answer: Answer,
        took_ms: i64,
        now: DateTime<Utc>,
    ) -> Result<(), WebhookError> {
        let attempt_no = d.attempts + 1;
        let (outcome, status_code, body) = match answer {
            Answer::Delivered { status, body } => ("delivered", Some(status), body),
            Answer::Retry { status, body } => ("retry", status, body),
            Answer::Refused { status, body } => ("failed", status, body),
        };
        let next = match outcome {
            "retry" => usize::try_from(attempt_no - 1 - d.schedule_from)
                .ok()
                .and_then(|i| SCHEDULE_SECS.get(i))
                .map(|secs| now + Duration::seconds(*secs)),
            _ => None,
        };
        let status = match (outcome, next) {
            ("delivered", _) => "delivered",
            ("retry", Some(_)) => "pending",
            _ => "failed",
        };
        let txn = ca_core::db::begin_background_write(&self.db).await?;
        attempt::ActiveModel {
            id: Set(ca_core::ids::new_id().to_string()),
            delivery_id: Set(d.id.clone()),
            endpoint_id: Set(d.endpoint_id.clone()),
            event_id: Set(d.event_id.clone()),
            owner_id: Set(d.owner_id.clone()),
            event_type: Set(d.event_type.clone()),
            attempt: Set(attempt_no),
            status: Set(status.into()),
            response_status: Set(status_code.map(i32::from)),
            duration_ms: Set(took_ms),
            response_excerpt: Set(Some(body.clone()).filter(|b| !b.is_empty())),
            next_attempt_at: Set(next),
            created_at: Set(now),
        }
        .insert(&txn)
        .await?;
        delivery::Entity::update_many()
            .col_expr(delivery::Column::Status, Expr::value(status))
            .col_expr(delivery::Column::Attempts, Expr::value(attempt_no))
            .col_expr(delivery::Column::NextAttemptAt, Expr::value(next))
            .col_expr(
                delivery::Column::ClaimedUntil,
                Expr::value(Option::<DateTime<Utc>>::None),
            )
            .col_expr(delivery::Column::UpdatedAt, Expr::value(now))
            .filter(delivery::Column::Id.eq(&d.id))
            .exec(&txn)
            .await?;
        if status == "delivered" {
            if e.failing_since.is_some() {
                endpoint::Entity::update_many()
                    .col_expr(
                        endpoint::Column::FailingSince,
                        Expr::value(Option::<DateTime<Utc>>::None),
                    )
                    .filter(endpoint::Column::Id.eq(&e.id))
                    .exec(&txn)
                    .await?;
            }
        } else if d.event_type != "webhook.test" && e.enabled {
            let since = e.failing_since.unwrap_or(now);
            if since <= now - Duration::days(DISABLE_AFTER_DAYS) {
                self.switch_off(&txn, e, status_code, &body, now).await?;
            } else if e.failing_since.is_none() {
                endpoint::Entity::update_many()
                    .col_expr(endpoint::Column::FailingSince, Expr::value(Some(now)))
                    .filter(endpoint::Column::Id.eq(&e.id))
                    .exec(&txn)
                    .await?;
            }
        }
        txn.commit().await?;
        tracing::debug!(delivery = %d.id, endpoint = %e.id, attempt = attempt_no, status, code = ?status_code, "webhook attempt");
        Ok(())
    }

    async fn switch_off<C: sea_orm::ConnectionTrait>(
        &self,
        txn: &C,
        e: &endpoint::Model,
        status_code: Option<u16>,
        body: &str,
        now: DateTime<Utc>,
    ) -> Result<(), WebhookError> {
        let last = match status_code {
            Some(code) => format!("it last answered {code}"),
            None => format!(
                "the last attempt got no answer ({})",
                body.chars().take(120).collect::<String>()
            ),
        };
        let reason = format!("Switched off after failing for {DISABLE_AFTER_DAYS} days: {last}");
        endpoint::Entity::update_many()
            .col_expr(endpoint::Column::Enabled, Expr::value(false))
            .col_expr(
                endpoint::Column::DisabledReason,
                Expr::value(Some(reason.clone())),
            )
            .col_expr(endpoint::Column::UpdatedAt, Expr::value(now))
            .filter(endpoint::Column::Id.eq(&e.id))
            .exec(txn)
            .await?;
        if let Some(owner) = ca_auth::entities::user::Entity::find_by_id(e.owner_id.clone())
            .one(txn)
            .await?
        {
            let body = format!(
                "Hi {name},\n\nYour webhook endpoint {url} has failed every delivery for {DISABLE_AFTER_DAYS} days, \
                 so we switched it off: {last}.\n\nEvents are no longer sent to it. Once it works again, switch it \
                 back on in Settings → Integrations:\n\n{public}/settings/integrations\n\n— ConvertAssist",
                name = owner.name,
                url = e.url,
                public = self.config.public_url.trim_end_matches('/'),
            );
            self.mailer
                .send(
                    txn,
                    &owner.email,
                    "Your webhook endpoint was switched off",
                    &body,
                )
                .await
                .map_err(|err| {
                    WebhookError::Infra(ca_core::error::InfraError::Other(err.to_string()))
                })?;
        }
        tracing::warn!(endpoint = %e.id, owner = %e.owner_id, "webhook endpoint switched off after failing for 5 days");
        Ok(())
    }
}
