//! How fast the assistant answers: reply timing over an owner's conversations.

use sea_orm::sea_query::{Alias, Expr, Func, Query};
use sea_orm::{ColumnTrait, EntityTrait, QueryFilter, QuerySelect};

use ca_campaigns::dto::ReplyStats;

use crate::entities::{conversation, message};
use crate::error::ConversationError;
use crate::service::ConversationService;

impl ConversationService {
    /// Average reply timing over the owner's assistant replies, for one campaign
    /// or all of them.
    pub async fn reply_stats(
        &self,
        owner_id: &str,
        campaign_id: Option<&str>,
    ) -> Result<ReplyStats, ConversationError> {
        let mut conversations = Query::select();
        conversations
            .column(conversation::Column::Id)
            .from(conversation::Entity)
            .and_where(conversation::Column::OwnerId.eq(owner_id));
        if let Some(campaign) = campaign_id {
            conversations.and_where(conversation::Column::CampaignId.eq(campaign));
        }
        let row: Option<(i64, Option<f64>, Option<f64>)> = message::Entity::find()
            .select_only()
            .column_as(
                Expr::expr(Func::count(Expr::col(message::Column::Id))),
                "replies",
            )
            .column_as(
                Expr::expr(Func::cast_as(
                    Func::avg(Expr::col(message::Column::FirstTokenMs)),
                    Alias::new("DOUBLE PRECISION"),
                )),
                "avg_first",
            )
            .column_as(
                Expr::expr(Func::cast_as(
                    Func::avg(Expr::col(message::Column::TotalMs)),
                    Alias::new("DOUBLE PRECISION"),
                )),
                "avg_total",
            )
            .filter(message::Column::FirstTokenMs.is_not_null())
            .filter(message::Column::ConversationId.in_subquery(conversations.to_owned()))
            .into_tuple()
            .one(&self.db)
            .await?;
        let (replies, first, total) = row.unwrap_or((0, None, None));
        let round = |v: Option<f64>| (v.unwrap_or(0.0) * 10.0).round() / 10.0;
        Ok(ReplyStats {
            replies,
            avg_first_token_ms: round(first),
            avg_total_ms: round(total),
        })
    }
}

/// How many conversations exist on the platform.
pub async fn count_all<C: sea_orm::ConnectionTrait>(conn: &C) -> Result<u64, sea_orm::DbErr> {
    use sea_orm::PaginatorTrait;
    conversation::Entity::find().count(conn).await
}

/// The owner's conversations per campaign.
pub async fn count_by_campaign<C: sea_orm::ConnectionTrait>(
    conn: &C,
    owner_id: &str,
) -> Result<std::collections::HashMap<String, u64>, sea_orm::DbErr> {
    let rows: Vec<(String, i64)> = conversation::Entity::find()
        .select_only()
        .column(conversation::Column::CampaignId)
        .column_as(conversation::Column::Id.count(), "n")
        .filter(conversation::Column::OwnerId.eq(owner_id))
        .group_by(conversation::Column::CampaignId)
        .into_tuple()
        .all(conn)
        .await?;
    Ok(rows
        .into_iter()
        .map(|(c, n)| (c, u64::try_from(n).unwrap_or(0)))
        .collect())
}

/// The owner's conversations started since `since`.
pub async fn count_since<C: sea_orm::ConnectionTrait>(
    conn: &C,
    owner_id: &str,
    since: chrono::DateTime<chrono::Utc>,
) -> Result<u64, sea_orm::DbErr> {
    use sea_orm::PaginatorTrait;
    conversation::Entity::find()
        .filter(conversation::Column::OwnerId.eq(owner_id))
        .filter(conversation::Column::CreatedAt.gte(since))
        .count(conn)
        .await
}

/// The owner's newest conversations.
pub async fn recent<C: sea_orm::ConnectionTrait>(
    conn: &C,
    owner_id: &str,
    n: u64,
) -> Result<Vec<conversation::Model>, sea_orm::DbErr> {
    use sea_orm::QueryOrder;
    conversation::Entity::find()
        .filter(conversation::Column::OwnerId.eq(owner_id))
        .order_by_desc(conversation::Column::CreatedAt)
        .limit(n)
        .all(conn)
        .await
}
