//! Turning the outbox into notifications and delivering them. Twice a
//! second the sender:
//!
//! 1. groups waiting events into notifications: each successful payment is
//!    one; an owner's new leads are told of at most once a minute: the
//!    first at once, those arriving within the minute after it together
//!    ("3 new leads") when the minute is over. A notification becomes one
//!    delivery per browser of the owner, in the same transaction that
//!    marks its events told;
//! 2. sends the due deliveries, each claimed by one server: the payload is
//!    encrypted for the browser (`crypto`), the push service is shown the
//!    server's VAPID token, and it keeps the message for a day (`TTL`) if
//!    the browser is offline. It waits at most 10 s for an answer; 2xx is
//!    sent; 404 or 410 means the browser ended its subscription, which is
//!    removed; no answer, 429 or 5xx is tried again after 5 s, 30 s, 2 min,
//!    10 min and 1 h, then given up; any other answer is not retried.

use std::collections::BTreeMap;

use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use chrono::{DateTime, Duration, Utc};
use sea_orm::sea_query::Expr;
use sea_orm::{
    ActiveModelTrait, ColumnTrait, Condition, EntityTrait, QueryFilter, QueryOrder, QuerySelect,
    Set,
};
use serde::{Deserialize, Serialize};

use ca_webhooks::safety;

use crate::PushError;
use crate::crypto;
use crate::entities::{delivery, event, subscription};
use crate::events::Notice;
use crate::service::PushService;

/// Pauses before the 2nd … 6th attempt.
pub const SCHEDULE_SECS: [i64; 5] = [5, 30, 120, 600, 3600];
/// How long a claimed delivery stays with the server that claimed it,
/// beyond the longest wait for an answer.
const LEASE_MARGIN_SECS: i64 = 5;
/// The most events grouped, and deliveries claimed, in one round.
const PER_ROUND: u64 = 200;

/// What a notification shows (the payload the service worker reads):
/// clicking it opens `url`, a page of the dashboard.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Notification {
    pub title: String,
    pub body: String,
    pub url: String,
}

/// The notification for an owner's new leads (oldest first): one lead
/// names the customer and opens them; several are counted and open the
/// customer list.
pub fn leads_notification(leads: &[(String, Option<String>, String)]) -> Notification {
    let label = |(_, name, email): &(String, Option<String>, String)| match name {
        Some(name) if !name.trim().is_empty() => format!("{} ({email})", name.trim()),
        _ => email.clone(),
    };
    match leads {
        [one] => Notification {
            title: "New lead".into(),
            body: format!("{} left their details", label(one)),
            url: format!("/customers?customer={}", one.0),
        },
        many => {
            let named: Vec<String> = many
                .iter()
                .rev()
                .take(2)
                .map(|(_, name, email)| {
                    name.as_deref()
                        .map(str::trim)
                        .filter(|n| !n.is_empty())
                        .unwrap_or(email)
                        .to_string()
                })
                .collect();
            let rest = many.len().saturating_sub(named.len());
            let body = if rest == 0 {
                named.join(" and ")
            } else {
                format!("{} and {rest} more", named.join(", "))
            };
            Notification {
                title: format!("{} new leads", many.len()),
                body,
                url: "/customers".into(),
            }
        }
    }
}

/// The notification for a successful payment: it opens its invoice.
pub fn payment_notification(txnid: &str, amount_paise: i64, plan: &str) -> Notification {
    let rupees = amount_paise / 100;
    let paise = amount_paise % 100;
    let amount = if paise == 0 {
        format!("₹{rupees}")
    } else {
        format!("₹{rupees}.{paise:02}")
    };
    Notification {
        title: "Payment received".into(),
        body: format!("{amount} for the {plan} plan. Your invoice is ready."),
        url: format!("/billing/invoice/{txnid}"),
    }
}

/// An A/B test's call: opens the campaign's Tests tab.
pub fn test_notification(
    campaign_id: &str,
    test_name: &str,
    winner: Option<&str>,
    promoted: bool,
) -> Notification {
    let body = match (winner, promoted) {
        (Some(w), true) => format!("\"{w}\" won \"{test_name}\" and is now in your campaign."),
        (Some(w), false) => format!("\"{w}\" won \"{test_name}\". Promote it with one click."),
        (None, _) => format!(
            "\"{test_name}\" is inconclusive: no variant differs from the control beyond doubt."
        ),
    };
    Notification {
        title: "A/B test decided".into(),
        body,
        url: format!("/campaigns/{campaign_id}/edit?tab=tests"),
    }
}

