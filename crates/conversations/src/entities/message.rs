//! `conversation_messages`: the messages of a conversation, oldest first by id.

use sea_orm::entity::prelude::*;

#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "conversation_messages")]
pub struct Model {
    #[sea_orm(primary_key)]
    pub id: i64,
    /// The conversation's stored id.
    pub conversation_id: String,
    /// `user` (the visitor), `assistant` or `system`.
    pub role: String,
    #[sea_orm(column_type = "Text")]
    pub content: String,
    /// The form offered with this assistant message.
    pub form_id: Option<String>,
    /// `builtin` or `provider` for assistant messages.
    pub source: Option<String>,
    /// Time to the first token of this reply.
    pub first_token_ms: Option<i64>,
    /// Time to the whole reply.
    pub total_ms: Option<i64>,
    /// On a visitor message the owner's texts did not answer: the question
    /// in the form its repeats share (see `assistant::owner::question_key`).
    pub unanswered_key: Option<String>,
    pub created_at: DateTimeUtc,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
