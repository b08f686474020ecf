//! The owner's tools for the assistant, on a campaign's AI settings: try it
//! as a visitor would (nothing is stored, nothing counts towards the plan),
//! and see the visitors' questions it could not answer, so the owner knows
//! what to add to the knowledge base. Both are scoped to the owner in SQL.

use chrono::{DateTime, Utc};
use sea_orm::sea_query::{Expr, ExprTrait, Query};
use sea_orm::{ColumnTrait, EntityTrait, QueryFilter, QueryOrder, QuerySelect};
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};

use ca_campaigns::entities::campaign;
use ca_campaigns::settings::{BUSINESS_INFO_MAX, CampaignSettings, KNOWLEDGE_BASE_MAX};
use ca_core::FieldErrors;
use ca_core::paging::{Pagination, whole_number};
use ca_core::rate_limit::Limit;

use super::{Brief, Request, Source};
use crate::dto::TimingOut;
use crate::entities::{conversation, message};
use crate::error::ConversationError;
use crate::forms::{self, FormState};
use crate::service::ConversationService;

/// Tries an owner may make a minute (a configured model costs money).
pub const TRIES_PER_MINUTE: u32 = 30;

/// A question to try the assistant with.
#[derive(Debug, Clone, Default, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase", default)]
pub struct TryIn {
    /// The question, as a visitor would type it.
    #[schema(required = true, min_length = 1, pattern = r"\S")]
    pub message: String,
    /// Answer from this knowledge base instead of the saved one (the
    /// editor's unsaved text).
    pub knowledge_base: Option<String>,
    /// Answer with this business information instead of the saved one.
    pub business_info: Option<String>,
}

/// A passage the builtin assistant quoted.
#[derive(Debug, Clone, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct PassageOut {
    /// The sentence, bullet or line, as the owner wrote it.
    pub text: String,
    /// The heading or FAQ question it sits under.
    pub context: Option<String>,
    /// How much of the question it answers, from 0 to 1.
    pub score: f64,
}

/// The form the widget would show with the reply.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct TryFormOut {
    pub id: String,
    pub title: String,
}

/// The reply a visitor would get, and why.
#[derive(Debug, Clone, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct TryOut {
    pub success: bool,
    pub reply: String,
    /// `builtin` (knowledge-base retrieval) or `provider` (the configured model).
    pub source: String,
    /// False when the owner's texts hold no answer: the visitor gets the
    /// honest "not sure" and the offer to leave an email.
    pub answered: bool,
    /// What the builtin assistant quoted, in the reply's order; empty for a
    /// model's reply (it reads the whole knowledge base).
    pub passages: Vec<PassageOut>,
    /// The form the widget would show with this reply, as to a visitor's
    /// first message.
    pub form: Option<TryFormOut>,
    pub timing: TimingOut,
}

/// Query of the unanswered questions.
#[derive(Debug, Clone, Default, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct UnansweredQuery {
    /// From 1 (default 1).
    #[param(schema_with = ca_core::paging::page_schema)]
    pub page: Option<String>,
    /// 1–100 (default 20).
    #[param(schema_with = ca_core::paging::limit_schema)]
    pub limit: Option<String>,
}

/// A question visitors asked that the owner's texts did not answer.
#[derive(Debug, Clone, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct UnansweredQuestion {
    /// The newest wording of the question.
    pub question: String,
    /// How many times it was asked (wordings that differ only in case,
    /// spacing or punctuation count as one).
    pub count: i64,
    pub last_asked_at: DateTime<Utc>,
}

/// One page of unanswered questions, newest first.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct UnansweredResponse {
    pub success: bool,
    pub questions: Vec<UnansweredQuestion>,
    pub pagination: Pagination,
}

fn millis(d: std::time::Duration) -> i64 {
    i64::try_from(d.as_millis()).unwrap_or(i64::MAX)
}

impl ConversationService {
    async fn owned_campaign(
        &self,
        owner_id: &str,
        campaign_id: &str,
    ) -> Result<campaign::Model, ConversationError> {
        campaign::Entity::find()
            .filter(campaign::Column::Id.eq(campaign_id.trim()))
            .filter(campaign::Column::OwnerId.eq(owner_id))
            .one(&self.db)
            .await?
            .ok_or(ConversationError::CampaignNotFound)
    }

