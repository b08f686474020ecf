//! Customer counts and the latest customers, for staff's figures of the
//! platform and of one owner.

use std::collections::HashMap;

use chrono::{DateTime, Utc};
use sea_orm::sea_query::Expr;
use sea_orm::{ColumnTrait, ConnectionTrait, DbErr, EntityTrait, QueryFilter, QuerySelect};

use crate::entities::customer;

/// How many customers exist on the platform (from the kept counts).
pub async fn count_all<C: ConnectionTrait>(conn: &C) -> Result<u64, DbErr> {
    let total: Option<Option<i64>> = crate::entities::customer_count::Entity::find()
        .select_only()
        .column_as(
            sea_orm::sea_query::Expr::expr(sea_orm::sea_query::Func::cast_as(
                sea_orm::sea_query::Func::sum(Expr::col(
                    crate::entities::customer_count::Column::N,
                )),
                sea_orm::sea_query::Alias::new("BIGINT"),
            )),
            "n",
        )
        .into_tuple()
        .one(conn)
        .await?;
    Ok(u64::try_from(total.flatten().unwrap_or(0)).unwrap_or(0))
}

/// The owner's customers per source campaign (from the kept counts).
pub async fn count_by_campaign<C: ConnectionTrait>(
    conn: &C,
    owner_id: &str,
) -> Result<HashMap<String, u64>, DbErr> {
    let mut out: HashMap<String, u64> = HashMap::new();
    for row in crate::entities::customer_count::Entity::find()
        .filter(crate::entities::customer_count::Column::OwnerId.eq(owner_id))
        .all(conn)
        .await?
    {
        if !row.campaign_id.is_empty() {
            *out.entry(row.campaign_id).or_default() += u64::try_from(row.n).unwrap_or(0);
        }
    }
    Ok(out)
}

/// The owner's customers created since `since`.
pub async fn count_since<C: ConnectionTrait>(
    conn: &C,
    owner_id: &str,
    since: DateTime<Utc>,
) -> Result<u64, DbErr> {
    use sea_orm::PaginatorTrait;
    customer::Entity::find()
        .filter(customer::Column::OwnerId.eq(owner_id))
        .filter(customer::Column::CreatedAt.gte(since))
        .count(conn)
        .await
}

/// The owner's newest customers.
pub async fn recent<C: ConnectionTrait>(
    conn: &C,
    owner_id: &str,
    n: u64,
) -> Result<Vec<customer::Model>, DbErr> {
    use sea_orm::QueryOrder;
    customer::Entity::find()
        .filter(customer::Column::OwnerId.eq(owner_id))
        .order_by_desc(customer::Column::CreatedAt)
        .limit(n)
        .all(conn)
        .await
}
