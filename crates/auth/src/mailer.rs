//! Outgoing email: SMTP through lettre when `CA_SMTP_URL` is set, otherwise
//! the `email_outbox` table (a local stand-in, logged so a developer sees it).

use chrono::Utc;
use lettre::message::Mailbox;
use lettre::{AsyncSmtpTransport, AsyncTransport, Message, Tokio1Executor};
use sea_orm::{
    ActiveModelTrait, ColumnTrait, ConnectionTrait, DatabaseConnection, EntityTrait, QueryFilter,
    QueryOrder, QuerySelect, Set,
};

use crate::AuthError;
use crate::dto::OutboxMessage;
use crate::entities::email_outbox;

/// Sends account emails.
#[derive(Clone)]
pub struct Mailer {
    smtp: Option<AsyncSmtpTransport<Tokio1Executor>>,
    from: Mailbox,
}

impl Mailer {
    /// SMTP when `smtp_url` is given, else the outbox table.
    pub fn new(smtp_url: Option<&str>, from: &str) -> anyhow::Result<Self> {
        let from: Mailbox = from
            .parse()
            .map_err(|e| anyhow::anyhow!("CA_SMTP_FROM is not a valid mailbox: {e}"))?;
        let smtp = match smtp_url {
            Some(url) => Some(AsyncSmtpTransport::<Tokio1Executor>::from_url(url)?.build()),
            None => None,
        };
        Ok(Self { smtp, from })
    }

    /// Whether messages go to a real SMTP server.
    pub fn uses_smtp(&self) -> bool {
        self.smtp.is_some()
    }

    /// Sends (SMTP, in the background so the caller's answer time does not
    /// depend on the mail server) or stores the message in the outbox.
    pub async fn send<C: ConnectionTrait>(
        &self,
        db: &C,
        to: &str,
        subject: &str,
        body: &str,
    ) -> Result<(), AuthError> {
        match &self.smtp {
            Some(transport) => {
                let to_box: Mailbox = to
                    .parse()
                    .map_err(|e| AuthError::internal(format!("recipient {to}: {e}")))?;
                let message = Message::builder()
                    .from(self.from.clone())
                    .to(to_box)
                    .subject(subject)
                    .body(body.to_string())
                    .map_err(|e| AuthError::internal(format!("building email: {e}")))?;
                let transport = transport.clone();
                tokio::spawn(async move {
                    if let Err(err) = transport.send(message).await {
                        tracing::error!(%err, "sending email failed");
                    }
                });
                Ok(())
            }
            None => {
                email_outbox::ActiveModel {
                    id: Set(ca_core::ids::new_id().to_string()),
                    to_address: Set(to.to_string()),
                    subject: Set(subject.to_string()),
                    body: Set(body.to_string()),
                    created_at: Set(Utc::now()),
                }
                .insert(db)
                .await?;
                // The body may hold a password-reset link: never at info
                // level, where logs are shipped and kept.
                tracing::info!(
                    subject,
                    "email kept in the local outbox (no CA_SMTP_URL set); read it with `ca-server outbox`"
                );
                tracing::debug!(to, "email body:\n{body}");
                Ok(())
            }
        }
    }
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
        })
        .collect())
}