    /// Answers `input.message` as the widget would answer a visitor's first
    /// message on this campaign, from the saved texts or the ones given.
    /// Creates no conversation and counts nothing towards the plan.
    pub async fn try_assistant(
        &self,
        owner_id: &str,
        campaign_id: &str,
        input: TryIn,
    ) -> Result<TryOut, ConversationError> {
        let message = input.message.trim();
        let mut errors = FieldErrors::new();
        let max = self.limits().message_max_chars;
        if message.is_empty() {
            errors.insert(
                "message".into(),
                vec!["Type a question to try your assistant".into()],
            );
        } else if message.chars().count() > max {
            errors.insert(
                "message".into(),
                vec![format!("Questions can be at most {max} characters")],
            );
        }
        for (field, label, value, max) in [
            (
                "knowledgeBase",
                "Knowledge base",
                &input.knowledge_base,
                KNOWLEDGE_BASE_MAX,
            ),
            (
                "businessInfo",
                "Business information",
                &input.business_info,
                BUSINESS_INFO_MAX,
            ),
        ] {
            let n = value.as_ref().map_or(0, |v| v.chars().count());
            if n > max {
                errors.insert(
                    field.into(),
                    vec![format!(
                        "{label} must be at most {max} characters (it has {n})"
                    )],
                );
            }
        }
        if !errors.is_empty() {
            return Err(ConversationError::invalid(errors));
        }
        let campaign = self.owned_campaign(owner_id, campaign_id).await?;
        self.limiter
            .hit(
                &format!("assistant-try:{owner_id}"),
                Limit::new(TRIES_PER_MINUTE, 60),
            )
            .await
            .map_err(ConversationError::RateLimited)?;
        let settings: CampaignSettings = serde_json::from_str(&campaign.settings)?;
        let ai = &settings.ai_settings;
        let state = FormState {
            visitor_messages: 1,
            ..FormState::default()
        };
        let offer = forms::next_offer(&settings.forms, &state, message);
        let form_hint = offer.map(|f| {
            format!(
                "Right after your answer the visitor will see the form \"{}\" ({}). You may mention it in one short sentence.",
                f.title, f.subtitle
            )
        });
        let request = Request {
            brief: Brief {
                business_info: input.business_info.as_deref().unwrap_or(&ai.business_info),
                knowledge_base: input
                    .knowledge_base
                    .as_deref()
                    .unwrap_or(&ai.knowledge_base),
                custom_instructions: &ai.custom_instructions,
                form_hint: form_hint.as_deref(),
                form_title: offer.map(|f| f.title.as_str()),
            },
            history: &[],
            message,
        };
        let answer = self.assistant.reply(&request, &mut |_| {}).await;
        let form = offer.or_else(|| {
            answer
                .asks_for_email
                .then(|| forms::lead_offer(&settings.forms, &state))
                .flatten()
        });
        Ok(TryOut {
            success: true,
            reply: answer.text,
            source: match answer.source {
                Source::Provider => "provider",
                Source::Builtin => "builtin",
            }
            .into(),
            answered: !answer.unanswered,
            passages: answer
                .passages
                .into_iter()
                .map(|p| PassageOut {
                    text: p.text,
                    context: p.context,
                    score: p.score,
                })
                .collect(),
            form: form.map(|f| TryFormOut {
                id: f.id.clone(),
                title: f.title.clone(),
            }),
            timing: TimingOut {
                first_token_ms: millis(answer.timing.first_token),
                total_ms: millis(answer.timing.total),
            },
        })
    }

    /// The questions visitors asked on one of the owner's campaigns that the
    /// owner's texts did not answer, grouped by wording, newest first.
    pub async fn unanswered_questions(
        &self,
        owner_id: &str,
        campaign_id: &str,
        q: &UnansweredQuery,
    ) -> Result<UnansweredResponse, ConversationError> {
        let mut errors = FieldErrors::new();
        let page = whole_number(q.page.as_deref(), "page", 1, 1, 1_000_000, &mut errors);
        let limit = whole_number(q.limit.as_deref(), "limit", 20, 1, 100, &mut errors);
        if !errors.is_empty() {
            return Err(ConversationError::invalid(errors));
        }
        let campaign = self.owned_campaign(owner_id, campaign_id).await?;
        let conversations = Query::select()
            .column(conversation::Column::Id)
            .from(conversation::Entity)
            .and_where(conversation::Column::CampaignId.eq(&campaign.id))
            .and_where(conversation::Column::OwnerId.eq(owner_id))
            .to_owned();
        let asked = || {
            message::Entity::find()
                .filter(message::Column::UnansweredKey.is_not_null())
                .filter(message::Column::ConversationId.in_subquery(conversations.clone()))
        };
        let total: Option<i64> = asked()
            .select_only()
            .column_as(
                Expr::col(message::Column::UnansweredKey).count_distinct(),
                "n",
            )
            .into_tuple()
            .one(&self.db)
            .await?;
        let groups: Vec<(String, i64, i64)> = asked()
            .select_only()
            .column(message::Column::UnansweredKey)
            .column_as(Expr::col(message::Column::Id).count(), "asked")
            .column_as(Expr::col(message::Column::Id).max(), "newest")
            .group_by(message::Column::UnansweredKey)
            .order_by_desc(Expr::col(message::Column::Id).max())
            .offset((page - 1) * limit)
            .limit(limit)
            .into_tuple()
            .all(&self.db)
            .await?;
        let newest = message::Entity::find()
            .filter(message::Column::Id.is_in(groups.iter().map(|g| g.2)))
            .all(&self.db)
            .await?;
        let questions = groups
            .iter()
            .filter_map(|(_, count, id)| {
                let m = newest.iter().find(|m| m.id == *id)?;
                Some(UnansweredQuestion {
                    question: m.content.clone(),
                    count: *count,
                    last_asked_at: m.created_at,
                })
            })
            .collect();
        Ok(UnansweredResponse {
            success: true,
            questions,
            pagination: Pagination::new(
                page,
                limit,
                u64::try_from(total.unwrap_or(0)).unwrap_or(0),
            ),
        })
    }
}
