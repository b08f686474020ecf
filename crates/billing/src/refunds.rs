//! Refunds by staff. The money goes back first (PayU's
//! `cancel_refund_transaction`; a simulated or demo payment moved no money
//! and is refunded at once), then the refund is recorded in the caller's
//! transaction: the payment shows as refunded in history and on its
//! invoice, and the part of the owner's paid period it paid for and has not
//! run yet ends, unless staff chose to let the owner keep it.

use chrono::{DateTime, Utc};
use sea_orm::sea_query::Expr;
use sea_orm::{ColumnTrait, Condition, ConnectionTrait, EntityTrait, QueryFilter};

use crate::BillingError;
use crate::config::{BillingConfig, Gateway};
use crate::entities::payment::{self, PaymentStatus};
use crate::entities::subscription;
use crate::payu;
use crate::service::BillingService;

/// How long a refund started but never recorded (its server stopped while
/// PayU was being asked) blocks another.
const REFUND_CLAIM_MINUTES: i64 = 5;

/// The id PayU knows a payment's refund by (`var2`, at most 20
/// characters): the same for every request about the payment.
fn refund_token(payment_id: &str) -> String {
    use sha2::Digest;
    let digest = sha2::Sha256::digest(payment_id.as_bytes());
    let hex: String = digest.iter().map(|b| format!("{b:02X}")).collect();
    format!("RF{}", &hex[..18])
}

/// A payment by its txnid (staff: any owner's).
pub async fn by_txnid<C: ConnectionTrait>(
    conn: &C,
    txnid: &str,
) -> Result<payment::Model, BillingError> {
    let txnid = txnid.trim();
    if txnid.is_empty() || txnid.len() > 25 {
        return Err(BillingError::PaymentNotFound);
    }
    payment::Entity::find()
        .filter(payment::Column::Txnid.eq(txnid))
        .one(conn)
        .await?
        .ok_or(BillingError::PaymentNotFound)
}

impl BillingService {
    /// Gives the money of the successful payment `p` back; answers the
    /// provider's id of the refund. Runs outside any transaction (it waits
    /// for PayU); record it with [`record_refund`].
    pub async fn request_refund(&self, p: &payment::Model) -> Result<String, BillingError> {
        if p.status != PaymentStatus::Success {
            return Err(BillingError::NotRefundable);
        }
        let now = Utc::now();
        // Claimed before PayU is asked, so one payment's money is asked back
        // once however many clicks or staff members arrive together. A claim
        // left by a server that stopped mid-request lapses after a while.
        let claimed = payment::Entity::update_many()
            .col_expr(payment::Column::RefundStartedAt, Expr::value(Some(now)))
            .filter(payment::Column::Id.eq(&p.id))
            .filter(payment::Column::Status.eq(PaymentStatus::Success))
            .filter(
                Condition::any()
                    .add(payment::Column::RefundStartedAt.is_null())
                    .add(
                        payment::Column::RefundStartedAt
                            .lt(now - chrono::Duration::minutes(REFUND_CLAIM_MINUTES)),
                    ),
            )
            .exec(&self.db)
            .await?
            .rows_affected
            == 1;
        if !claimed {
            let current = by_txnid(&self.db, &p.txnid).await?;
            return Err(if current.status == PaymentStatus::Success {
                BillingError::RefundInProgress
            } else {
                BillingError::NotRefundable
            });
        }
        let answer = self.ask_refund(p).await;
        if answer.is_err() {
            payment::Entity::update_many()
                .col_expr(
                    payment::Column::RefundStartedAt,
                    Expr::value(Option::<DateTime<Utc>>::None),
                )
                .filter(payment::Column::Id.eq(&p.id))
                .exec(&self.db)
                .await?;
        }
        answer
    }

