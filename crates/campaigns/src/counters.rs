//! The campaign's analytics counters and the owner's monthly visitors, as the
//! visitor side reports them. These functions take the caller's connection or
//! transaction, so a lead or a purchase and the counters it moves are stored
//! together.

use std::collections::HashSet;

use chrono::{DateTime, Utc};
use sea_orm::sea_query::{Expr, ExprTrait, OnConflict};
use sea_orm::{ColumnTrait, ConnectionTrait, DbErr, EntityTrait, QueryFilter, Set};

use crate::entities::{campaign, monthly_visitor};
use crate::service::period_of;

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

/// One more conversion (a conversation's first lead).
pub async fn add_conversion<C: ConnectionTrait>(conn: &C, campaign_id: &str) -> Result<(), DbErr> {
    add(conn, campaign_id, campaign::Column::Conversions, 1).await
}

/// Revenue attributed to the campaign, in paise.
pub async fn add_revenue<C: ConnectionTrait>(
    conn: &C,
    campaign_id: &str,
    paise: i64,
) -> Result<(), DbErr> {
    add(conn, campaign_id, campaign::Column::RevenuePaise, paise).await
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
    visitors: Vec<SeenVisitor>,
) -> Result<(), DbErr> {
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