/// How one attempt ended.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Answer {
    Sent(u16),
    /// The browser's subscription has ended (404, 410).
    Gone(u16),
    Retry(Option<u16>),
    Refused(Option<u16>),
}

impl PushService {
    /// One round of the sender: groups waiting events into notifications
    /// and starts sending what is due. Returns how many deliveries were
    /// started.
    pub async fn tick(&self, now: DateTime<Utc>) -> Result<usize, PushError> {
        self.group(now).await?;
        self.send_due(now).await
    }

    /// Turns the waiting events that are due into deliveries.
    async fn group(&self, now: DateTime<Utc>) -> Result<(), PushError> {
        let waiting = event::Entity::find()
            .filter(event::Column::NotifiedAt.is_null())
            .order_by_asc(event::Column::CreatedAt)
            .limit(PER_ROUND)
            .all(&self.db)
            .await?;
        let mut by_owner: BTreeMap<String, Vec<event::Model>> = BTreeMap::new();
        for e in waiting {
            by_owner.entry(e.owner_id.clone()).or_default().push(e);
        }
        let window = Duration::from_std(self.config.group_window).unwrap_or(Duration::minutes(1));
        for (owner, events) in by_owner {
            let mut notifications: Vec<(Vec<String>, Notification)> = Vec::new();
            let mut leads = Vec::new();
            let mut lead_ids = Vec::new();
            for e in &events {
                match serde_json::from_str::<Notice>(&e.detail) {
                    Ok(Notice::Payment {
                        txnid,
                        amount_paise,
                        plan,
                    }) => notifications.push((
                        vec![e.id.clone()],
                        payment_notification(&txnid, amount_paise, &plan),
                    )),
                    Ok(Notice::TestDecided {
                        campaign_id,
                        test_name,
                        winner,
                        promoted,
                        ..
                    }) => notifications.push((
                        vec![e.id.clone()],
                        test_notification(&campaign_id, &test_name, winner.as_deref(), promoted),
                    )),
                    Ok(Notice::Lead {
                        customer_id,
                        name,
                        email,
                    }) => {
                        leads.push((customer_id, name, email));
                        lead_ids.push(e.id.clone());
                    }
                    Err(err) => {
                        tracing::warn!(event = %e.id, %err, "a push event could not be read; dropped");
                        notifications.push((
                            vec![e.id.clone()],
                            Notification {
                                title: String::new(),
                                body: String::new(),
                                url: String::new(),
                            },
                        ));
                    }
                }
            }
            if !leads.is_empty() {
                let last = event::Entity::find()
                    .filter(event::Column::OwnerId.eq(&owner))
                    .filter(event::Column::Kind.eq("lead"))
                    .filter(event::Column::NotifiedAt.is_not_null())
                    .order_by_desc(event::Column::NotifiedAt)
                    .one(&self.db)
                    .await?
                    .and_then(|e| e.notified_at);
                if last.is_none_or(|at| at + window <= now) {
                    notifications.push((lead_ids, leads_notification(&leads)));
                }
            }
            if notifications.is_empty() {
                continue;
            }
            self.store_notifications(&owner, notifications, now).await?;
        }
        Ok(())
    }

    /// Marks the notifications' events told and writes one delivery per
    /// browser of the owner, in one transaction (none if another server
    /// took any of the events first).
    async fn store_notifications(
        &self,
        owner: &str,
        notifications: Vec<(Vec<String>, Notification)>,
        now: DateTime<Utc>,
    ) -> Result<(), PushError> {
        let txn = ca_core::db::begin_background_write(&self.db).await?;
        for (ids, _) in &notifications {
            let marked = event::Entity::update_many()
                .col_expr(event::Column::NotifiedAt, Expr::value(Some(now)))
                .filter(event::Column::Id.is_in(ids.clone()))
                .filter(event::Column::NotifiedAt.is_null())
                .exec(&txn)
                .await?
                .rows_affected;
            if marked != ids.len() as u64 {
                txn.rollback().await?;
                return Ok(());
            }
        }
        let browsers = subscription::Entity::find()
            .filter(subscription::Column::OwnerId.eq(owner))
            .all(&txn)
            .await?;
        for (_, n) in notifications.iter().filter(|(_, n)| !n.title.is_empty()) {
            let payload = serde_json::to_string(n).unwrap_or_default();
            for b in &browsers {
                delivery::ActiveModel {
                    id: Set(ca_core::ids::new_id().to_string()),
                    owner_id: Set(owner.to_string()),
                    subscription_id: Set(b.id.clone()),
                    payload: Set(payload.clone()),
                    status: Set("pending".into()),
                    attempts: Set(0),
                    next_attempt_at: Set(Some(now)),
                    claimed_until: Set(None),
                    last_status: Set(None),
                    created_at: Set(now),
                    updated_at: Set(now),
                }
                .insert(&txn)
                .await?;
            }
        }
        txn.commit().await?;
        Ok(())
    }

