//! The decision worker: once a running test's call is due (a winner after at
//! least 7 days and enough visitors, or inconclusive after the owner's
//! maximum duration), it records the call and, in the same transaction,
//! emails the owner, queues a browser notice and, when the owner chose
//! auto-promote, promotes the winner (a control win or an inconclusive test
//! is closed with the campaign left as it is). Several servers may run it at
//! once: a call is recorded only by the round whose conditional update
//! changed the test, so the owner is told once. Tests whose campaign was
//! deleted are closed first, untold.

use chrono::{DateTime, Duration, Utc};
use sea_orm::sea_query::Expr;
use sea_orm::{ColumnTrait, DatabaseConnection, EntityTrait, QueryFilter};

use ca_auth::Mailer;
use ca_auth::entities::user;
use ca_campaigns::entities::campaign;

use crate::ExperimentError;
use crate::entities::{test, variant};
use crate::service::{
    CLOSED, RUNNING, Totals, call_of, close_in, promote_in, totals_of, variants_of,
};
use crate::stats::Arm;

/// No call is made before this many days, so no test younger is looked at.
const MIN_DAYS: i64 = 7;

/// Records the calls due at `now` and tells their owners; returns how many
/// calls this round recorded. A test that fails is logged and left for the
/// next round.
pub async fn decide_due(
    db: &DatabaseConnection,
    mailer: &Mailer,
    public_url: &str,
    now: DateTime<Utc>,
) -> Result<usize, ExperimentError> {
    close_orphans(db, now).await?;
    let open = test::Entity::find()
        .filter(test::Column::Status.eq(RUNNING))
        .filter(test::Column::DecidedAt.is_null())
        .filter(test::Column::StartedAt.lte(now - Duration::days(MIN_DAYS)))
        .all(db)
        .await?;
    let mut recorded = 0;
    for t in open {
        let id = t.id.clone();
        match decide_one(db, mailer, public_url, t, now).await {
            Ok(true) => recorded += 1,
            Ok(false) => {}
            Err(err) => tracing::warn!(test = %id, %err, "recording an A/B test's call failed"),
        }
    }
    Ok(recorded)
}

/// The reason a test of a deleted campaign was closed with.
pub const CAMPAIGN_DELETED: &str = "Closed because its campaign was deleted";

/// Closes the open tests (running or paused) whose campaign was deleted:
/// they end with it, without a call and without telling the owner about a
/// campaign that is gone. Returns how many.
pub async fn close_orphans(
    db: &DatabaseConnection,
    now: DateTime<Utc>,
) -> Result<u64, ExperimentError> {
    use sea_orm::sea_query::Query;
    let closed = test::Entity::update_many()
        .col_expr(test::Column::Status, Expr::value(CLOSED))
        .col_expr(test::Column::ClosedAt, Expr::value(Some(now)))
        .col_expr(test::Column::DecisionReason, Expr::value(CAMPAIGN_DELETED))
        .col_expr(test::Column::UpdatedAt, Expr::value(now))
        .filter(test::Column::Status.ne(CLOSED))
        .filter(
            test::Column::CampaignId.not_in_subquery(
                Query::select()
                    .column(campaign::Column::Id)
                    .from(campaign::Entity)
                    .to_owned(),
            ),
        )
        .exec(db)
        .await?
        .rows_affected;
    if closed > 0 {
        tracing::info!(closed, "A/B tests of deleted campaigns closed");
    }
    Ok(closed)
}

/// What happened to the campaign when the call was recorded.
enum Outcome {
    /// The test runs on; the owner decides.
    Kept,
    /// The winning variant was written into the campaign; the test closed.
    Promoted,
    /// The test closed, the campaign as it was (control win, inconclusive).
    Closed,
    /// Auto-promote was on but the variant no longer fits the campaign.
    NotPromoted(String),
}

