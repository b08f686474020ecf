//! Outgoing account email, through an outbox.
//!
//! [`Mailer::send`] writes the message to `email_outbox` in the caller's
//! transaction, so an email exists exactly when the fact it reports was
//! stored: a password reset that rolls back sends no link, and a receipt
//! marked as sent has its email waiting. With `CA_SMTP_URL` set,
//! [`Mailer::tick`] (every second, on every server) claims the due messages
//! and hands each to the mail server:
//!
//! - accepted: `sent`;
//! - refused for good (a 5xx answer, such as an unknown mailbox): `failed`,
//!   not tried again;
//! - anything else (a 4xx answer, no connection, no answer within the
//!   timeout): tried again after 30 s, 2 min, 10 min, 1 h and 6 h, then
//!   `failed`.
//!
//! A message whose link has expired (a password reset left waiting for
//! hours by a mail server that is down) is given up, not delivered dead.
//! Staff put failed messages of the last 7 days back in the queue once the
//! mail server is fixed ([`requeue_failed`]).
//!
//! Each message carries a Message-ID made from its outbox id, so a message
//! handed over twice (a server stopped between the mail server's answer and
//! recording it) is recognisably the same message.
//!
//! Without a mail server messages are `kept` in the table, logged so a
//! developer sees them, and read with `ca-server outbox`; they are never
//! sent later, should a mail server be configured afterwards.

use std::time::Duration as StdDuration;

use chrono::{DateTime, Duration, Utc};
use futures_util::StreamExt;
use lettre::message::Mailbox;
use lettre::message::header::ContentType;
use lettre::{AsyncSmtpTransport, AsyncTransport, Message, Tokio1Executor};
use sea_orm::sea_query::Expr;
use sea_orm::{
    ActiveModelTrait, ColumnTrait, Condition, ConnectionTrait, DatabaseConnection, EntityTrait,
    PaginatorTrait, QueryFilter, QueryOrder, QuerySelect, Set,
};

use crate::AuthError;
use crate::dto::{EmailFailure, EmailHealth, OutboxMessage};
use crate::entities::email_outbox;

/// Pauses before the 2nd … 6th attempt of a message the mail server did not
/// take for good.
pub const RETRY_SECS: [i64; 5] = [30, 120, 600, 3600, 6 * 3600];
/// How long the mail server has to answer a message.
pub const DEFAULT_TIMEOUT: StdDuration = StdDuration::from_secs(30);
/// Sent and failed messages are forgotten after this many days (their
/// bodies may hold sign-in links).
pub const KEEP_DAYS: i64 = 30;
/// The most messages claimed in one round, and handed over at once.
const PER_ROUND: u64 = 50;
const AT_ONCE: usize = 4;
/// How long a claimed message stays with its server beyond the timeout.
const LEASE_MARGIN_SECS: i64 = 10;
/// The longest reason kept for a failed attempt.
const ERROR_CHARS: usize = 500;

/// Why a message whose link expired before delivery was given up.
pub const EXPIRED: &str = "its link expired before the mail server took it, so it was not sent";
/// Failed messages staff can put back in the queue: those written in the
/// last this many days (what the System tab counts).
pub const REQUEUE_DAYS: i64 = 7;

pub const KEPT: &str = "kept";
pub const PENDING: &str = "pending";
pub const SENT: &str = "sent";
pub const FAILED: &str = "failed";

/// Sends account emails.
#[derive(Clone)]
pub struct Mailer {
    smtp: Option<AsyncSmtpTransport<Tokio1Executor>>,
    from: Mailbox,
    timeout: StdDuration,
}

/// How one attempt went.
enum Attempt {
    Sent,
    Retry(String),
    Refused(String),
}

impl Mailer {
    /// SMTP when `smtp_url` is given, else the outbox table alone.
    pub fn new(smtp_url: Option<&str>, from: &str) -> anyhow::Result<Self> {
        Self::with_timeout(smtp_url, from, DEFAULT_TIMEOUT)
    }

