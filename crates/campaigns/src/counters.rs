//! The campaign's analytics counters and the owner's monthly visitors, as the
//! visitor side reports them. These functions take the caller's connection or
//! transaction, so a lead or a purchase and the counters it moves are stored
//! together.

use std::collections::HashSet;

use chrono::{DateTime, Utc};
use sea_orm::sea_query::{Expr, ExprTrait, OnConflict};
use sea_orm::{
    ColumnTrait, ConnectionTrait, DatabaseConnection, DbErr, EntityTrait, PaginatorTrait,
    QueryFilter, Set, Statement,
};

use ca_billing::BillingError;
use ca_billing::meter::{UsageMeter, Used};

use crate::entities::{campaign, monthly_visitor};

/// The month key (`YYYY-MM`) monthly visitors are counted under.
pub fn period_of(now: DateTime<Utc>) -> String {
    now.format("%Y-%m").to_string()
}

/// Which of `ids` are campaigns that still exist.
pub async fn existing<C: ConnectionTrait>(
    conn: &C,
    ids: Vec<String>,
) -> Result<HashSet<String>, DbErr> {
    if ids.is_empty() {
        return Ok(HashSet::new());
    }
    Ok(campaign::Entity::find()
        .filter(campaign::Column::Id.is_in(ids))
        .all(conn)
        .await?
        .into_iter()
        .map(|c| c.id)
        .collect())
}

/// Adds `n` to the campaign's column `column`.
async fn add<C: ConnectionTrait>(
    conn: &C,
    campaign_id: &str,
    column: campaign::Column,
    n: i64,
) -> Result<(), DbErr> {
    campaign::Entity::update_many()
        .col_expr(column, Expr::col(column).add(n))
        .filter(campaign::Column::Id.eq(campaign_id))
        .exec(conn)
        .await?;
    Ok(())
}

/// The popup was shown `n` more times.
pub async fn add_impressions<C: ConnectionTrait>(
    conn: &C,
    campaign_id: &str,
    n: i64,
) -> Result<(), DbErr> {
    add(conn, campaign_id, campaign::Column::Impressions, n).await
}

/// The batch as one JSON parameter: PostgreSQL reads it with
/// `json_to_recordset`, so a batch of any size is one statement whose text
/// never changes (prepared once per connection).
fn json_param<T: serde::Serialize>(rows: &T) -> Result<sea_orm::Value, DbErr> {
    serde_json::to_string(rows)
        .map(Into::into)
        .map_err(|e| DbErr::Custom(e.to_string()))
}

/// Each campaign's popup was shown that many more times: one statement on
/// PostgreSQL, campaigns in id order (as one campaign at a time elsewhere).
pub async fn add_impressions_many<C: ConnectionTrait>(
    conn: &C,
    counts: &std::collections::HashMap<String, i64>,
) -> Result<(), DbErr> {
    let mut counts: Vec<(&String, &i64)> = counts.iter().collect();
    counts.sort_unstable();
    if conn.get_database_backend() != sea_orm::DbBackend::Postgres || counts.len() < 2 {
        for (id, n) in counts {
            add_impressions(conn, id, *n).await?;
        }
        return Ok(());
    }
    let rows: Vec<serde_json::Value> = counts
        .iter()
        .map(|(id, n)| serde_json::json!({"id": id, "n": n}))
        .collect();
    conn.execute_raw(Statement::from_sql_and_values(
        sea_orm::DbBackend::Postgres,
        "UPDATE campaigns c SET impressions = c.impressions + x.n \
         FROM json_to_recordset($1::json) AS x(id text, n bigint) WHERE c.id = x.id",
        [json_param(&rows)?],
    ))
    .await?;
    Ok(())
}

/// One more conversion (a conversation's first lead), at `at`.
pub async fn add_conversion<C: ConnectionTrait>(
    conn: &C,
    campaign_id: &str,
    at: DateTime<Utc>,
) -> Result<(), DbErr> {
    campaign::Entity::update_many()
        .col_expr(
            campaign::Column::Conversions,
            Expr::col(campaign::Column::Conversions).add(1),
        )
        .col_expr(campaign::Column::LastConversionAt, Expr::value(Some(at)))
        .filter(campaign::Column::Id.eq(campaign_id))
        .exec(conn)
        .await?;
    Ok(())
}

