//! Telling owners about new leads by email, honouring their setting. An
//! owner gets at most one lead email per `DIGEST_MINUTES`: the first lead
//! goes out at once, and the leads that arrive meanwhile come together in
//! one digest, so a busy campaign never floods an inbox.

use chrono::{DateTime, Duration, Utc};
use sea_orm::sea_query::Expr;
use sea_orm::{
    ActiveModelTrait, ColumnTrait, ConnectionTrait, DatabaseConnection, DbErr, EntityTrait,
    QueryFilter, QueryOrder, QuerySelect, Set,
};

use ca_auth::Mailer;
use ca_auth::entities::user;

use crate::entities::lead_notification;

/// At most one lead email per owner in this many minutes.
pub const DIGEST_MINUTES: i64 = 10;

/// Queues the email about a new lead, in the caller's transaction (the one
/// that stores the lead).
pub async fn queue_lead<C: ConnectionTrait>(
    conn: &C,
    owner_id: &str,
    email: &str,
    name: Option<&str>,
    campaign_name: &str,
    now: DateTime<Utc>,
) -> Result<(), DbErr> {
    lead_notification::ActiveModel {
        id: Set(ca_core::ids::new_id().to_string()),
        owner_id: Set(owner_id.to_string()),
        customer_email: Set(email.chars().take(254).collect()),
        customer_name: Set(name.map(|n| n.chars().take(200).collect())),
        campaign_name: Set(campaign_name.chars().take(200).collect()),
        created_at: Set(now),
        sent_at: Set(None),
    }
    .insert(conn)
    .await?;
    Ok(())
}

/// Marks the owner's waiting lead emails as handled without sending them,
/// in the caller's transaction: the demo data's leads are made up, so nobody
/// is told of them. Returns how many were waiting.
pub async fn discard_waiting<C: ConnectionTrait>(
    conn: &C,
    owner_id: &str,
    now: DateTime<Utc>,
) -> Result<u64, DbErr> {
    Ok(lead_notification::Entity::update_many()
        .col_expr(lead_notification::Column::SentAt, Expr::value(Some(now)))
        .filter(lead_notification::Column::OwnerId.eq(owner_id))
        .filter(lead_notification::Column::SentAt.is_null())
        .exec(conn)
        .await?
        .rows_affected)
}

fn line(n: &lead_notification::Model) -> String {
    match &n.customer_name {
        Some(name) if !name.trim().is_empty() => {
            format!("• {name} <{}> — {}", n.customer_email, n.campaign_name)
        }
        _ => format!("• {} — {}", n.customer_email, n.campaign_name),
    }
}

/// Sends what is due: for each owner with waiting leads whose last lead email
/// is at least `DIGEST_MINUTES` old, one email (a single lead, or a digest).
/// Returns how many emails were queued in the email outbox.
pub async fn send_due(
    db: &DatabaseConnection,
    mailer: &Mailer,
    public_url: &str,
    now: DateTime<Utc>,
) -> Result<usize, DbErr> {
    let waiting = lead_notification::Entity::find()
        .filter(lead_notification::Column::SentAt.is_null())
        .order_by_asc(lead_notification::Column::CreatedAt)
        .limit(5000)
        .all(db)
        .await?;
    let mut by_owner: std::collections::BTreeMap<String, Vec<lead_notification::Model>> =
        Default::default();
    for n in waiting {
        by_owner.entry(n.owner_id.clone()).or_default().push(n);
    }
    let mut sent = 0;
    for (owner_id, leads) in by_owner {
        let last: Option<DateTime<Utc>> = lead_notification::Entity::find()
            .select_only()
            .column(lead_notification::Column::SentAt)
            .filter(lead_notification::Column::OwnerId.eq(&owner_id))
            .filter(lead_notification::Column::SentAt.is_not_null())
            .order_by_desc(lead_notification::Column::SentAt)
            .into_tuple::<Option<DateTime<Utc>>>()
            .one(db)
            .await?
            .flatten();
        if last.is_some_and(|at| now - at < Duration::minutes(DIGEST_MINUTES)) {
            continue;
        }
        let Some(owner) = user::Entity::find_by_id(owner_id.clone()).one(db).await? else {
            continue;
        };
        let ids: Vec<String> = leads.iter().map(|l| l.id.clone()).collect();
        if owner.email_notifications {
            let (subject, intro) = if leads.len() == 1 {
                (
                    format!("New lead: {}", leads[0].customer_email),
                    "A visitor just left their details:".to_string(),
                )
            } else {
                (
                    format!("{} new leads", leads.len()),
                    format!("{} visitors left their details:", leads.len()),
                )
            };
            let list: Vec<String> = leads.iter().take(50).map(line).collect();
            let more = if leads.len() > 50 {
                format!("\n…and {} more.", leads.len() - 50)
            } else {
                String::new()
            };
            let body = format!(
                "Hi {},\n\n{intro}\n\n{}{more}\n\nSee them all: {public_url}/customers\n\n\
                 You get at most one such email every {DIGEST_MINUTES} minutes. Turn them off in Settings → Notifications.\n\n— ConvertAssist",
                owner.name,
                list.join("\n")
            );
            // The email and the marks on its leads are stored together; a
            // second server doing the same round finds them marked.
            let txn = ca_core::db::begin_background_write(db).await?;
            if !mark_sent(&txn, &ids, now).await? {
                txn.rollback().await?;
                continue;
            }
            if let Err(err) = mailer.send(&txn, &owner.email, &subject, &body).await {
                txn.rollback().await?;
                tracing::warn!(owner = %owner.id, %err, "lead email not queued; retried next round");
                continue;
            }
            txn.commit().await?;
            sent += 1;
        } else {
            mark_sent(db, &ids, now).await?;
        }
    }
    Ok(sent)
}

/// Marks the leads `ids` as told of; false when another server did first.
async fn mark_sent<C: ConnectionTrait>(
    conn: &C,
    ids: &[String],
    now: DateTime<Utc>,
) -> Result<bool, DbErr> {
    let marked = lead_notification::Entity::update_many()
        .col_expr(lead_notification::Column::SentAt, Expr::value(Some(now)))
        .filter(lead_notification::Column::Id.is_in(ids.iter().cloned()))
        .filter(lead_notification::Column::SentAt.is_null())
        .exec(conn)
        .await?
        .rows_affected;
    Ok(marked == ids.len() as u64)
}