    /// As [`Mailer::new`], giving the mail server `timeout` to answer.
    pub fn with_timeout(
        smtp_url: Option<&str>,
        from: &str,
        timeout: StdDuration,
    ) -> anyhow::Result<Self> {
        let from: Mailbox = from
            .parse()
            .map_err(|e| anyhow::anyhow!("CA_SMTP_FROM is not a valid mailbox: {e}"))?;
        let smtp = match smtp_url {
            Some(url) => Some(
                AsyncSmtpTransport::<Tokio1Executor>::from_url(url)?
                    .timeout(Some(timeout))
                    .build(),
            ),
            None => None,
        };
        Ok(Self {
            smtp,
            from,
            timeout,
        })
    }

    /// Whether messages go to a real SMTP server.
    pub fn uses_smtp(&self) -> bool {
        self.smtp.is_some()
    }

    /// Writes the message to the outbox on `db`, the caller's transaction
    /// when the email reports something that transaction stores. With a mail
    /// server it is due at once; the sender hands it over within a second of
    /// the commit.
    pub async fn send<C: ConnectionTrait>(
        &self,
        db: &C,
        to: &str,
        subject: &str,
        body: &str,
    ) -> Result<(), AuthError> {
        self.send_expiring(db, to, subject, body, None).await
    }

    /// As [`Mailer::send`], for a message whose link stops working at
    /// `expires_at`: it is not delivered after that.
    pub async fn send_expiring<C: ConnectionTrait>(
        &self,
        db: &C,
        to: &str,
        subject: &str,
        body: &str,
        expires_at: Option<DateTime<Utc>>,
    ) -> Result<(), AuthError> {
        let _: Mailbox = to
            .parse()
            .map_err(|e| AuthError::internal(format!("recipient {to}: {e}")))?;
        let now = Utc::now();
        let pending = self.uses_smtp();
        email_outbox::ActiveModel {
            id: Set(ca_core::ids::new_id().to_string()),
            to_address: Set(to.to_string()),
            subject: Set(subject.to_string()),
            body: Set(body.to_string()),
            created_at: Set(now),
            status: Set(if pending { PENDING } else { KEPT }.to_string()),
            attempts: Set(0),
            next_attempt_at: Set(pending.then_some(now)),
            claimed_until: Set(None),
            sent_at: Set(None),
            last_error: Set(None),
            expires_at: Set(expires_at),
            failed_at: Set(None),
        }
        .insert(db)
        .await?;
        if !pending {
            // The body may hold a password-reset link: never at info
            // level, where logs are shipped and kept.
            tracing::info!(
                subject,
                "email kept in the local outbox (no CA_SMTP_URL set); read it with `ca-server outbox`"
            );
            tracing::debug!(to, "email body:\n{body}");
        }
        Ok(())
    }

