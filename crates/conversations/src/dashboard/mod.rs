//! The dashboard's view of conversations, for the site owner: lists, one
//! conversation with its messages in pages, analytics, CSV export and delete.
//! Every query filters by the owner in SQL.

pub mod dto;
pub mod export;

use ca_campaigns::entities::campaign;
use ca_core::FieldErrors;
use ca_core::figures::{percent, round};
use ca_core::paging::{Counted, Pagination, whole_number};
use ca_core::search::{self, Trigram, contains, contains_any_case};
use chrono::{DateTime, Duration, Utc};
use sea_orm::sea_query::{Expr, ExprTrait, Func};
use sea_orm::{
    ColumnTrait, Condition, ConnectionTrait, DbBackend, EntityTrait, Order, PaginatorTrait,
    QueryFilter, QueryOrder, QuerySelect, QueryTrait,
};

use crate::entities::{conversation, message};
use crate::error::ConversationError;
use crate::service::ConversationService;
use dto::{
    CampaignRef, ConversationAnalyticsResponse, ConversationCounts, ConversationDetail,
    ConversationListResponse, ConversationMessage, ConversationOut, ListQuery, MessagesQuery,
};

fn summary(c: &conversation::Model, campaign_name: &str) -> ConversationOut {
    ConversationOut {
        id: c.id.clone(),
        conversation_id: c.conversation_id.clone(),
        status: c.status.clone(),
        outcome: c.outcome.clone(),
        created_at: c.created_at,
        updated_at: c.last_activity_at,
        last_message: c.last_message.clone(),
        analytics: ConversationCounts {
            total_messages: c.total_messages,
            visitor_messages: c.visitor_messages,
        },
        collected_data: serde_json::from_str(&c.collected_data).unwrap_or_default(),
        user_context: serde_json::from_str(&c.user_context).unwrap_or_default(),
        campaign: CampaignRef {
            id: c.campaign_id.clone(),
            name: campaign_name.to_string(),
        },
    }
}

async fn names<C: ConnectionTrait>(
    conn: &C,
    owner_id: &str,
) -> Result<std::collections::HashMap<String, String>, ConversationError> {
    Ok(campaign::Entity::find()
        .filter(campaign::Column::OwnerId.eq(owner_id))
        .all(conn)
        .await?
        .into_iter()
        .map(|c| (c.id, c.name))
        .collect())
}

/// Checks a campaign id belongs to the owner.
async fn owned_campaign<C: ConnectionTrait>(
    conn: &C,
    owner_id: &str,
    campaign_id: &str,
) -> Result<(), ConversationError> {
    campaign::Entity::find()
        .filter(campaign::Column::Id.eq(campaign_id.trim()))
        .filter(campaign::Column::OwnerId.eq(owner_id))
        .one(conn)
        .await?
        .map(|_| ())
        .ok_or(ConversationError::CampaignNotFound)
}

async fn find<C: ConnectionTrait>(
    conn: &C,
    owner_id: &str,
    id: &str,
) -> Result<conversation::Model, ConversationError> {
    let id = id.trim();
    conversation::Entity::find()
        .filter(conversation::Column::OwnerId.eq(owner_id))
        .filter(
            Condition::any()
                .add(conversation::Column::Id.eq(id))
                .add(conversation::Column::ConversationId.eq(id)),
        )
        .one(conn)
        .await?
        .ok_or(ConversationError::NotFound)
}

/// `1d`, `7d` (default), `30d`, `90d` or `365d` as a duration.
pub fn period(raw: Option<&str>) -> Result<(String, Duration), ConversationError> {
    ca_core::period::parse(raw, ca_core::period::PERIODS, "7d").map_err(ConversationError::invalid)
}

/// The text the search looks in on PostgreSQL: the expression its trigram
/// index is built on (migration `m20261124_000022`), so it must stay the same.
const PG_SEARCH_TEXT: &str = "lower(last_message || E'\\n' || collected_text)";

/// The conversations' trigram search (PostgreSQL and SQLite indexes).
const TRIGRAM: Trigram = Trigram {
    table: "conversations",
    pg_text: PG_SEARCH_TEXT,
    fts_index: "conversations_search",
    fts_keys: "conversation_search_keys",
    fts_key: "conversation_id",
    fts_pending: true,
};

