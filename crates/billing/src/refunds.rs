//! Refunds by staff. The money is asked back first (PayU's
//! `cancel_refund_transaction`; a simulated or demo payment moved no money
//! and is refunded at once). PayU only queues a refund: the payment stays
//! successful, marked as waiting on PayU, and the reconciliation worker asks
//! PayU (`check_action_status`) until it says the money went back. Then the
//! refund is recorded: the payment shows as refunded in history and on its
//! invoice, with a credit note, and the part of the owner's paid period it
//! paid for and has not run yet ends, unless staff chose to let the owner
//! keep it. A refund PayU fails is recorded as failed, with PayU's reason,
//! and staff can ask again.

use chrono::{DateTime, Utc};
use sea_orm::sea_query::{Expr, NullOrdering};
use sea_orm::{
    ColumnTrait, Condition, ConnectionTrait, EntityTrait, Order, QueryFilter, QueryOrder,
    QuerySelect,
};

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

/// How often a refund waiting on PayU is asked about.
pub const REFUND_RECHECK_MINUTES: i64 = 10;
/// The most waiting refunds asked about in one run.
const REFUNDS_PER_RUN: u64 = 50;

/// What became of a refund staff asked for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RefundAsked {
    /// No money moved (a simulated or demo payment): record it now with
    /// [`record_refund`], under this id.
    Done(String),
    /// PayU accepted it under this request id and will make it: record the
    /// request with [`record_request`]; the refund itself is recorded when
    /// PayU says the money went back.
    Queued(String),
}

/// What one round of asking PayU about waiting refunds did.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct RefundRound {
    pub checked: i64,
    pub done: i64,
    pub failed: i64,
    /// PayU could not be asked, or refused the call.
    pub error: Option<String>,
}

impl BillingService {
    /// Asks for the money of the successful payment `p` back. Runs outside
    /// any transaction (it waits for PayU).
    pub async fn request_refund(&self, p: &payment::Model) -> Result<RefundAsked, BillingError> {
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
            .filter(payment::Column::RefundRequestedAt.is_null())
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
    async fn ask_refund(&self, p: &payment::Model) -> Result<RefundAsked, BillingError> {
        // The same id for every request about this payment: should a request
        // PayU queued look lost (a timeout), asking again cannot refund twice.
        let our_id = refund_token(&p.id);
        match (p.provider.as_str(), &self.config.gateway) {
            // No money moved: nothing to give back.
            ("simulator" | "demo", _) => Ok(RefundAsked::Done(our_id)),
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
                tracing::info!(txnid = %p.txnid, request = %queued.request_id, "PayU queued the refund");
                Ok(RefundAsked::Queued(queued.request_id))
            }
            _ => Err(BillingError::RefundRefused(
                "this payment was made through PayU, which is not configured on this server".into(),
            )),
        }
    }