    /// One round of the sender: claims the due messages and hands them to
    /// the mail server, a few at a time. Returns how many it took. Without a
    /// mail server there is nothing to do.
    pub async fn tick(
        &self,
        db: &DatabaseConnection,
        now: DateTime<Utc>,
    ) -> Result<usize, AuthError> {
        let Some(transport) = &self.smtp else {
            return Ok(0);
        };
        let claimable = || {
            Condition::any()
                .add(email_outbox::Column::ClaimedUntil.is_null())
                .add(email_outbox::Column::ClaimedUntil.lt(now))
        };
        let due = email_outbox::Entity::find()
            .filter(email_outbox::Column::Status.eq(PENDING))
            .filter(email_outbox::Column::NextAttemptAt.lte(now))
            .filter(claimable())
            .order_by_asc(email_outbox::Column::NextAttemptAt)
            .limit(PER_ROUND)
            .all(db)
            .await?;
        if due.is_empty() {
            return Ok(0);
        }
        let lease = Duration::seconds(
            i64::try_from(self.timeout.as_secs()).unwrap_or(60) + LEASE_MARGIN_SECS,
        );
        let txn = ca_core::db::begin_background_write(db).await?;
        let mut claimed = Vec::with_capacity(due.len());
        for m in due {
            let won = email_outbox::Entity::update_many()
                .col_expr(
                    email_outbox::Column::ClaimedUntil,
                    Expr::value(Some(now + lease)),
                )
                .filter(email_outbox::Column::Id.eq(&m.id))
                .filter(email_outbox::Column::Status.eq(PENDING))
                .filter(claimable())
                .exec(&txn)
                .await?
                .rows_affected
                == 1;
            if won {
                claimed.push(m);
            }
        }
        txn.commit().await?;
        let attempts: Vec<(email_outbox::Model, Attempt)> = futures_util::stream::iter(claimed)
            .map(|m| async move {
                let attempt = if m.expires_at.is_some_and(|at| at <= now) {
                    Attempt::Refused(EXPIRED.to_string())
                } else {
                    self.hand_over(transport, &m).await
                };
                (m, attempt)
            })
            .buffer_unordered(AT_ONCE)
            .collect()
            .await;
        let mut sent = 0;
        for (m, attempt) in attempts {
            sent += usize::from(matches!(attempt, Attempt::Sent));
            self.record(db, &m, attempt, now).await?;
        }
        Ok(sent)
    }

    /// What staff see of the outbox: whether a mail server is configured,
    /// what waits and for how long, and what was given up this week.
    pub async fn health(
        &self,
        db: &DatabaseConnection,
        now: DateTime<Utc>,
    ) -> Result<EmailHealth, AuthError> {
        let waiting = email_outbox::Entity::find()
            .filter(email_outbox::Column::Status.eq(PENDING))
            .count(db)
            .await?;
        let oldest: Option<DateTime<Utc>> = email_outbox::Entity::find()
            .select_only()
            .column(email_outbox::Column::CreatedAt)
            .filter(email_outbox::Column::Status.eq(PENDING))
            .order_by_asc(email_outbox::Column::CreatedAt)
            .into_tuple()
            .one(db)
            .await?;
        let failed = || {
            email_outbox::Entity::find()
                .filter(email_outbox::Column::Status.eq(FAILED))
                .filter(email_outbox::Column::FailedAt.gte(now - Duration::days(REQUEUE_DAYS)))
        };
        let failed_last7_days = failed().count(db).await?;
        let last_failure = failed()
            .order_by_desc(email_outbox::Column::FailedAt)
            .one(db)
            .await?
            .map(|m| EmailFailure {
                created_at: m.created_at,
                failed_at: m.failed_at.unwrap_or(m.created_at),
                subject: masked_addresses(&m.subject),
                error: masked_addresses(&m.last_error.unwrap_or_default()),
            });
        Ok(EmailHealth {
            mail_server: self.uses_smtp(),
            waiting,
            oldest_waiting_seconds: oldest
                .map_or(0, |at| u64::try_from((now - at).num_seconds()).unwrap_or(0)),
            failed_last7_days,
            last_failure,
        })
    }

    /// Hands one message to the mail server.
    async fn hand_over(
        &self,
        transport: &AsyncSmtpTransport<Tokio1Executor>,
        m: &email_outbox::Model,
    ) -> Attempt {
        let to: Mailbox = match m.to_address.parse() {
            Ok(to) => to,
            Err(err) => return Attempt::Refused(format!("recipient: {err}")),
        };
        let message = Message::builder()
            .from(self.from.clone())
            .to(to)
            .subject(&m.subject)
            .message_id(Some(format!("<{}@{}>", m.id, self.from.email.domain())))
            .header(ContentType::TEXT_PLAIN)
            .body(m.body.clone());
        let message = match message {
            Ok(message) => message,
            Err(err) => return Attempt::Refused(format!("building the email: {err}")),
        };
        match tokio::time::timeout(self.timeout, transport.send(message)).await {
            Err(_) => Attempt::Retry(format!(
                "the mail server did not answer within {} s",
                self.timeout.as_secs()
            )),
            Ok(Ok(_)) => Attempt::Sent,
            Ok(Err(err)) if err.is_permanent() => Attempt::Refused(err.to_string()),
            Ok(Err(err)) => Attempt::Retry(err.to_string()),
        }
    }

