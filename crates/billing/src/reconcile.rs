//! Settling payments nobody came back for. A buyer who pays and closes the
//! tab, or a webhook that never arrives, leaves a payment `pending` though
//! the money was taken. Every half minute the server asks PayU
//! (`verify_payment`, several txnids per call) about each payment still
//! pending two minutes after it was made, and again every three minutes
//! after that, and settles it from the answer: a paid checkout is settled
//! within five minutes. One still unpaid after PayU's window (30 minutes) is
//! not completed (`expired`), with the reason, unless PayU says it is still
//! in progress (a bank authorisation not yet captured: the buyer's money is
//! held), which is asked about until PayU settles it. What each run did, and what
//! went wrong (PayU unreachable, or refusing the call with a wrong key or
//! salt), is kept for the staff's System tab.

use chrono::{DateTime, Duration, Utc};
use sea_orm::sea_query::{Expr, NullOrdering};
use sea_orm::{
    ColumnTrait, Condition, ConnectionTrait, EntityTrait, Order, PaginatorTrait, QueryFilter,
    QueryOrder, QuerySelect, Set,
};
use serde::Serialize;
use utoipa::ToSchema;

use crate::BillingError;
use crate::config::Gateway;
use crate::entities::billing_job;
use crate::entities::payment::{self, PaymentStatus};
use crate::payments::{expire, settle};
use crate::payu;
use crate::service::BillingService;

/// A payment is first asked about this long after it was made (the buyer
/// may still be on PayU's page before that).
pub const FIRST_CHECK_MINUTES: i64 = 2;
/// Then asked again this often while it is pending.
pub const RECHECK_MINUTES: i64 = 3;
pub use crate::config::EXPIRE_AFTER_MINUTES;
/// The most payments asked about in one run.
pub const PER_RUN: u64 = 500;
const JOB: &str = "reconciliation";

/// What one reconciliation run did.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Reconciliation {
    pub ran_at: Option<DateTime<Utc>>,
    pub checked: i64,
    pub settled: i64,
    pub expired: i64,
    /// What went wrong, if anything (PayU unreachable, or refusing the call).
    pub error: Option<String>,
}

impl BillingService {
    /// One reconciliation run at `now` (see the module's description).
    pub async fn reconcile(&self, now: DateTime<Utc>) -> Result<Reconciliation, BillingError> {
        let due = payment::Entity::find()
            .filter(payment::Column::Status.eq(PaymentStatus::Pending))
            .filter(payment::Column::Provider.ne("demo"))
            .filter(payment::Column::CreatedAt.lte(now - Duration::minutes(FIRST_CHECK_MINUTES)))
            .filter(
                Condition::any()
                    .add(payment::Column::CheckedAt.is_null())
                    .add(payment::Column::CheckedAt.lte(now - Duration::minutes(RECHECK_MINUTES))),
            )
            // The payment asked about longest ago goes first (one never asked
            // before all), so payments PayU keeps calling in progress cannot
            // crowd a new one out of a run.
            .order_by_with_nulls(payment::Column::CheckedAt, Order::Asc, NullOrdering::First)
            .order_by_asc(payment::Column::CreatedAt)
            .limit(PER_RUN)
            .all(&self.db)
            .await?;
        let mut run = Reconciliation {
            ran_at: Some(now),
            ..Reconciliation::default()
        };
        let mut mine = Vec::with_capacity(due.len());
        for p in due {
            // Claimed by the server that moves its check time first, so
            // several servers never ask PayU about the same payment at once.
            let claimed = payment::Entity::update_many()
                .col_expr(payment::Column::CheckedAt, Expr::value(Some(now)))
                .filter(payment::Column::Id.eq(&p.id))
                .filter(payment::Column::Status.eq(PaymentStatus::Pending))
                .filter(match p.checked_at {
                    Some(at) => payment::Column::CheckedAt.eq(at),
                    None => payment::Column::CheckedAt.is_null(),
                })
                .exec(&self.db)
                .await?
                .rows_affected
                == 1;
            if claimed {
                mine.push(p);
            }
        }
        for batch in mine.chunks(payu::VERIFY_BATCH) {
            let answer = self.ask(batch).await;
            let body = match answer {
                Ok(body) => body,
                Err(err) => {
                    tracing::warn!(%err, payments = batch.len(), "asking PayU about pending payments failed");
                    run.error = Some(err);
                    continue;
                }
            };
            if let Some(refused) = payu::call_refused(&body) {
                tracing::error!(msg = %refused, "PayU refused verify_payment (is CA_PAYU_KEY/CA_PAYU_SALT right?)");
                run.error = Some(format!("PayU refused the call: {refused}"));
                continue;
            }
            for p in batch {
                run.checked += 1;
                let outcome = payu::parse_verify(&body, &p.txnid, p.amount_paise);
                let window_over = p.created_at <= now - Duration::minutes(EXPIRE_AFTER_MINUTES);
                if let Some(outcome) = outcome {
                    run.settled +=
                        i64::from(settle(&self.db, &self.config, p, &outcome, now).await?);
                } else if window_over && !payu::in_progress(&body, &p.txnid) {
                    let reason = format!(
                        "Not completed: no payment arrived within {EXPIRE_AFTER_MINUTES} minutes"
                    );
                    run.expired += i64::from(expire(&self.db, p, &reason, now).await?);
                }
            }
        }
        record(&self.db, &run, now).await?;
        Ok(run)
    }