    /// Asks the payment's provider to give the money back.
    async fn ask_refund(&self, p: &payment::Model) -> Result<String, BillingError> {
        // The same id for every request about this payment: should a request
        // PayU queued look lost (a timeout), asking again cannot refund twice.
        let our_id = refund_token(&p.id);
        match (p.provider.as_str(), &self.config.gateway) {
            // No money moved: nothing to give back.
            ("simulator" | "demo", _) => Ok(our_id),
            (
                "payu",
                Gateway::Payu {
                    credentials,
                    verify_url,
                    ..
                },
            ) => {
                let mihpayid = p.mihpayid.as_deref().ok_or_else(|| {
                    BillingError::RefundRefused("PayU's payment id is missing".into())
                })?;
                let queued = payu::cancel_refund_transaction(
                    &self.http,
                    verify_url,
                    credentials,
                    mihpayid,
                    &our_id,
                    &payu::amount_text(p.amount_paise),
                )
                .await
                .map_err(|why| {
                    tracing::warn!(txnid = %p.txnid, %why, "refund refused");
                    BillingError::RefundRefused(why)
                })?;
                tracing::info!(txnid = %p.txnid, request = %queued.request_id, "PayU accepted the refund");
                Ok(queued.request_id)
            }
            _ => Err(BillingError::RefundRefused(
                "this payment was made through PayU, which is not configured on this server".into(),
            )),
        }
    }
}

/// Records the refund `refund_id` of the successful payment `p` in the
/// caller's transaction, and issues the credit note that reverses its tax
/// invoice (the next number of the invoices' series). Unless `keep_access`, the owner loses the part of
/// their paid period this payment bought that has not run yet (all of it
/// for a payment whose period starts later, none for one that has ended);
/// when nothing of their period is left, the plan ends now and campaigns
/// beyond the free plan are paused by the paid-periods sweep.
pub async fn record_refund<C: ConnectionTrait>(
    conn: &C,
    config: &BillingConfig,
    p: &payment::Model,
    refund_id: &str,
    keep_access: bool,
    now: DateTime<Utc>,
) -> Result<payment::Model, BillingError> {
    let moved = payment::Entity::update_many()
        .col_expr(
            payment::Column::Status,
            Expr::value(PaymentStatus::Refunded),
        )
        .col_expr(payment::Column::RefundedAt, Expr::value(Some(now)))
        .col_expr(
            payment::Column::RefundAmountPaise,
            Expr::value(Some(p.amount_paise)),
        )
        .col_expr(
            payment::Column::RefundId,
            Expr::value(Some(refund_id.to_string())),
        )
        .col_expr(
            payment::Column::RefundKeepsAccess,
            Expr::value(Some(keep_access)),
        )
        .col_expr(payment::Column::UpdatedAt, Expr::value(now))
        .filter(payment::Column::Id.eq(&p.id))
        .filter(payment::Column::Status.eq(PaymentStatus::Success))
        .exec(conn)
        .await?
        .rows_affected
        == 1;
    if !moved {
        return Err(BillingError::NotRefundable);
    }
    let note = crate::invoices::issue_credit_note(conn, config, p, now).await?;
    if !keep_access {
        end_refunded_period(conn, p, now).await?;
    }
    tracing::info!(txnid = %p.txnid, owner = %p.owner_id, keep_access, credit_note = note.number, "payment refunded");
    by_txnid(conn, &p.txnid).await
}

/// Takes the unused part of `p`'s period off the owner's paid period.
async fn end_refunded_period<C: ConnectionTrait>(
    conn: &C,
    p: &payment::Model,
    now: DateTime<Utc>,
) -> Result<(), BillingError> {
    let (Some(start), Some(end)) = (p.period_start, p.period_end) else {
        return Ok(());
    };
    if end <= now {
        return Ok(());
    }
    let unused = end - std::cmp::max(start, now);
    let Some(record) = subscription::Entity::find_by_id(p.owner_id.clone())
        .one(conn)
        .await?
        .filter(|r| r.status == "active" && r.plan_id == p.plan_id)
    else {
        return Ok(());
    };
    let new_end = std::cmp::max(now, record.current_period_end - unused);
    subscription::Entity::update_many()
        .col_expr(subscription::Column::CurrentPeriodEnd, Expr::value(new_end))
        .col_expr(subscription::Column::UpdatedAt, Expr::value(now))
        .filter(subscription::Column::OwnerId.eq(&p.owner_id))
        .exec(conn)
        .await?;
    ca_auth::subscription::set_subscription(conn, &p.owner_id, &p.plan_id, "active", Some(new_end))
        .await?;
    Ok(())
}