    /// Moves the message on after an attempt.
    async fn record(
        &self,
        db: &DatabaseConnection,
        m: &email_outbox::Model,
        attempt: Attempt,
        now: DateTime<Utc>,
    ) -> Result<(), AuthError> {
        let attempts = m.attempts + 1;
        let (status, next, error) = match attempt {
            Attempt::Sent => (SENT, None, None),
            Attempt::Refused(error) => (FAILED, None, Some(error)),
            Attempt::Retry(error) => {
                let next = usize::try_from(m.attempts)
                    .ok()
                    .and_then(|i| RETRY_SECS.get(i))
                    .map(|secs| now + Duration::seconds(*secs));
                (
                    if next.is_some() { PENDING } else { FAILED },
                    next,
                    Some(error),
                )
            }
        };
        let error = error.map(|e| e.chars().take(ERROR_CHARS).collect::<String>());
        match (status, &error) {
            (FAILED, Some(error)) => {
                tracing::warn!(email = %m.id, attempts, %error, "an email could not be delivered; given up")
            }
            (_, Some(error)) => {
                tracing::info!(email = %m.id, attempts, %error, "an email was not delivered; tried again later")
            }
            _ => tracing::debug!(email = %m.id, attempts, "email delivered"),
        }
        let txn = ca_core::db::begin_background_write(db).await?;
        email_outbox::Entity::update_many()
            .col_expr(email_outbox::Column::Status, Expr::value(status))
            .col_expr(email_outbox::Column::Attempts, Expr::value(attempts))
            .col_expr(email_outbox::Column::NextAttemptAt, Expr::value(next))
            .col_expr(
                email_outbox::Column::ClaimedUntil,
                Expr::value(Option::<DateTime<Utc>>::None),
            )
            .col_expr(
                email_outbox::Column::SentAt,
                Expr::value((status == SENT).then_some(now)),
            )
            .col_expr(email_outbox::Column::LastError, Expr::value(error))
            .col_expr(
                email_outbox::Column::FailedAt,
                Expr::value((status == FAILED).then_some(now)),
            )
            .filter(email_outbox::Column::Id.eq(&m.id))
            .exec(&txn)
            .await?;
        txn.commit().await?;
        Ok(())
    }
}

/// Puts failed messages back in the queue, on `conn` (the caller's
/// transaction): those given up in the last [`REQUEUE_DAYS`] days whose link,
/// if they carry one, still works, due at once with their attempts counted
/// from zero. Answers how many were re-queued and how many failed messages
/// stay failed (older, or their link expired).
pub async fn requeue_failed<C: ConnectionTrait>(
    conn: &C,
    now: DateTime<Utc>,
) -> Result<(u64, u64), sea_orm::DbErr> {
    let requeued = email_outbox::Entity::update_many()
        .col_expr(email_outbox::Column::Status, Expr::value(PENDING))
        .col_expr(email_outbox::Column::Attempts, Expr::value(0))
        .col_expr(email_outbox::Column::NextAttemptAt, Expr::value(Some(now)))
        .col_expr(
            email_outbox::Column::ClaimedUntil,
            Expr::value(Option::<DateTime<Utc>>::None),
        )
        .col_expr(
            email_outbox::Column::LastError,
            Expr::value(Option::<String>::None),
        )
        .col_expr(
            email_outbox::Column::FailedAt,
            Expr::value(Option::<DateTime<Utc>>::None),
        )
        .filter(email_outbox::Column::Status.eq(FAILED))
        .filter(email_outbox::Column::FailedAt.gte(now - Duration::days(REQUEUE_DAYS)))
        .filter(
            Condition::any()
                .add(email_outbox::Column::ExpiresAt.is_null())
                .add(email_outbox::Column::ExpiresAt.gt(now)),
        )
        .exec(conn)
        .await?
        .rows_affected;
    let left = email_outbox::Entity::find()
        .filter(email_outbox::Column::Status.eq(FAILED))
        .count(conn)
        .await?;
    Ok((requeued, left))
}

