//! What an owner uses of their plan: campaigns, and visitors this calendar
//! month, against the limits of their trial, paid plan or the free plan.
//!
//! The counts are kept by the campaigns crate, whose tables billing does not
//! read; it hands them over through a [`crate::meter::UsageMeter`].

use chrono::{DateTime, Utc};
use sea_orm::ConnectionTrait;

use ca_auth::entities::user;

use crate::BillingError;
use crate::calendar::next_month_start;
use crate::dto::{Usage, UsageCount, UsagePlan, UsageVisitors};
use crate::meter::Used;
use crate::plans::entitlement;
use crate::service::BillingService;

/// Visitors past the plan's monthly limit still see the popup, up to this
/// share of the limit more: a site that runs over is warned first, not cut
/// off at once.
pub const GRACE_PERCENT: i64 = 10;

/// Where the popup stops for a monthly visitor `limit`: the limit and its
/// grace (rounded up); `-1` (unlimited) never stops.
pub fn visitor_stop(limit: i64) -> i64 {
    if limit < 0 {
        return -1;
    }
    limit + (limit * GRACE_PERCENT + 99) / 100
}

/// `used` against what `owner` may use at `now`.
pub async fn usage<C: ConnectionTrait>(
    conn: &C,
    owner: &user::Model,
    used: Used,
    now: DateTime<Utc>,
) -> Result<Usage, BillingError> {
    let allowed = entitlement(conn, owner, now).await?;
    Ok(Usage {
        plan: UsagePlan {
            plan_id: allowed.plan_id,
            status: allowed.status,
        },
        campaigns: UsageCount {
            current: i64::try_from(used.campaigns).unwrap_or(i64::MAX),
            limit: i64::from(allowed.campaigns),
        },
        visitors: UsageVisitors {
            current: used.visitors,
            limit: allowed.visitors_per_month,
            stop_at: visitor_stop(allowed.visitors_per_month),
            reset_date: next_month_start(now),
        },
    })
}

impl BillingService {
    /// What the owner uses of their plan at `now` (`GET /api/billing/usage`,
    /// and the usage beside the campaign list).
    pub async fn usage(
        &self,
        owner: &user::Model,
        now: DateTime<Utc>,
    ) -> Result<Usage, BillingError> {
        let used = self.meter.used(&owner.id, now).await?;
        usage(&self.db, owner, used, now).await
    }
}

#[cfg(test)]
mod tests {
    use super::visitor_stop;

    #[test]
    fn the_popup_stops_ten_percent_past_the_limit() {
        assert_eq!(visitor_stop(1000), 1100);
        assert_eq!(visitor_stop(105), 116);
        assert_eq!(visitor_stop(0), 0);
        assert_eq!(visitor_stop(-1), -1);
    }
}