    /// Asks the payments' provider about `batch`: PayU, or the simulator
    /// while it runs (a simulated payment is never asked of PayU).
    async fn ask(&self, batch: &[payment::Model]) -> Result<serde_json::Value, String> {
        let txnids: Vec<String> = batch.iter().map(|p| p.txnid.clone()).collect();
        let (simulated, paid_through_payu): (Vec<&payment::Model>, Vec<&payment::Model>) =
            batch.iter().partition(|p| p.provider == "simulator");
        match &self.config.gateway {
            Gateway::Simulator if paid_through_payu.is_empty() => {
                Ok(self.simulator.verify(&txnids.join("|")))
            }
            Gateway::Payu {
                credentials,
                verify_url,
                ..
            } if simulated.is_empty() => {
                payu::verify_payments(&self.http, verify_url, credentials, &txnids).await
            }
            // Payments of another mode than the server runs in now: nobody
            // can answer for them, so they expire with the window.
            _ => Ok(serde_json::json!({"status": 1, "transaction_details": {}})),
        }
    }

    /// The last reconciliation run, and how many payments have been pending
    /// for over 15 minutes, for the staff's System tab.
    pub async fn reconciliation_state(
        &self,
        now: DateTime<Utc>,
    ) -> Result<(Reconciliation, u64), BillingError> {
        let last = billing_job::Entity::find_by_id(JOB.to_string())
            .one(&self.db)
            .await?
            .map(|j| Reconciliation {
                ran_at: Some(j.ran_at),
                checked: j.checked,
                settled: j.settled,
                expired: j.expired,
                error: j.error,
            })
            .unwrap_or_default();
        let stuck = payment::Entity::find()
            .filter(payment::Column::Status.eq(PaymentStatus::Pending))
            .filter(payment::Column::CreatedAt.lte(now - Duration::minutes(15)))
            .count(&self.db)
            .await?;
        Ok((last, stuck))
    }
}

async fn record<C: ConnectionTrait>(
    conn: &C,
    run: &Reconciliation,
    now: DateTime<Utc>,
) -> Result<(), BillingError> {
    billing_job::Entity::insert(billing_job::ActiveModel {
        name: Set(JOB.into()),
        ran_at: Set(now),
        checked: Set(run.checked),
        settled: Set(run.settled),
        expired: Set(run.expired),
        error: Set(run.error.clone()),
    })
    .on_conflict(
        sea_orm::sea_query::OnConflict::column(billing_job::Column::Name)
            .update_columns([
                billing_job::Column::RanAt,
                billing_job::Column::Checked,
                billing_job::Column::Settled,
                billing_job::Column::Expired,
                billing_job::Column::Error,
            ])
            .to_owned(),
    )
    .exec_without_returning(conn)
    .await?;
    Ok(())
}
