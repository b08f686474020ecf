//! The owner's subscription: what it is, cancelling at the period's end, and
//! the downgrade when a paid period ends without a new payment.

use chrono::{DateTime, Utc};
use sea_orm::sea_query::Expr;
use sea_orm::{ColumnTrait, ConnectionTrait, EntityTrait, QueryFilter};

use ca_auth::dto::SubscriptionStatus;
use ca_auth::dto::effective_status;
use ca_auth::entities::user;

use crate::BillingError;
use crate::dto::SubscriptionOut;
use crate::entities::{plan, subscription};
use crate::plans::FREE_PLAN;
use crate::service::BillingService;

impl BillingService {
    /// The owner's subscription as of `now`.
    pub async fn subscription(
        &self,
        owner: &user::Model,
        now: DateTime<Utc>,
    ) -> Result<SubscriptionOut, BillingError> {
        let (status, _, remaining) = effective_status(owner, now);
        let on_plan = ca_auth::dto::on_plan(owner, now);
        let record = subscription::Entity::find_by_id(owner.id.clone())
            .one(&self.db)
            .await?
            .filter(|s| s.status == "active" && status == SubscriptionStatus::Active);
        let plan_id = if on_plan
            || matches!(
                status,
                SubscriptionStatus::Trial | SubscriptionStatus::PastDue
            ) {
            owner.plan_id.clone()
        } else {
            FREE_PLAN.to_string()
        };
        let plan = plan::Entity::find_by_id(plan_id.clone())
            .one(&self.db)
            .await?;
        Ok(SubscriptionOut {
            plan_name: plan
                .as_ref()
                .map_or_else(|| plan_id.clone(), |p| p.display_name.clone()),
            price: plan.as_ref().map_or(0, |p| p.price),
            currency: plan
                .as_ref()
                .map_or_else(|| "INR".to_string(), |p| p.currency.clone()),
            interval: plan
                .as_ref()
                .map_or_else(|| "monthly".to_string(), |p| p.interval.clone()),
            plan_id,
            cycle: record.as_ref().map(|r| r.cycle.clone()),
            subscription_ends_at: if on_plan {
                owner.subscription_ends_at
            } else {
                None
            },
            trial_ends_at: owner.trial_ends_at,
            trial_remaining_days: remaining,
            cancel_at_period_end: record.as_ref().is_some_and(|r| r.cancel_at_period_end)
                || (status == SubscriptionStatus::Cancelled && on_plan),
            cancelled_at: record.as_ref().and_then(|r| r.cancelled_at),
            // On a plan with no payment behind it: nothing is billed, so
            // there is no next billing date and nothing to cancel.
            set_by_staff: on_plan && record.is_none(),
            invited_plans: crate::plans::invited_plans(&self.db, &owner.email).await?,
            status,
        })
    }

    /// Cancels the owner's paid subscription at the end of the period paid
    /// for: the plan stays until then, and no charge follows.
    pub async fn cancel(
        &self,
        owner: &user::Model,
        now: DateTime<Utc>,
    ) -> Result<SubscriptionOut, BillingError> {
        let (status, _, _) = effective_status(owner, now);
        if status == SubscriptionStatus::Cancelled && ca_auth::dto::on_plan(owner, now) {
            return Err(BillingError::AlreadyCancelled);
        }
        if status != SubscriptionStatus::Active {
            return Err(BillingError::NothingToCancel);
        }
        let txn = ca_core::db::begin_write(&self.db).await?;
        let changed = subscription::Entity::update_many()
            .col_expr(subscription::Column::CancelAtPeriodEnd, Expr::value(true))
            .col_expr(subscription::Column::CancelledAt, Expr::value(Some(now)))
            .col_expr(subscription::Column::UpdatedAt, Expr::value(now))
            .filter(subscription::Column::OwnerId.eq(&owner.id))
            .filter(subscription::Column::Status.eq("active"))
            .filter(subscription::Column::CancelAtPeriodEnd.eq(false))
            .exec(&*txn)
            .await?
            .rows_affected;
        txn.commit().await?;
        if changed == 0 {
            let record = subscription::Entity::find_by_id(owner.id.clone())
                .one(&self.db)
                .await?;
            match record {
                Some(r) if r.cancel_at_period_end => return Err(BillingError::AlreadyCancelled),
                Some(_) => {}
                // A plan given without a payment (staff, demo data) has no
                // billing record: nothing renews, so nothing to cancel.
                None => return Err(BillingError::NothingToCancel),
            }
        }
        tracing::info!(owner = %owner.id, "subscription cancelled at period end");
        self.subscription(owner, now).await
    }

    /// Takes back the owner's cancellation while the paid period lasts: the
    /// plan goes on as before and nothing is charged now. Only the owner's own
    /// cancellation can be taken back (a plan our team ended is not), and
    /// only before the period's end.
    pub async fn resume(
        &self,
        owner: &user::Model,
        now: DateTime<Utc>,
    ) -> Result<SubscriptionOut, BillingError> {
        let (status, _, _) = effective_status(owner, now);
        if status != SubscriptionStatus::Active {
            return Err(BillingError::NothingToResume);
        }
        let txn = ca_core::db::begin_write(&self.db).await?;
        let changed = subscription::Entity::update_many()
            .col_expr(subscription::Column::CancelAtPeriodEnd, Expr::value(false))
            .col_expr(
                subscription::Column::CancelledAt,
                Expr::value(Option::<DateTime<Utc>>::None),
            )
            .col_expr(subscription::Column::UpdatedAt, Expr::value(now))
            .filter(subscription::Column::OwnerId.eq(&owner.id))
            .filter(subscription::Column::Status.eq("active"))
            .filter(subscription::Column::CancelAtPeriodEnd.eq(true))
            .filter(subscription::Column::CurrentPeriodEnd.gt(now))
            .exec(&*txn)
            .await?
            .rows_affected;
        txn.commit().await?;
        if changed == 0 {
            return Err(BillingError::NothingToResume);
        }
        tracing::info!(owner = %owner.id, "cancellation taken back; subscription resumed");
        self.subscription(owner, now).await
    }
}

/// Owners whose paid period ended at `now` without a new payment go back to
/// the free plan; returns their ids (the caller applies the free plan's
/// limits to what they have). Takes the caller's transaction.
pub async fn expire_due<C: ConnectionTrait>(
    conn: &C,
    now: DateTime<Utc>,
) -> Result<Vec<String>, BillingError> {
    // A plan staff cancelled ends the same way at its end date.
    let due = user::Entity::find()
        .filter(user::Column::SubscriptionStatus.is_in(["active", "cancelled"]))
        .filter(user::Column::SubscriptionEndsAt.lte(now))
        .all(conn)
        .await?;
    let mut expired = Vec::with_capacity(due.len());
    for u in due {
        ca_auth::subscription::set_subscription(conn, &u.id, FREE_PLAN, "free", None).await?;
        subscription::Entity::update_many()
            .col_expr(subscription::Column::Status, Expr::value("expired"))
            .col_expr(subscription::Column::UpdatedAt, Expr::value(now))
            .filter(subscription::Column::OwnerId.eq(&u.id))
            .exec(conn)
            .await?;
        tracing::info!(owner = %u.id, plan = %u.plan_id, "paid period ended; back to the free plan");
        expired.push(u.id);
    }
    Ok(expired)
}
