//! Warning owners before their popups stop: an email when their visitors
//! this month reach 80 % of their plan's monthly visitors, and another at
//! 100 % (the popup then keeps showing for 10 % more visitors, the grace,
//! and stops until the month starts again). Each warning goes out once a
//! month; the email (and, at 100 %, the `campaign.limit_reached` webhook
//! event) is stored with the record that it was sent, in one transaction.

use chrono::{DateTime, Utc};
use sea_orm::{ConnectionTrait, DatabaseConnection, EntityTrait, Set, Statement};

use ca_auth::Mailer;
use ca_auth::entities::user;
use ca_billing::calendar::next_month_start;
use ca_billing::plans::entitlement;
use ca_billing::usage::visitor_stop;

use crate::CampaignError;
use crate::counters::period_of;
use crate::entities::visitor_quota_notice;

/// The shares of the monthly visitors at which owners are warned, in percent.
pub const LEVELS: [i32; 2] = [80, 100];

/// The fewest visitors any plan or trial allows (trials start at 100):
/// owners under 80 % of that are never near their limit.
const FEWEST_NEAR_LIMIT: i64 = 80;

/// Sends the warnings that are due at `now`; returns how many were sent.
pub async fn notify_due(
    db: &DatabaseConnection,
    mailer: &Mailer,
    public_url: &str,
    now: DateTime<Utc>,
) -> Result<usize, CampaignError> {
    let period = period_of(now);
    let backend = db.get_database_backend();
    let sql = match backend {
        sea_orm::DbBackend::Postgres => {
            "SELECT c.owner_id, c.visitors FROM monthly_visitor_counts c \
             WHERE c.period = $1 AND c.visitors >= $2 AND NOT EXISTS (SELECT 1 FROM \
             visitor_quota_notices n WHERE n.owner_id = c.owner_id AND n.period = c.period \
             AND n.level = 100)"
        }
        _ => {
            "SELECT c.owner_id, c.visitors FROM monthly_visitor_counts c \
             WHERE c.period = ? AND c.visitors >= ? AND NOT EXISTS (SELECT 1 FROM \
             visitor_quota_notices n WHERE n.owner_id = c.owner_id AND n.period = c.period \
             AND n.level = 100)"
        }
    };
    let rows = db
        .query_all_raw(Statement::from_sql_and_values(
            backend,
            sql,
            [period.clone().into(), FEWEST_NEAR_LIMIT.into()],
        ))
        .await?;
    let mut sent = 0;
    for row in rows {
        let owner_id: String = row.try_get("", "owner_id")?;
        let visitors: i64 = row.try_get("", "visitors")?;
        let Some(owner) = user::Entity::find_by_id(owner_id.clone()).one(db).await? else {
            continue;
        };
        let limit = entitlement(db, &owner, now).await?.visitors_per_month;
        let Some(level) = level_reached(visitors, limit) else {
            continue;
        };
        if notify(
            db, mailer, public_url, &owner, &period, level, visitors, limit, now,
        )
        .await?
        {
            sent += 1;
        }
    }
    Ok(sent)
}

/// The highest warning level `visitors` reached of `limit` (unlimited: none).
pub fn level_reached(visitors: i64, limit: i64) -> Option<i32> {
    if limit <= 0 {
        return None;
    }
    LEVELS
        .iter()
        .rev()
        .copied()
        .find(|level| visitors * 100 >= limit * i64::from(*level))
}

/// Records and sends the warning at `level`, unless it was sent this month.
#[allow(clippy::too_many_arguments)]
async fn notify(
    db: &DatabaseConnection,
    mailer: &Mailer,
    public_url: &str,
    owner: &user::Model,
    period: &str,
    level: i32,
    visitors: i64,
    limit: i64,
    now: DateTime<Utc>,
) -> Result<bool, CampaignError> {
    let txn = ca_core::db::begin_write(db).await?;
    let record = visitor_quota_notice::ActiveModel {
        owner_id: Set(owner.id.clone()),
        period: Set(period.to_string()),
        level: Set(level),
        visitors: Set(visitors),
        visitor_limit: Set(limit),
        sent_at: Set(now),
    };
    let inserted = visitor_quota_notice::Entity::insert(record)
        .on_conflict_do_nothing()
        .exec_without_returning(&txn)
        .await?;
    if !matches!(inserted, sea_orm::TryInsertResult::Inserted(n) if n > 0) {
        txn.rollback().await?;
        return Ok(false);
    }
    // Reaching 100 % first (a burst) also counts as the 80 % warning.
    if level == 100 {
        visitor_quota_notice::Entity::insert(visitor_quota_notice::ActiveModel {
            owner_id: Set(owner.id.clone()),
            period: Set(period.to_string()),
            level: Set(80),
            visitors: Set(visitors),
            visitor_limit: Set(limit),
            sent_at: Set(now),
        })
        .on_conflict_do_nothing()
        .exec_without_returning(&txn)
        .await?;
    }
    if level >= 100 {
        // The owner's webhooks hear of it too, in this same transaction.
        ca_webhooks::enqueue(
            &txn,
            &owner.id,
            ca_webhooks::Event::CampaignLimitReached(ca_webhooks::events::CampaignLimitReached {
                visitors,
                limit,
                stop_at: visitor_stop(limit),
                reset_date: next_month_start(now),
            }),
            now,
        )
        .await?;
    }
    let (subject, body) = message(owner, level, visitors, limit, public_url, now);
    mailer
        .send(&txn, &owner.email, &subject, &body)
        .await
        .map_err(|e| CampaignError::Infra(ca_core::error::InfraError::Other(e.to_string())))?;
    txn.commit().await?;
    tracing::info!(owner = %owner.id, level, visitors, limit, "monthly visitor warning sent");
    Ok(true)
}

fn message(
    owner: &user::Model,
    level: i32,
    visitors: i64,
    limit: i64,
    public_url: &str,
    now: DateTime<Utc>,
) -> (String, String) {
    let reset = next_month_start(now).format("%-d %B %Y");
    let stop = visitor_stop(limit);
    let upgrade = format!("{}/billing", public_url.trim_end_matches('/'));
    if level >= 100 {
        (
            format!("You have reached your {limit} monthly visitors"),
            format!(
                "Hi {name},\n\nYour campaigns have had {visitors} visitors this month, your plan's \
                 limit of {limit}. Your popup keeps showing for a few more visitors, up to {stop}, \
                 and then pauses until {reset}.\n\nTo keep it running, choose a larger plan:\n\n\
                 {upgrade}\n\n— ConvertAssist",
                name = owner.name
            ),
        )
    } else {
        (
            format!("You have used {level}% of your monthly visitors"),
            format!(
                "Hi {name},\n\nYour campaigns have had {visitors} of your plan's {limit} visitors \
                 this month. Past {limit} your popup keeps showing up to {stop} visitors and then \
                 pauses until {reset}.\n\nIf you expect more visitors, you can choose a larger \
                 plan:\n\n{upgrade}\n\n— ConvertAssist",
                name = owner.name
            ),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::level_reached;

    #[test]
    fn warnings_at_eighty_and_a_hundred_percent() {
        assert_eq!(level_reached(799, 1000), None);
        assert_eq!(level_reached(800, 1000), Some(80));
        assert_eq!(level_reached(999, 1000), Some(80));
        assert_eq!(level_reached(1000, 1000), Some(100));
        assert_eq!(level_reached(5000, 1000), Some(100));
        assert_eq!(level_reached(5000, -1), None);
    }
}