/// The owner's conversations whose last message or collected values hold
/// `term`, tested on each row's columns (whatever the case, non-ASCII
/// letters too; collected values are stored lower-cased).
fn like_condition(backend: DbBackend, owner_id: &str, term: &str) -> Condition {
    Condition::all()
        .add(conversation::Column::OwnerId.eq(owner_id))
        .add(
            Condition::any()
                .add(contains_any_case(
                    backend,
                    Expr::col(conversation::Column::LastMessage),
                    term,
                ))
                .add(Expr::col(conversation::Column::CollectedText).like(contains(term))),
        )
}

impl ConversationService {
    /// One page of the owner's conversations (of one campaign when given), newest first.
    pub async fn list(
        &self,
        owner_id: &str,
        campaign_id: Option<&str>,
        q: &ListQuery,
    ) -> Result<ConversationListResponse, ConversationError> {
        let mut errors = FieldErrors::new();
        let page = whole_number(q.page.as_deref(), "page", 1, 1, 1_000_000, &mut errors);
        let limit = whole_number(q.limit.as_deref(), "limit", 10, 1, 100, &mut errors);
        let status = search::chosen(q.status.as_deref());
        if status.is_some_and(|s| !["active", "completed"].contains(&s)) {
            errors.insert(
                "status".into(),
                vec!["Status must be active or completed".into()],
            );
        }
        let outcome = search::chosen(q.outcome.as_deref());
        if outcome.is_some_and(|s| !["conversion", "dismissal", "none"].contains(&s)) {
            errors.insert(
                "outcome".into(),
                vec!["Outcome must be conversion, dismissal or none".into()],
            );
        }
        let search = search::term(q.search.as_deref(), &mut errors);
        if !errors.is_empty() {
            return Err(ConversationError::invalid(errors));
        }
        if let Some(c) = campaign_id {
            owned_campaign(&self.db, owner_id, c).await?;
        }
        let backend = self.db.get_database_backend();
        let filtered = |condition: Condition| {
            let mut query = conversation::Entity::find().filter(condition);
            if let Some(c) = campaign_id {
                query = query.filter(conversation::Column::CampaignId.eq(c.trim()));
            }
            if let Some(s) = status {
                query = query.filter(conversation::Column::Status.eq(s));
            }
            if let Some(o) = outcome {
                query = query.filter(conversation::Column::Outcome.eq(o));
            }
            query
        };
        let query = filtered(match &search {
            Some(term) => TRIGRAM.matches(
                backend,
                owner_id,
                term,
                like_condition(backend, owner_id, term),
            ),
            None => Condition::all().add(conversation::Column::OwnerId.eq(owner_id)),
        });
        let counted = match &search {
            // Without other filters the count comes from the index alone.
            Some(term) => {
                let unfiltered = campaign_id.is_none() && status.is_none() && outcome.is_none();
                TRIGRAM
                    .count(
                        &self.db,
                        owner_id,
                        term,
                        unfiltered,
                        query.clone().into_query(),
                    )
                    .await?
            }
            None => Counted::exact(query.clone().count(&self.db).await?),
        };
        let total = counted.total;
        let offset = (page - 1) * limit;
        // On SQLite, when many conversations match, walking the newest first
        // and testing each finds the page after a few rows, instead of
        // sorting every match.
        let query = match &search {
            Some(term)
                if backend == DbBackend::Sqlite
                    && TRIGRAM.indexed(backend, term)
                    && total >= 20 * (offset + limit) =>
            {
                filtered(TRIGRAM.matches_row(
                    backend,
                    owner_id,
                    term,
                    like_condition(backend, owner_id, term),
                ))
            }
            _ => query,
        };
        let rows = query
            .order_by(conversation::Column::CreatedAt, Order::Desc)
            .order_by(conversation::Column::Id, Order::Desc)
            .offset(offset)
            .limit(limit)
            .all(&self.db)
            .await?;
        let names = names(&self.db, owner_id).await?;
        Ok(ConversationListResponse {
            success: true,
            conversations: rows
                .iter()
                .map(|c| summary(c, names.get(&c.campaign_id).map_or("", String::as_str)))
                .collect(),
            pagination: Pagination::counted(page, limit, counted),
        })
    }

