//! What the owner's webhooks hear about conversations:
//! `conversation.completed` with the outcome and the transcript, reported in
//! the transaction that completes the conversation.

use chrono::{DateTime, Utc};
use sea_orm::{ColumnTrait, ConnectionTrait, DbErr, EntityTrait, QueryFilter, QueryOrder};

use ca_campaigns::entities::campaign;
use ca_webhooks::events::{CampaignRef, ConversationCompleted, Event, EventType, TranscriptLine};

use crate::entities::{conversation, message};

/// Whether `owner_id` wants to hear of completed conversations.
pub async fn wanted<C: ConnectionTrait>(conn: &C, owner_id: &str) -> Result<bool, DbErr> {
    Ok(!ca_webhooks::events::owners_wanting(
        conn,
        EventType::ConversationCompleted,
        vec![owner_id.to_string()],
    )
    .await?
    .is_empty())
}

/// Reports `conversation.completed` for `conv` (as completed at
/// `completed_at`), in the caller's transaction.
pub async fn completed<C: ConnectionTrait>(
    conn: &C,
    conv: &conversation::Model,
    outcome: &str,
    completed_at: DateTime<Utc>,
) -> Result<(), DbErr> {
    let transcript = message::Entity::find()
        .filter(message::Column::ConversationId.eq(&conv.id))
        .order_by_asc(message::Column::Id)
        .all(conn)
        .await?
        .into_iter()
        .map(|m| TranscriptLine {
            role: m.role,
            text: m.content,
            at: m.created_at,
        })
        .collect();
    let name = campaign::Entity::find_by_id(conv.campaign_id.clone())
        .one(conn)
        .await?
        .map(|c| c.name)
        .unwrap_or_default();
    ca_webhooks::enqueue(
        conn,
        &conv.owner_id,
        Event::ConversationCompleted(ConversationCompleted {
            conversation_id: conv.conversation_id.clone(),
            campaign: CampaignRef {
                id: conv.campaign_id.clone(),
                name,
            },
            outcome: outcome.to_string(),
            collected_data: serde_json::from_str(&conv.collected_data).unwrap_or_default(),
            transcript,
            started_at: conv.created_at,
            completed_at,
        }),
        completed_at,
    )
    .await?;
    Ok(())
}