    /// Claims the due deliveries and sends each on its own task.
    async fn send_due(&self, now: DateTime<Utc>) -> Result<usize, PushError> {
        let due = delivery::Entity::find()
            .filter(delivery::Column::Status.eq("pending"))
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
        if due.is_empty() {
            return Ok(0);
        }
        let lease = Duration::seconds(
            i64::try_from(self.config.timeout.as_secs()).unwrap_or(60) + LEASE_MARGIN_SECS,
        );
        let txn = ca_core::db::begin_background_write(&self.db).await?;
        let mut claimed = Vec::with_capacity(due.len());
        for d in due {
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
                claimed.push(d);
            }
        }
        txn.commit().await?;
        let started = claimed.len();
        for d in claimed {
            let service = self.clone();
            tokio::spawn(async move {
                let id = d.id.clone();
                if let Err(err) = service.deliver(d).await {
                    tracing::warn!(delivery = %id, %err, "a push notification could not be recorded");
                }
            });
        }
        Ok(started)
    }

    /// Sends the claimed delivery `d` once and records how it went.
    async fn deliver(&self, d: delivery::Model) -> Result<(), PushError> {
        let Some(browser) = subscription::Entity::find_by_id(d.subscription_id.clone())
            .one(&self.db)
            .await?
        else {
            return Ok(());
        };
        let answer = self.post(&browser, &d.payload).await;
        self.record(&d, &browser, answer, Utc::now()).await
    }

    /// Posts the encrypted payload to the browser's push service.
    async fn post(&self, browser: &subscription::Model, payload: &str) -> Answer {
        let Ok(url) = url::Url::parse(&browser.endpoint) else {
            return Answer::Refused(None);
        };
        let addr = match safety::resolve(&url, self.config.allow_private).await {
            Ok(addr) => addr,
            Err(safety::Refused::Unresolvable) => return Answer::Retry(None),
            Err(why) => {
                tracing::warn!(subscription = %browser.id, %why, "push service address refused");
                return Answer::Refused(None);
            }
        };
        let (Ok(p256dh), Ok(auth)) = (
            URL_SAFE_NO_PAD.decode(&browser.p256dh),
            URL_SAFE_NO_PAD.decode(&browser.auth),
        ) else {
            return Answer::Refused(None);
        };
        let body = match crypto::encrypt(payload.as_bytes(), &p256dh, &auth) {
            Ok(body) => body,
            Err(err) => {
                tracing::warn!(subscription = %browser.id, %err, "a push notification could not be encrypted");
                return Answer::Refused(None);
            }
        };
        let host = url.host_str().unwrap_or_default().to_string();
        let Ok(client) = reqwest::Client::builder()
            .redirect(reqwest::redirect::Policy::none())
            .timeout(self.config.timeout)
            .resolve(&host, addr)
            .user_agent("ConvertAssist-Push/1")
            .build()
        else {
            return Answer::Retry(None);
        };
        let authorization =
            self.keys
                .authorization(&url, &self.config.subject, Utc::now().timestamp());
        let sent = client
            .post(url)
            .header("authorization", authorization)
            .header("ttl", self.config.ttl_secs.to_string())
            .header("content-encoding", "aes128gcm")
            .header("content-type", "application/octet-stream")
            .header("urgency", "normal")
            .body(body)
            .send()
            .await;
        match sent {
            Err(err) => {
                tracing::debug!(subscription = %browser.id, err = %err.without_url(), "push service did not answer");
                Answer::Retry(None)
            }
            Ok(res) => match res.status().as_u16() {
                code @ 200..=299 => Answer::Sent(code),
                code @ (404 | 410) => Answer::Gone(code),
                code @ (429 | 500..=599) => Answer::Retry(Some(code)),
                code => Answer::Refused(Some(code)),
            },
        }
    }

    /// Moves the delivery on after an attempt; removes a browser whose
    /// subscription has ended.
    async fn record(
        &self,
        d: &delivery::Model,
        browser: &subscription::Model,
        answer: Answer,
        now: DateTime<Utc>,
    ) -> Result<(), PushError> {
        let txn = ca_core::db::begin_background_write(&self.db).await?;
        if let Answer::Gone(code) = answer {
            delivery::Entity::delete_many()
                .filter(delivery::Column::SubscriptionId.eq(&browser.id))
                .exec(&txn)
                .await?;
            subscription::Entity::delete_many()
                .filter(subscription::Column::Id.eq(&browser.id))
                .exec(&txn)
                .await?;
            txn.commit().await?;
            tracing::info!(subscription = %browser.id, owner = %browser.owner_id, code, "the browser's push subscription has ended; removed");
            return Ok(());
        }
        let attempt = d.attempts + 1;
        let (status, code, next) = match answer {
            Answer::Sent(code) => ("sent", Some(code), None),
            Answer::Retry(code) => {
                let next = usize::try_from(d.attempts)
                    .ok()
                    .and_then(|i| SCHEDULE_SECS.get(i))
                    .map(|secs| now + Duration::seconds(*secs));
                (
                    if next.is_some() { "pending" } else { "failed" },
                    code,
                    next,
                )
            }
            Answer::Refused(code) => ("failed", code, None),
            // Removed with its subscription above.
            Answer::Gone(code) => ("failed", Some(code), None),
        };
        delivery::Entity::update_many()
            .col_expr(delivery::Column::Status, Expr::value(status))
            .col_expr(delivery::Column::Attempts, Expr::value(attempt))
            .col_expr(delivery::Column::NextAttemptAt, Expr::value(next))
            .col_expr(
                delivery::Column::ClaimedUntil,
                Expr::value(Option::<DateTime<Utc>>::None),
            )
            .col_expr(
                delivery::Column::LastStatus,
                Expr::value(code.map(i32::from)),
            )
            .col_expr(delivery::Column::UpdatedAt, Expr::value(now))
            .filter(delivery::Column::Id.eq(&d.id))
            .exec(&txn)
            .await?;
        txn.commit().await?;
        tracing::debug!(delivery = %d.id, attempt, status, code = ?code, "push attempt");
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lead(id: &str, name: Option<&str>, email: &str) -> (String, Option<String>, String) {
        (id.into(), name.map(str::to_string), email.into())
    }

    #[test]
    fn one_lead_opens_the_customer_and_several_are_counted() {
        let one = leads_notification(&[lead("c1", Some("Meera Iyer"), "meera@example.in")]);
        assert_eq!(one.title, "New lead");
        assert_eq!(one.body, "Meera Iyer (meera@example.in) left their details");
        assert_eq!(one.url, "/customers?customer=c1");
        let two = leads_notification(&[
            lead("c1", Some("Meera Iyer"), "meera@example.in"),
            lead("c2", None, "ravi@example.in"),
        ]);
        assert_eq!(two.title, "2 new leads");
        assert_eq!(two.body, "ravi@example.in and Meera Iyer");
        assert_eq!(two.url, "/customers");
        let four = leads_notification(&[
            lead("c1", Some("A"), "a@x.in"),
            lead("c2", Some("B"), "b@x.in"),
            lead("c3", Some("C"), "c@x.in"),
            lead("c4", Some("D"), "d@x.in"),
        ]);
        assert_eq!(
            (four.title.as_str(), four.body.as_str()),
            ("4 new leads", "D, C and 2 more")
        );
    }

    #[test]
    fn a_payment_names_the_amount_and_opens_the_invoice() {
        let n = payment_notification("CA17000", 99_900, "Basic");
        assert_eq!(n.title, "Payment received");
        assert_eq!(n.body, "₹999 for the Basic plan. Your invoice is ready.");
        assert_eq!(n.url, "/billing/invoice/CA17000");
        assert!(
            payment_notification("T", 1_050, "Pro")
                .body
                .starts_with("₹10.50 ")
        );
    }
}