    /// One round of asking PayU about refunds it queued (the
    /// reconciliation worker runs it): a refund PayU made is recorded as
    /// [`record_refund`] does, with the period choice staff made when they
    /// asked; one PayU failed is marked failed with PayU's reason and can be
    /// asked again; one still waiting is asked again later.
    pub async fn check_refunds(&self, now: DateTime<Utc>) -> Result<RefundRound, BillingError> {
        let mut round = RefundRound::default();
        let Gateway::Payu {
            credentials,
            verify_url,
            ..
        } = &self.config.gateway
        else {
            return Ok(round);
        };
        let due = payment::Entity::find()
            .filter(payment::Column::Status.eq(PaymentStatus::Success))
            .filter(payment::Column::Provider.eq("payu"))
            .filter(payment::Column::RefundRequestedAt.is_not_null())
            .filter(
                Condition::any()
                    .add(payment::Column::RefundCheckedAt.is_null())
                    .add(
                        payment::Column::RefundCheckedAt
                            .lte(now - chrono::Duration::minutes(REFUND_RECHECK_MINUTES)),
                    ),
            )
            .order_by_with_nulls(
                payment::Column::RefundCheckedAt,
                Order::Asc,
                NullOrdering::First,
            )
            .limit(REFUNDS_PER_RUN)
            .all(&self.db)
            .await?;
        for p in due {
            // Claimed by the server that moves its check time first.
            let claimed = payment::Entity::update_many()
                .col_expr(payment::Column::RefundCheckedAt, Expr::value(Some(now)))
                .filter(payment::Column::Id.eq(&p.id))
                .filter(payment::Column::Status.eq(PaymentStatus::Success))
                .filter(payment::Column::RefundRequestedAt.is_not_null())
                .filter(match p.refund_checked_at {
                    Some(at) => payment::Column::RefundCheckedAt.eq(at),
                    None => payment::Column::RefundCheckedAt.is_null(),
                })
                .exec(&self.db)
                .await?
                .rows_affected
                == 1;
            let Some(request_id) = p.refund_id.clone().filter(|_| claimed) else {
                continue;
            };
            round.checked += 1;
            let body =
                match payu::check_action_status(&self.http, verify_url, credentials, &request_id)
                    .await
                {
                    Ok(body) => body,
                    Err(err) => {
                        tracing::warn!(txnid = %p.txnid, %err, "asking PayU about a refund failed");
                        round.error = Some(err);
                        continue;
                    }
                };
            if let Some(refused) = payu::call_refused(&body) {
                tracing::error!(msg = %refused, "PayU refused check_action_status (is CA_PAYU_KEY/CA_PAYU_SALT right?)");
                round.error = Some(format!("PayU refused the call: {refused}"));
                continue;
            }
            match payu::refund_state(&body, &request_id, &refund_token(&p.id)) {
                payu::RefundState::Done => {
                    let txn = ca_core::db::begin_write(&self.db).await?;
                    let keep_access = p.refund_keeps_access.unwrap_or(false);
                    match record_refund(&txn, &self.config, &p, &request_id, keep_access, now).await
                    {
                        Ok(_) => {
                            txn.commit().await?;
                            ca_core::freshness::changed();
                            round.done += 1;
                        }
                        // Refunded meanwhile (PayU's own autoRefund).
                        Err(BillingError::NotRefundable) => txn.rollback().await?,
                        Err(err) => return Err(err),
                    }
                }
                payu::RefundState::Failed(why) => {
                    tracing::error!(txnid = %p.txnid, request = %request_id, %why, "PayU failed a refund it had accepted");
                    let moved = payment::Entity::update_many()
                        .col_expr(
                            payment::Column::RefundRequestedAt,
                            Expr::value(Option::<DateTime<Utc>>::None),
                        )
                        .col_expr(
                            payment::Column::RefundStartedAt,
                            Expr::value(Option::<DateTime<Utc>>::None),
                        )
                        .col_expr(payment::Column::RefundError, Expr::value(Some(why)))
                        .col_expr(payment::Column::UpdatedAt, Expr::value(now))
                        .filter(payment::Column::Id.eq(&p.id))
                        .filter(payment::Column::Status.eq(PaymentStatus::Success))
                        .filter(payment::Column::RefundId.eq(&request_id))
                        .exec(&self.db)
                        .await?
                        .rows_affected;
                    round.failed += i64::try_from(moved).unwrap_or(0);
                }
                payu::RefundState::Waiting(state) => {
                    tracing::info!(txnid = %p.txnid, request = %request_id, %state, "refund still with PayU");
                }
            }
        }
        Ok(round)
    }
}

/// Records, in the caller's transaction, that PayU accepted a refund of the
/// successful payment `p` under `request_id` and will make it; whether the
/// owner keeps the period it paid for is decided now, applied when PayU
/// says the refund is done.
pub async fn record_request<C: ConnectionTrait>(
    conn: &C,
    p: &payment::Model,
    request_id: &str,
    keep_access: bool,
    now: DateTime<Utc>,
) -> Result<payment::Model, BillingError> {
    let moved = payment::Entity::update_many()
        .col_expr(
            payment::Column::RefundId,
            Expr::value(Some(request_id.to_string())),
        )
        .col_expr(payment::Column::RefundRequestedAt, Expr::value(Some(now)))
        .col_expr(
            payment::Column::RefundCheckedAt,
            Expr::value(Option::<DateTime<Utc>>::None),
        )
        .col_expr(
            payment::Column::RefundKeepsAccess,
            Expr::value(Some(keep_access)),
        )
        .col_expr(
            payment::Column::RefundError,
            Expr::value(Option::<String>::None),
        )
        .col_expr(payment::Column::UpdatedAt, Expr::value(now))
        .filter(payment::Column::Id.eq(&p.id))
        .filter(payment::Column::Status.eq(PaymentStatus::Success))
        .filter(payment::Column::RefundRequestedAt.is_null())
        .exec(conn)
        .await?
        .rows_affected
        == 1;
    if !moved {
        return Err(BillingError::NotRefundable);
    }
    tracing::info!(txnid = %p.txnid, request = %request_id, keep_access, "refund waiting on PayU");
    by_txnid(conn, &p.txnid).await
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