/// Marks when each campaign first got a counted page view (left as it is
/// once set).
pub async fn record_first_page_views<C: ConnectionTrait>(
    conn: &C,
    first: &std::collections::HashMap<String, DateTime<Utc>>,
) -> Result<(), DbErr> {
    if conn.get_database_backend() == sea_orm::DbBackend::Postgres && first.len() > 1 {
        let mut rows: Vec<serde_json::Value> = first
            .iter()
            .map(|(id, at)| serde_json::json!({"id": id, "at": at}))
            .collect();
        rows.sort_unstable_by(|a, b| a["id"].as_str().cmp(&b["id"].as_str()));
        conn.execute_raw(Statement::from_sql_and_values(
            sea_orm::DbBackend::Postgres,
            "UPDATE campaigns c SET first_page_view_at = x.at \
             FROM json_to_recordset($1::json) AS x(id text, at timestamptz) \
             WHERE c.id = x.id AND c.first_page_view_at IS NULL",
            [json_param(&rows)?],
        ))
        .await?;
        return Ok(());
    }
    for (campaign_id, at) in first {
        campaign::Entity::update_many()
            .col_expr(campaign::Column::FirstPageViewAt, Expr::value(*at))
            .filter(campaign::Column::Id.eq(campaign_id.as_str()))
            .filter(campaign::Column::FirstPageViewAt.is_null())
            .exec(conn)
            .await?;
    }
    Ok(())
}

/// Revenue attributed to the campaign, in paise.
pub async fn add_revenue<C: ConnectionTrait>(
    conn: &C,
    campaign_id: &str,
    paise: i64,
) -> Result<(), DbErr> {
    add(conn, campaign_id, campaign::Column::RevenuePaise, paise).await
}

/// The largest order, in paise, the campaign counts as revenue (its revenue
/// settings); `None` when the campaign no longer exists.
pub async fn max_order_paise<C: ConnectionTrait>(
    conn: &C,
    campaign_id: &str,
) -> Result<Option<i64>, DbErr> {
    let Some(found) = campaign::Entity::find_by_id(campaign_id.to_string())
        .one(conn)
        .await?
    else {
        return Ok(None);
    };
    let settings: crate::settings::CampaignSettings =
        serde_json::from_str(&found.settings).unwrap_or_default();
    Ok(Some(settings.revenue.max_order_value.saturating_mul(100)))
}

/// A visitor seen on an owner's site: (owner, visitor, first seen).
pub struct SeenVisitor {
    pub owner_id: String,
    pub visitor_id: String,
    pub at: DateTime<Utc>,
}

/// Counts each visitor once per owner and month (the plan's visitor limit);
/// a visitor already counted this month is left as is.
pub async fn record_visitors<C: ConnectionTrait>(
    conn: &C,
    mut visitors: Vec<SeenVisitor>,
) -> Result<(), DbErr> {
    if visitors.is_empty() {
        return Ok(());
    }
    if conn.get_database_backend() == sea_orm::DbBackend::Postgres {
        // One statement for the batch, rows in key order so two servers'
        // batches never wait on each other crosswise. The database's trigger
        // moves each owner's monthly count once for the statement.
        visitors.sort_unstable_by(|a, b| {
            (&a.owner_id, &a.visitor_id).cmp(&(&b.owner_id, &b.visitor_id))
        });
        let rows: Vec<serde_json::Value> = visitors
            .iter()
            .map(|v| {
                serde_json::json!({"o": v.owner_id, "p": period_of(v.at), "v": v.visitor_id, "at": v.at})
            })
            .collect();
        conn.execute_raw(Statement::from_sql_and_values(
            sea_orm::DbBackend::Postgres,
            "INSERT INTO monthly_visitors (owner_id, period, visitor_id, first_seen_at) \
             SELECT x.o, x.p, x.v, x.at \
             FROM json_to_recordset($1::json) AS x(o text, p text, v text, at timestamptz) \
             ON CONFLICT (owner_id, period, visitor_id) DO NOTHING",
            [json_param(&rows)?],
        ))
        .await?;
        return Ok(());
    }
    let rows: Vec<monthly_visitor::ActiveModel> = visitors
        .into_iter()
        .map(|v| monthly_visitor::ActiveModel {
            owner_id: Set(v.owner_id),
            period: Set(period_of(v.at)),
            visitor_id: Set(v.visitor_id),
            first_seen_at: Set(v.at),
        })
        .collect();
    for chunk in rows.chunks(1000) {
        monthly_visitor::Entity::insert_many(chunk.to_vec())
            .on_conflict(
                OnConflict::columns([
                    monthly_visitor::Column::OwnerId,
                    monthly_visitor::Column::Period,
                    monthly_visitor::Column::VisitorId,
                ])
                .do_nothing()
                .to_owned(),
            )
            .exec_without_returning(conn)
            .await?;
    }
    Ok(())
}