/// Forgets sent and failed messages older than [`KEEP_DAYS`]; returns how
/// many. Kept messages (no mail server) stay for `ca-server outbox`.
pub async fn forget_delivered(
    db: &DatabaseConnection,
    now: DateTime<Utc>,
) -> Result<u64, sea_orm::DbErr> {
    let txn = ca_core::db::begin_background_write(db).await?;
    let gone = email_outbox::Entity::delete_many()
        .filter(email_outbox::Column::Status.is_in([SENT, FAILED]))
        .filter(email_outbox::Column::CreatedAt.lt(now - Duration::days(KEEP_DAYS)))
        .exec(&txn)
        .await?
        .rows_affected;
    txn.commit().await?;
    Ok(gone)
}

/// The newest outbox messages, optionally only those to `to`.
pub async fn outbox(
    db: &DatabaseConnection,
    to: Option<&str>,
    limit: u64,
) -> Result<Vec<OutboxMessage>, AuthError> {
    let mut query = email_outbox::Entity::find()
        .order_by_desc(email_outbox::Column::CreatedAt)
        .order_by_desc(email_outbox::Column::Id)
        .limit(limit);
    if let Some(to) = to {
        query = query.filter(email_outbox::Column::ToAddress.eq(to.trim().to_lowercase()));
    }
    Ok(query
        .all(db)
        .await?
        .into_iter()
        .map(|m| OutboxMessage {
            id: m.id,
            to: m.to_address,
            subject: m.subject,
            body: m.body,
            created_at: m.created_at,
            status: m.status,
            attempts: m.attempts,
            sent_at: m.sent_at,
            last_error: m.last_error,
        })
        .collect())
}

/// `text` with each email address in it shown as its first letter and its
/// domain (`m•••@example.in`): staff see why an email failed without
/// reading the address of an owner's lead, which a lead email's subject
/// and the mail server's answer may hold.
pub fn masked_addresses(text: &str) -> String {
    let local = |c: char| c.is_alphanumeric() || "._%+-'".contains(c);
    let chars: Vec<char> = text.chars().collect();
    let mut out = String::with_capacity(text.len());
    let mut i = 0;
    while i < chars.len() {
        // The local part of an address starts here when the run of
        // address characters from here ends in an `@` followed by a domain.
        if local(chars[i]) && (i == 0 || !local(chars[i - 1])) {
            let mut end = i;
            while end < chars.len() && local(chars[end]) {
                end += 1;
            }
            let domain = chars.get(end + 1).is_some_and(|c| c.is_alphanumeric());
            if chars.get(end) == Some(&'@') && domain {
                out.push(chars[i]);
                out.push_str("•••");
                i = end;
                continue;
            }
            out.extend(&chars[i..end]);
            i = end;
            continue;
        }
        out.push(chars[i]);
        i += 1;
    }
    out
}

#[cfg(test)]
mod masking_tests {
    use super::masked_addresses;

    #[test]
    fn addresses_keep_their_first_letter_and_domain() {
        assert_eq!(
            masked_addresses("New lead: meera.iyer@example.in"),
            "New lead: m•••@example.in"
        );
        assert_eq!(
            masked_addresses(
                "permanent error (550): 5.1.1 <gone@example.in>: Recipient address rejected"
            ),
            "permanent error (550): 5.1.1 <g•••@example.in>: Recipient address rejected"
        );
        assert_eq!(
            masked_addresses("Receipt CA-000012: Basic"),
            "Receipt CA-000012: Basic"
        );
        assert_eq!(
            masked_addresses("a@b and x @ y, @z"),
            "a•••@b and x @ y, @z"
        );
        assert_eq!(masked_addresses("ünï@exämple.in"), "ü•••@exämple.in");
        assert_eq!(masked_addresses(""), "");
    }
}