    /// One conversation (by `_id` or `conversationId`) with a page of messages.
    pub async fn get(
        &self,
        owner_id: &str,
        id: &str,
        q: &MessagesQuery,
    ) -> Result<ConversationDetail, ConversationError> {
        let mut errors = FieldErrors::new();
        let limit = whole_number(q.limit.as_deref(), "limit", 20, 1, 100, &mut errors);
        let before = match q.before.as_deref().map(str::trim).filter(|b| !b.is_empty()) {
            None => None,
            Some(b) => match b.parse::<i64>() {
                Ok(n) if n > 0 => Some(n),
                _ => {
                    errors.insert("before".into(), vec!["before must be a message id".into()]);
                    None
                }
            },
        };
        if !errors.is_empty() {
            return Err(ConversationError::invalid(errors));
        }
        let c = find(&self.db, owner_id, id).await?;
        let mut query = message::Entity::find().filter(message::Column::ConversationId.eq(&c.id));
        if let Some(b) = before {
            query = query.filter(message::Column::Id.lt(b));
        }
        let mut rows = query
            .order_by_desc(message::Column::Id)
            .limit(limit + 1)
            .all(&self.db)
            .await?;
        let has_more = rows.len() as u64 > limit;
        rows.truncate(usize::try_from(limit).unwrap_or(usize::MAX));
        rows.reverse();
        let name = campaign::Entity::find_by_id(c.campaign_id.clone())
            .one(&self.db)
            .await?
            .map(|m| m.name)
            .unwrap_or_default();
        Ok(ConversationDetail {
            conversation: summary(&c, &name),
            messages: rows
                .into_iter()
                .map(|m| ConversationMessage {
                    id: m.id,
                    role: m.role,
                    content: m.content,
                    created_at: m.created_at,
                    form_id: m.form_id,
                })
                .collect(),
            has_more,
        })
    }

    /// Deletes one of the owner's conversations with its messages.
    pub async fn delete(&self, owner_id: &str, id: &str) -> Result<(), ConversationError> {
        let c = find(&self.db, owner_id, id).await?;
        message::Entity::delete_many()
            .filter(message::Column::ConversationId.eq(&c.id))
            .exec(&self.db)
            .await?;
        conversation::Entity::delete_by_id(c.id)
            .exec(&self.db)
            .await?;
        Ok(())
    }

    /// Conversation figures over the period ending `now`.
    pub async fn analytics(
        &self,
        owner_id: &str,
        campaign_id: Option<&str>,
        name: String,
        length: Duration,
        now: DateTime<Utc>,
    ) -> Result<ConversationAnalyticsResponse, ConversationError> {
        if let Some(c) = campaign_id {
            owned_campaign(&self.db, owner_id, c).await?;
        }
        let base = || {
            let mut q = conversation::Entity::find()
                .filter(conversation::Column::OwnerId.eq(owner_id))
                .filter(conversation::Column::CreatedAt.gte(now - length));
            if let Some(c) = campaign_id {
                q = q.filter(conversation::Column::CampaignId.eq(c.trim()));
            }
            q
        };
        let total = base().count(&self.db).await?;
        let active = base()
            .filter(conversation::Column::Status.eq("active"))
            .count(&self.db)
            .await?;
        let conversions = base()
            .filter(conversation::Column::Outcome.eq("conversion"))
            .count(&self.db)
            .await?;
        let dismissals = base()
            .filter(conversation::Column::Outcome.eq("dismissal"))
            .count(&self.db)
            .await?;
        let messages: Option<Option<i64>> = base()
            .select_only()
            .column_as(
                Expr::expr(Func::cast_as(
                    Func::sum(Expr::col(conversation::Column::TotalMessages)),
                    sea_orm::sea_query::Alias::new("BIGINT"),
                )),
                "m",
            )
            .into_tuple()
            .one(&self.db)
            .await?;
        let messages = messages.flatten().unwrap_or(0);
        Ok(ConversationAnalyticsResponse {
            success: true,
            period: name,
            total_conversations: total,
            active,
            completed: total - active,
            conversions,
            dismissals,
            conversion_rate: percent(conversions as i64, total as i64),
            average_messages: if total == 0 {
                0.0
            } else {
                round(messages as f64 / total as f64, 1)
            },
            assistant: self.reply_stats(owner_id, campaign_id).await?,
        })
    }
}