/// How many campaigns exist on the platform.
pub async fn count_all<C: ConnectionTrait>(conn: &C) -> Result<u64, DbErr> {
    use sea_orm::PaginatorTrait;
    campaign::Entity::find().count(conn).await
}

/// The owner's campaigns, newest first.
pub async fn of_owner<C: ConnectionTrait>(
    conn: &C,
    owner_id: &str,
) -> Result<Vec<campaign::Model>, DbErr> {
    use sea_orm::QueryOrder;
    campaign::Entity::find()
        .filter(campaign::Column::OwnerId.eq(owner_id))
        .order_by_desc(campaign::Column::CreatedAt)
        .all(conn)
        .await
}

/// How many campaigns each of `owner_ids` has.
pub async fn count_by_owner<C: ConnectionTrait>(
    conn: &C,
    owner_ids: &[String],
) -> Result<std::collections::HashMap<String, u64>, DbErr> {
    use sea_orm::QuerySelect;
    if owner_ids.is_empty() {
        return Ok(Default::default());
    }
    let rows: Vec<(String, i64)> = campaign::Entity::find()
        .select_only()
        .column(campaign::Column::OwnerId)
        .column_as(campaign::Column::Id.count(), "n")
        .filter(campaign::Column::OwnerId.is_in(owner_ids.to_vec()))
        .group_by(campaign::Column::OwnerId)
        .into_tuple()
        .all(conn)
        .await?;
    Ok(rows
        .into_iter()
        .map(|(o, n)| (o, u64::try_from(n).unwrap_or(0)))
        .collect())
}

/// How many visitors the owner has in the month of `at` (the plan's visitor
/// limit), from the count the database keeps as visitors are recorded
/// (migration `m20261123_000020`), not by counting them.
pub async fn visitors_in_month<C: ConnectionTrait>(
    conn: &C,
    owner_id: &str,
    at: DateTime<Utc>,
) -> Result<i64, DbErr> {
    let backend = conn.get_database_backend();
    let sql = match backend {
        sea_orm::DbBackend::Postgres => {
            "SELECT visitors FROM monthly_visitor_counts WHERE owner_id = $1 AND period = $2"
        }
        _ => "SELECT visitors FROM monthly_visitor_counts WHERE owner_id = ? AND period = ?",
    };
    let row = conn
        .query_one_raw(sea_orm::Statement::from_sql_and_values(
            backend,
            sql,
            [owner_id.into(), period_of(at).into()],
        ))
        .await?;
    match row {
        Some(row) => row.try_get::<i64>("", "visitors"),
        None => Ok(0),
    }
}

/// How many campaigns `owner_id` has.
pub async fn count_of_owner<C: ConnectionTrait>(conn: &C, owner_id: &str) -> Result<u64, DbErr> {
    campaign::Entity::find()
        .filter(campaign::Column::OwnerId.eq(owner_id))
        .count(conn)
        .await
}

/// What an owner uses of their plan: their campaigns and this month's visitors.
pub async fn used<C: ConnectionTrait>(
    conn: &C,
    owner_id: &str,
    now: DateTime<Utc>,
) -> Result<Used, DbErr> {
    Ok(Used {
        campaigns: count_of_owner(conn, owner_id).await?,
        visitors: visitors_in_month(conn, owner_id, now).await?,
    })
}

/// The usage meter billing reads: the counts kept here.
pub struct Meter(pub DatabaseConnection);

#[async_trait::async_trait]
impl UsageMeter for Meter {
    async fn used(&self, owner_id: &str, now: DateTime<Utc>) -> Result<Used, BillingError> {
        Ok(used(&self.0, owner_id, now).await?)
    }
}
