//! Receipts: the owner gets an email when a payment succeeds (unless they
//! turned email notifications off), once per payment.

use chrono::{DateTime, Duration, Utc};
use sea_orm::sea_query::Expr;
use sea_orm::{ColumnTrait, DatabaseConnection, DbErr, EntityTrait, QueryFilter};

use ca_auth::Mailer;
use ca_auth::entities::user;

use crate::entities::payment;
use crate::invoices::label as invoice_label;

/// Receipts are not sent for payments settled longer ago than this.
const RECENT_DAYS: i64 = 7;

/// Queues the receipts due in the email outbox; returns how many.
pub async fn send_due(
    db: &DatabaseConnection,
    mailer: &Mailer,
    public_url: &str,
    now: DateTime<Utc>,
) -> Result<usize, DbErr> {
    let due = payment::Entity::find()
        .filter(payment::Column::Status.eq(crate::entities::payment::PaymentStatus::Success))
        .filter(payment::Column::ReceiptSentAt.is_null())
        .filter(payment::Column::Provider.ne("demo"))
        .filter(payment::Column::SettledAt.gte(now - Duration::days(RECENT_DAYS)))
        .all(db)
        .await?;
    let mut sent = 0;
    for p in due {
        let Some(owner) = user::Entity::find_by_id(p.owner_id.clone()).one(db).await? else {
            continue;
        };
        // The email and the mark that it went out are stored together; a
        // second server doing the same round finds the mark and stores nothing.
        let txn = ca_core::db::begin_background_write(db).await?;
        let marked = payment::Entity::update_many()
            .col_expr(payment::Column::ReceiptSentAt, Expr::value(Some(now)))
            .filter(payment::Column::Id.eq(&p.id))
            .filter(payment::Column::ReceiptSentAt.is_null())
            .exec(&txn)
            .await?
            .rows_affected
            == 1;
        if !marked {
            txn.rollback().await?;
            continue;
        }
        if owner.email_notifications {
            let invoice = p.invoice_number.map(invoice_label).unwrap_or_default();
            let body = format!(
                "Hi {},\n\nThank you for your payment.\n\n\
                 Plan: {}\nAmount: ₹{}\nTransaction: {}\nInvoice: {}\nPaid for: until {}\n\n\
                 Your invoice: {public_url}/billing/invoice/{}\n\n— ConvertAssist",
                owner.name,
                p.productinfo,
                crate::payu::amount_text(p.amount_paise),
                p.txnid,
                invoice,
                p.period_end
                    .map(|d| d.format("%-d %B %Y").to_string())
                    .unwrap_or_default(),
                p.txnid
            );
            if let Err(err) = mailer
                .send(
                    &txn,
                    &owner.email,
                    &format!("Receipt {invoice}: {}", p.productinfo),
                    &body,
                )
                .await
            {
                txn.rollback().await?;
                tracing::warn!(txnid = %p.txnid, %err, "receipt not queued; retried next round");
                continue;
            }
            sent += 1;
        }
        txn.commit().await?;
    }
    Ok(sent)
}