async fn decide_one(
    db: &DatabaseConnection,
    mailer: &Mailer,
    public_url: &str,
    t: test::Model,
    now: DateTime<Utc>,
) -> Result<bool, ExperimentError> {
    let variants = variants_of(db, &t.id).await?;
    let (_, totals) = totals_of(db, &t.id, &variants).await?;
    let arms: Vec<Arm> = totals.iter().map(Totals::arm).collect();
    let call = call_of(&t, &variants, &arms, now);
    let Some((winner, reason)) = call.due else {
        return Ok(false);
    };
    let Some(owner) = user::Entity::find_by_id(t.owner_id.clone()).one(db).await? else {
        return Ok(false);
    };
    let campaign_name = campaign::Entity::find_by_id(t.campaign_id.clone())
        .one(db)
        .await?
        .map(|c| c.name)
        .unwrap_or_default();
    let winner_variant = winner.map(|i| &variants[i]);

    let txn = ca_core::db::begin_background_write(db).await?;
    let won = test::Entity::update_many()
        .col_expr(
            test::Column::Winner,
            Expr::value(winner_variant.map(|v| v.id.clone())),
        )
        .col_expr(test::Column::DecidedAt, Expr::value(Some(now)))
        .col_expr(test::Column::DecisionReason, Expr::value(reason.clone()))
        .col_expr(test::Column::NotifiedAt, Expr::value(Some(now)))
        .col_expr(test::Column::UpdatedAt, Expr::value(now))
        .filter(test::Column::Id.eq(&t.id))
        .filter(test::Column::Status.eq(RUNNING))
        .filter(test::Column::DecidedAt.is_null())
        .exec(&txn)
        .await?
        .rows_affected
        == 1;
    if !won {
        // Another server recorded it first, or the owner closed the test.
        txn.rollback().await?;
        return Ok(false);
    }
    let outcome = if !t.auto_promote {
        Outcome::Kept
    } else {
        match winner.map(|i| (i, &variants[i])) {
            Some((i, v)) if i > 0 => {
                let promoted = format!("{reason}. Promoted automatically into the campaign");
                match promote_in(&txn, &t, v, promoted, now).await {
                    Ok(()) => Outcome::Promoted,
                    Err(ExperimentError::Validation { message, .. }) => {
                        Outcome::NotPromoted(message)
                    }
                    Err(err) => {
                        txn.rollback().await?;
                        return Err(err);
                    }
                }
            }
            _ => {
                let closed = format!("{reason}. Closed automatically; the campaign is unchanged");
                close_in(
                    &txn,
                    &t.id,
                    winner_variant.map(|v| v.id.as_str()),
                    &closed,
                    now,
                )
                .await?;
                Outcome::Closed
            }
        }
    };
    let link = format!(
        "{}/campaigns/{}/edit?tab=tests",
        public_url.trim_end_matches('/'),
        t.campaign_id
    );
    let (subject, body) = message(
        &owner.name,
        &t,
        &campaign_name,
        winner.map(|i| (i, &variants[i])),
        call.elapsed,
        &outcome,
        &link,
    );
    ca_push::enqueue(
        &txn,
        &owner.id,
        ca_push::Notice::TestDecided {
            campaign_id: t.campaign_id.clone(),
            test_id: t.id.clone(),
            test_name: t.name.clone(),
            winner: winner_variant.map(|v| v.name.clone()),
            promoted: matches!(outcome, Outcome::Promoted),
        },
        now,
    )
    .await?;
    // The owner's email is stored in the outbox with the decision.
    if let Err(err) = mailer.send(&txn, &owner.email, &subject, &body).await {
        txn.rollback().await?;
        return Err(ExperimentError::Infra(ca_core::error::InfraError::Other(
            err.to_string(),
        )));
    }
    txn.commit().await?;
    if matches!(outcome, Outcome::Promoted | Outcome::Closed) {
        ca_core::freshness::changed();
    }
    tracing::info!(
        test = %t.id,
        winner = ?winner_variant.map(|v| &v.id),
        closed = matches!(outcome, Outcome::Promoted | Outcome::Closed),
        "A/B test called; owner told"
    );
    Ok(true)
}

/// The owner's email: which variant won (or that the test is
/// inconclusive), what was done with it, and the link to the Tests tab.
fn message(
    name: &str,
    t: &test::Model,
    campaign: &str,
    winner: Option<(usize, &variant::Model)>,
    elapsed: f64,
    outcome: &Outcome,
    link: &str,
) -> (String, String) {
    let days = elapsed.floor() as i64;
    let test = &t.name;
    let better = if t.metric == "revenuePerVisitor" {
        "earns more per visitor than"
    } else {
        "turns more visitors into leads than"
    };
    let (subject, what) = match winner {
        Some((i, v)) if i > 0 => (
            format!("Your A/B test \"{test}\" has a winner: \"{}\"", v.name),
            format!(
                "After {days} days, \"{}\" {better} the control beyond doubt.",
                v.name
            ),
        ),
        Some(_) => (
            format!("Your A/B test \"{test}\": the control wins"),
            format!(
                "After {days} days, every variant is behind the control beyond doubt: your \
                 campaign as it is does best."
            ),
        ),
        None => (
            format!("Your A/B test \"{test}\" is inconclusive"),
            format!(
                "After the maximum duration of {} days, no variant differs from the control \
                 beyond doubt.",
                t.max_days
            ),
        ),
    };
    let next = match (outcome, winner) {
        (Outcome::Promoted, _) => {
            "As you asked, it was promoted automatically: it is now your campaign's settings, \
             and the test is closed. See the results:"
                .to_string()
        }
        (Outcome::Closed, _) => {
            "As you chose to promote automatically, the test is closed and your campaign is \
             unchanged. See the results:"
                .to_string()
        }
        (Outcome::NotPromoted(why), _) => format!(
            "It could not be promoted automatically ({why}); the test keeps running. Review it \
             on the campaign's Tests tab:"
        ),
        (Outcome::Kept, Some((i, _))) if i > 0 => {
            "Promote it into your campaign with one click on the campaign's Tests tab:".to_string()
        }
        (Outcome::Kept, _) => {
            "The test keeps running until you close it: promote the control (or any variant) \
             on the campaign's Tests tab:"
                .to_string()
        }
    };
    let body = format!(
        "Hi {name},\n\n{what}\n\nTest: \"{test}\" of your campaign \"{campaign}\".\n\n{next}\n\n\
         {link}\n\n— ConvertAssist"
    );
    (subject, body)
}
