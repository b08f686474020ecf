//! The visitor side of conversations: the public calls the widget makes
//! (start, message, form, dismiss) and the sweep that completes idle ones.

use std::sync::Arc;
use std::time::Duration;

use chrono::{DateTime, Utc};
use sea_orm::sea_query::{Expr, ExprTrait};
use sea_orm::{
    ActiveModelTrait, ColumnTrait, EntityTrait, QueryFilter, QueryOrder, QuerySelect, Set,
};

use ca_auth::entities::user;
use ca_billing::plans::entitlement;
use ca_campaigns::entities::campaign;
use ca_campaigns::settings::{CampaignSettings, ConversionForm};
use ca_core::FieldErrors;
use ca_core::rate_limit::Limit;

use crate::assistant::openai::{ChatMessage, ReplyTiming};
use crate::assistant::questions::question_key;
use crate::assistant::{Answer, Brief, Request, Source};
use crate::dto::{
    CollectedDataOut, EMAIL_CAPTURE_ID, MessageIn, OkOut, PublicForm, ReplyOut, StartIn, StartOut,
    SubmitIn, SubmitOut, TimingOut, UserContext, email_capture_form, lead_form,
};
use crate::entities::{conversation, message};
use crate::error::ConversationError;
use crate::forms::{self, FormState};
use crate::service::ConversationService;
use crate::start_facts::{START_FACTS_KEPT, StartFacts, StartFactsEntry};

pub use crate::start_writer::AI_LIMIT_NOTICE;

/// A visitor message accepted and stored, waiting for the assistant's reply.
pub struct Turn {
    conversation: conversation::Model,
    settings: CampaignSettings,
    history: Vec<ChatMessage>,
    message: String,
    /// The stored visitor message, marked when the assistant cannot answer it.
    question_id: i64,
    state: FormState,
    offer: Option<ConversionForm>,
}

fn check_context(ctx: &UserContext, errors: &mut FieldErrors) -> UserContext {
    let mut out = UserContext::default();
    if let Some(device) = ctx
        .device_type
        .as_deref()
        .map(str::trim)
        .filter(|d| !d.is_empty())
    {
        if ca_campaigns::settings::DEVICES.contains(&device) {
            out.device_type = Some(device.to_string());
        } else {
            errors.insert(
                "userContext.deviceType".into(),
                vec!["Device type must be desktop, mobile or tablet".into()],
            );
        }
    }
    if let Some(url) = ctx
        .current_url
        .as_deref()
        .map(str::trim)
        .filter(|u| !u.is_empty())
    {
        if url.len() <= 1000 && ca_campaigns::service::is_website(url) {
            out.current_url = Some(url.to_string());
        } else {
            errors.insert(
                "userContext.currentUrl".into(),
                vec![
                    "Current URL must be an http or https address of at most 1,000 characters"
                        .into(),
                ],
            );
        }
    }
    out
}

fn parse_settings(model: &campaign::Model) -> Result<CampaignSettings, ConversationError> {
    Ok(serde_json::from_str(&model.settings)?)
}

fn millis(d: Duration) -> i64 {
    i64::try_from(d.as_millis()).unwrap_or(i64::MAX)
}

/// The id the widget uses for a conversation: `conv_`, the time it started
/// (9 base-36 digits of milliseconds, so ids sort in the order they were
/// made under any collation) and 15 random letters and digits (89 bits: the
/// id is what lets a visitor write to the conversation, so it cannot be
/// guessed). New ids land at the end of the id's index instead of on a
/// random page of it, which keeps each chat start's write small.
fn public_id(now: DateTime<Utc>) -> String {
    use rand::Rng;
    const DIGITS: &[u8] = b"0123456789abcdefghijklmnopqrstuvwxyz";
    const ALPHABET: &[u8] = b"0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ";
    let mut at = u64::try_from(now.timestamp_millis()).unwrap_or(0);
    let mut id = [b'0'; 24];
    for slot in id[..9].iter_mut().rev() {
        *slot = DIGITS[(at % 36) as usize];
        at /= 36;
    }
    let mut rng = rand::thread_rng();
    for slot in &mut id[9..] {
        *slot = ALPHABET[rng.gen_range(0..ALPHABET.len())];
    }
    format!("conv_{}", String::from_utf8_lossy(&id))
}

fn preview(text: &str) -> String {
    text.chars().take(500).collect()
}

impl ConversationService {
    async fn throttle_ip(&self, ip: &str) -> Result<(), ConversationError> {
        self.limiter
            .hit_shared(
                &format!("widget:ip:{ip}"),
                Limit::new(self.limits.ip_per_minute, 60),
            )
            .await
            .map_err(ConversationError::RateLimited)
    }

    async fn throttle_campaign(&self, campaign_id: &str) -> Result<(), ConversationError> {
        self.limiter
            .hit_shared(
                &format!("widget:campaign:{campaign_id}"),
                Limit::new(self.limits.campaign_per_minute, 60),
            )
            .await
            .map_err(ConversationError::RateLimited)
    }

    async fn campaign<C: sea_orm::ConnectionTrait>(
        &self,
        conn: &C,
        id: &str,
    ) -> Result<campaign::Model, ConversationError> {
        campaign::Entity::find_by_id(id.trim().to_string())
            .one(conn)
            .await?
            .ok_or(ConversationError::CampaignNotFound)
    }

    /// Starts a conversation and returns the greeting. Past the plan's monthly
    /// AI conversations the conversation still starts, without the assistant:
    /// the answer carries a notice and the lead form.
    pub async fn start(
        &self,
        input: StartIn,
        ip: &str,
        now: DateTime<Utc>,
    ) -> Result<StartOut, ConversationError> {
        self.throttle_ip(ip).await?;
        let mut errors = FieldErrors::new();
        if input.campaign_id.trim().is_empty() {
            errors.insert("campaignId".into(), vec!["Campaign id is required".into()]);
        }
        if !ca_core::validation::client_token(&input.visitor_id) {
            errors.insert(
                "visitorId".into(),
                vec!["Visitor id must be 8 to 64 letters, digits, - or _".into()],
            );
        }
        if let Some(session) = &input.session_id
            && !ca_core::validation::client_token(session)
        {
            errors.insert(
                "sessionId".into(),
                vec!["Session id must be 8 to 64 letters, digits, - or _".into()],
            );
        }
        let context = check_context(&input.user_context, &mut errors);
        if !errors.is_empty() {
            return Err(ConversationError::invalid(errors));
        }
        let facts = self.start_facts(&input.campaign_id, now).await?;
        self.throttle_campaign(&facts.campaign_id).await?;
        if !facts.is_active || facts.widget_paused {
            return Err(ConversationError::CampaignInactive);
        }
        // The visitor's A/B test variant, when it counts: the conversation
        // is counted for it and greets with its greeting.
        let arm = self
            .arms
            .get(&self.db, &facts.campaign_id, input.variant_id.as_deref())
            .await?;
        // The allowance, the conversation, its greeting and the variant's
        // count are written together, in one write transaction with the
        // other starts waiting (see `start_writer`).
        let greeting = arm
            .as_ref()
            .and_then(|a| a.greeting())
            .unwrap_or_else(|| facts.greeting.clone());
        let conversation_id = public_id(now);
        let new = crate::start_writer::NewStart {
            id: ca_core::ids::new_id().to_string(),
            conversation_id: conversation_id.clone(),
            campaign_id: facts.campaign_id.clone(),
            owner_id: facts.owner_id.clone(),
            ai_conversations: facts.ai_conversations,
            visitor_id: input.visitor_id.clone(),
            session_id: input.session_id.clone(),
            user_context: serde_json::to_string(&context)?,
            greeting,
            arm: arm
                .as_ref()
                .map(|a| (a.test_id.clone(), a.variant_id.clone())),
            now,
        };
        let (ai_enabled, greeting) = match &self.starts {
            Some(writer) => {
                let greeting = new.greeting.clone();
                (writer.write(new).await?, greeting)
            }
            None => {
                let ai = crate::start_writer::write(&self.db, std::slice::from_ref(&new)).await?;
                (ai.first().copied().unwrap_or(false), new.greeting)
            }
        };
        tracing::debug!(campaign = %facts.campaign_id, conversation = %conversation_id, ai_enabled, "conversation started");
        let form = match &arm {
            _ if ai_enabled => None,
            // A variant that changes the forms (or the popup's own email
            // field) offers its own lead form.
            Some(arm)
                if arm.overrides.get("forms").is_some() || arm.overrides.get("popup").is_some() =>
            {
                let campaign = self.campaign(&self.db, &facts.campaign_id).await?;
                Some(PublicForm::of(&lead_form(
                    &arm.settings(&parse_settings(&campaign)?),
                )))
            }
            _ => Some(facts.lead_form.clone()),
        };
        Ok(StartOut {
            success: true,
            conversation_id,
            greeting: if ai_enabled { greeting } else { String::new() },
            ai_available: ai_enabled,
            notice: (!ai_enabled).then(|| AI_LIMIT_NOTICE.to_string()),
            form,
        })
    }

    /// What starting a conversation on `campaign_id` needs, from memory when
    /// it is younger than the campaign cache time and nothing changed since.
    async fn start_facts(
        &self,
        campaign_id: &str,
        now: DateTime<Utc>,
    ) -> Result<Arc<StartFacts>, ConversationError> {
        let key = campaign_id.trim();
        let version = ca_core::freshness::version();
        if let Ok(cache) = self.start_facts.lock()
            && let Some(entry) = cache.get(key)
            && entry.version == version
            && entry.at.elapsed() < self.limits.campaign_cache
        {
            return Ok(entry.facts.clone());
        }
        let campaign = self.campaign(&self.db, key).await?;
        let settings = parse_settings(&campaign)?;
        let owner = user::Entity::find_by_id(campaign.owner_id.clone())
            .one(&self.db)
            .await?
            .ok_or(ConversationError::CampaignNotFound)?;
        let allowed = entitlement(&self.db, &owner, now).await?;
        let widget_paused = ca_auth::suspension::widget_paused(&self.db, &owner.id)
            .await
            .map_err(|e| {
                ConversationError::Infra(ca_core::error::InfraError::Other(e.to_string()))
            })?;
        let facts = Arc::new(StartFacts {
            campaign_id: campaign.id,
            owner_id: owner.id,
            is_active: campaign.is_active,
            widget_paused,
            greeting: settings.greeting(),
            lead_form: PublicForm::of(&lead_form(&settings)),
            ai_conversations: allowed.ai_conversations,
        });
        if let Ok(mut cache) = self.start_facts.lock() {
            if cache.len() >= START_FACTS_KEPT {
                cache.clear();
            }
            cache.insert(
                key.to_string(),
                StartFactsEntry {
                    at: std::time::Instant::now(),
                    version,
                    facts: facts.clone(),
                },
            );
        }
        Ok(facts)
    }

    /// The campaign's settings as the conversation's visitor sees them: with
    /// the overrides of the conversation's A/B test variant (its forms, its
    /// popup) while that variant runs.
    async fn settings_for<C: sea_orm::ConnectionTrait>(
        &self,
        conn: &C,
        conv: &conversation::Model,
        settings: CampaignSettings,
    ) -> Result<CampaignSettings, ConversationError> {
        Ok(
            match self
                .arms
                .get(conn, &conv.campaign_id, conv.variant_id.as_deref())
                .await?
            {
                Some(arm) => arm.settings(&settings),
                None => settings,
            },
        )
    }

    async fn find<C: sea_orm::ConnectionTrait>(
        &self,
        conn: &C,
        conversation_id: &str,
    ) -> Result<conversation::Model, ConversationError> {
        conversation::Entity::find()
            .filter(conversation::Column::ConversationId.eq(conversation_id.trim()))
            .one(conn)
            .await?
            .ok_or(ConversationError::NotFound)
    }

    /// Completes the conversation when it has been idle too long; true if it is (now) completed.
    async fn close_if_idle(
        &self,
        conv: &conversation::Model,
        now: DateTime<Utc>,
    ) -> Result<bool, ConversationError> {
        if conv.status != "active" {
            return Ok(true);
        }
        let idle = chrono::Duration::from_std(self.limits.idle).unwrap_or(chrono::Duration::MAX);
        if now - conv.last_activity_at < idle {
            return Ok(false);
        }
        let completed_at = conv.last_activity_at + idle;
        let txn = ca_core::db::begin_write(&self.db).await?;
        let moved = complete_if_active(&txn, &conv.id, completed_at).await?;
        if moved && crate::hooks::wanted(&txn, &conv.owner_id).await? {
            crate::hooks::completed(&txn, conv, &conv.outcome, completed_at).await?;
        }
        txn.commit().await?;
        Ok(true)
    }

    /// Accepts a visitor message: checks it, stores it and decides which form
    /// (if any) goes with the reply. The reply itself comes from [`Self::complete`].
    pub async fn begin(
        &self,
        conversation_id: &str,
        input: MessageIn,
        ip: &str,
        now: DateTime<Utc>,
    ) -> Result<Turn, ConversationError> {
        self.throttle_ip(ip).await?;
        let text = input.message.trim().to_string();
        if text.is_empty() {
            return Err(ConversationError::field("message", "Please type a message"));
        }
        if text.chars().count() > self.limits.message_max_chars {
            return Err(ConversationError::field(
                "message",
                &format!(
                    "Messages can be at most {} characters",
                    self.limits.message_max_chars
                ),
            ));
        }
        let conv = self.find(&self.db, conversation_id).await?;
        self.throttle_campaign(&conv.campaign_id).await?;
        if self.close_if_idle(&conv, now).await? {
            return Err(ConversationError::Ended);
        }
        // A chat going on when staff paused the owner's widget ends there.
        if self
            .start_facts(&conv.campaign_id, now)
            .await?
            .widget_paused
        {
            return Err(ConversationError::CampaignInactive);
        }
        let campaign = self.campaign(&self.db, &conv.campaign_id).await?;
        let settings = self
            .settings_for(&self.db, &conv, parse_settings(&campaign)?)
            .await?;
        let limit_reached = || ConversationError::MessageLimit {
            form: Box::new(PublicForm::of(&lead_form(&settings))),
        };
        if conv.visitor_messages >= self.limits.messages_per_conversation {
            return Err(limit_reached());
        }
        let mut history: Vec<ChatMessage> = message::Entity::find()
            .filter(message::Column::ConversationId.eq(&conv.id))
            .order_by_desc(message::Column::Id)
            .limit(20)
            .all(&self.db)
            .await?
            .into_iter()
            .rev()
            .filter(|m| m.role == "user" || m.role == "assistant")
            .map(|m| ChatMessage::new(&m.role, &m.content))
            .collect();
        // Greeting excluded: the model does not need to see its own opener.
        if history.first().is_some_and(|m| m.role == "assistant") && history.len() == 1 {
            history.clear();
        }
        // Taking a message slot and storing the message are one step: the
        // count moves only while it is under the cap, so parallel messages
        // cannot get past it (each accepted one may cost a paid completion).
        let txn = ca_core::db::begin_write(&self.db).await?;
        let claimed = conversation::Entity::update_many()
            .col_expr(
                conversation::Column::VisitorMessages,
                Expr::col(conversation::Column::VisitorMessages).add(1),
            )
            .col_expr(
                conversation::Column::TotalMessages,
                Expr::col(conversation::Column::TotalMessages).add(1),
            )
            .col_expr(conversation::Column::LastActivityAt, Expr::value(now))
            .col_expr(
                conversation::Column::LastMessage,
                Expr::value(preview(&text)),
            )
            .filter(conversation::Column::Id.eq(&conv.id))
            .filter(conversation::Column::VisitorMessages.lt(self.limits.messages_per_conversation))
            .exec(&txn)
            .await?;
        if claimed.rows_affected == 0 {
            txn.rollback().await?;
            return Err(limit_reached());
        }
        let question = message::ActiveModel {
            conversation_id: Set(conv.id.clone()),
            role: Set("user".into()),
            content: Set(text.clone()),
            created_at: Set(now),
            ..Default::default()
        }
        .insert(&txn)
        .await?;
        let visitor_messages = conversation::Entity::find_by_id(conv.id.clone())
            .one(&txn)
            .await?
            .map_or(conv.visitor_messages + 1, |c| c.visitor_messages);
        txn.commit().await?;
        let state = FormState {
            visitor_messages,
            offered: serde_json::from_str(&conv.forms_offered)?,
            last_offer_at: conv.last_form_at,
        };
        let offer = if conv.ai_enabled {
            forms::next_offer(&settings.forms, &state, &text).cloned()
        } else {
            None
        };
        Ok(Turn {
            conversation: conv,
            settings,
            history,
            message: text,
            question_id: question.id,
            state,
            offer,
        })
    }

    /// Produces the reply to a [`Turn`], streaming it to `on_token`, and stores it.
    pub async fn complete(
        &self,
        turn: Turn,
        on_token: &mut (dyn FnMut(&str) + Send),
    ) -> Result<ReplyOut, ConversationError> {
        self.complete_at(turn, on_token, None).await
    }

    /// [`Self::complete`], the reply dated `at` instead of when it is ready
    /// (the demo data's conversations took place over past weeks).
    pub async fn complete_at(
        &self,
        turn: Turn,
        on_token: &mut (dyn FnMut(&str) + Send),
        at: Option<DateTime<Utc>>,
    ) -> Result<ReplyOut, ConversationError> {
        let Turn {
            conversation: conv,
            settings,
            history,
            message: text,
            question_id,
            mut state,
            offer,
        } = turn;
        let (answer, form) = if conv.ai_enabled {
            let form_hint = offer.as_ref().map(|f| {
                format!(
                    "Right after your answer the visitor will see the form \"{}\" ({}). You may mention it in one short sentence.",
                    f.title, f.subtitle
                )
            });
            let ai = &settings.ai_settings;
            let request = Request {
                brief: Brief {
                    business_info: &ai.business_info,
                    knowledge_base: &ai.knowledge_base,
                    custom_instructions: &ai.custom_instructions,
                    form_hint: form_hint.as_deref(),
                    form_title: offer.as_ref().map(|f| f.title.as_str()),
                },
                history: &history,
                message: &text,
            };
            let answer = self.assistant.reply(&request, on_token).await;
            let form = match offer {
                Some(f) => Some(f),
                None if answer.asks_for_email => {
                    forms::lead_offer(&settings.forms, &state).cloned()
                }
                None => None,
            };
            (answer, form)
        } else {
            on_token(AI_LIMIT_NOTICE);
            let form = lead_form(&settings);
            (
                Answer {
                    text: AI_LIMIT_NOTICE.to_string(),
                    source: Source::Builtin,
                    timing: ReplyTiming {
                        first_token: Duration::ZERO,
                        total: Duration::ZERO,
                    },
                    asks_for_email: true,
                    unanswered: false,
                    passages: Vec::new(),
                },
                Some(form),
            )
        };
        let now = at.unwrap_or_else(Utc::now);
        let source = match (conv.ai_enabled, answer.source) {
            (false, _) => "limit",
            (true, Source::Provider) => "provider",
            (true, Source::Builtin) => "builtin",
        };
        // A form counts as offered by the rules only when it is one of the campaign's forms.
        let counted = form
            .as_ref()
            .filter(|f| conv.ai_enabled && f.id != EMAIL_CAPTURE_ID);
        if let Some(f) = counted {
            state.offered.push(f.id.clone());
            state.last_offer_at = Some(state.visitor_messages);
        }
        // The reply, its question's mark and the conversation's counters are
        // one write (on SQLite one turn of the write queue, not three).
        let txn = ca_core::db::begin_write(&self.db).await?;
        message::ActiveModel {
            conversation_id: Set(conv.id.clone()),
            role: Set("assistant".into()),
            content: Set(answer.text.clone()),
            form_id: Set(form.as_ref().map(|f| f.id.clone())),
            source: Set(Some(source.into())),
            first_token_ms: Set(conv.ai_enabled.then(|| millis(answer.timing.first_token))),
            total_ms: Set(conv.ai_enabled.then(|| millis(answer.timing.total))),
            created_at: Set(now),
            ..Default::default()
        }
        .insert(&txn)
        .await?;
        let key = question_key(&text);
        if answer.unanswered && !key.is_empty() {
            // The owner sees it among the questions to add to the knowledge base.
            message::Entity::update_many()
                .col_expr(message::Column::UnansweredKey, Expr::value(key))
                .filter(message::Column::Id.eq(question_id))
                .exec(&txn)
                .await?;
        }
        let mut update = conversation::Entity::update_many()
            .col_expr(
                conversation::Column::TotalMessages,
                Expr::col(conversation::Column::TotalMessages).add(1),
            )
            .col_expr(conversation::Column::LastActivityAt, Expr::value(now))
            .col_expr(
                conversation::Column::LastMessage,
                Expr::value(preview(&answer.text)),
            );
        if counted.is_some() {
            update = update
                .col_expr(
                    conversation::Column::FormsOffered,
                    Expr::value(serde_json::to_string(&state.offered)?),
                )
                .col_expr(
                    conversation::Column::LastFormAt,
                    Expr::value(state.last_offer_at),
                );
        }
        update
            .filter(conversation::Column::Id.eq(&conv.id))
            .exec(&txn)
            .await?;
        let total_messages = conversation::Entity::find_by_id(conv.id.clone())
            .one(&txn)
            .await?
            .map_or(conv.total_messages + 2, |c| c.total_messages);
        txn.commit().await?;
        Ok(ReplyOut {
            success: true,
            reply: answer.text,
            form: form.as_ref().map(PublicForm::of),
            source: source.into(),
            timing: TimingOut {
                first_token_ms: millis(answer.timing.first_token),
                total_ms: millis(answer.timing.total),
            },
            total_messages,
        })
    }

    /// Validates a submitted form against its fields and stores the collected
    /// data on the conversation, in the caller's transaction `conn` (the
    /// customer record it leads to is the caller's part of the same step).
    pub async fn submit<C: sea_orm::ConnectionTrait>(
        &self,
        conn: &C,
        conversation_id: &str,
        input: SubmitIn,
        ip: &str,
        now: DateTime<Utc>,
    ) -> Result<(SubmitOut, Option<conversation::Model>), ConversationError> {
        self.throttle_ip(ip).await?;
        // Read through the caller's transaction: on SQLite it holds the write
        // lock, and waiting for a second pooled connection while holding it
        // would stall every other writer until their busy timeout.
        let conv = self.find(conn, conversation_id).await?;
        self.throttle_campaign(&conv.campaign_id).await?;
        let campaign = self.campaign(conn, &conv.campaign_id).await?;
        let settings = self
            .settings_for(conn, &conv, parse_settings(&campaign)?)
            .await?;
        let form_id = input
            .form_id
            .as_deref()
            .map(str::trim)
            .filter(|f| !f.is_empty())
            .unwrap_or(EMAIL_CAPTURE_ID);
        let form = if form_id == EMAIL_CAPTURE_ID {
            email_capture_form(&settings)
        } else {
            settings
                .forms
                .conversion_forms
                .iter()
                .find(|f| f.id == form_id && f.active)
                .cloned()
                .ok_or(ConversationError::FormNotFound)?
        };
        let values: Vec<(String, String)> = input.values.into_iter().collect();
        let data =
            forms::validate_submission(&form, &values).map_err(ConversationError::invalid)?;
        let follow_up = (!form.follow_up_message.trim().is_empty())
            .then(|| form.follow_up_message.trim().to_string());
        // Merged into what is stored now (locked on PostgreSQL; SQLite
        // writers hold the write lock), not into the copy read above.
        let conv = conversation::Entity::find_by_id(conv.id.clone())
            .lock_exclusive()
            .one(conn)
            .await?
            .ok_or(ConversationError::NotFound)?;
        let mut collected: CollectedDataOut = serde_json::from_str(&conv.collected_data)?;
        collected.merge(&data);
        if input
            .website
            .as_deref()
            .is_some_and(|w| !w.trim().is_empty())
        {
            // A bot filled the honeypot: answer as usual, keep nothing.
            tracing::debug!(conversation = %conv.conversation_id, "honeypot filled; submission dropped");
            return Ok((
                SubmitOut {
                    success: true,
                    message: form.success_message,
                    follow_up_message: follow_up,
                    collected_data: collected,
                },
                None,
            ));
        }
        let mut active: conversation::ActiveModel = conv.clone().into();
        let stored = serde_json::to_string(&collected)?;
        active.collected_text = Set(ca_core::search::values_text(&stored));
        active.collected_data = Set(stored);
        active.last_activity_at = Set(now);
        let updated = active.update(conn).await?;
        message::ActiveModel {
            conversation_id: Set(conv.id.clone()),
            role: Set("system".into()),
            content: Set(format!("Form submitted: {}", form.name)),
            form_id: Set(Some(form.id.clone())),
            created_at: Set(now),
            ..Default::default()
        }
        .insert(conn)
        .await?;
        conversation::Entity::update_many()
            .col_expr(
                conversation::Column::TotalMessages,
                Expr::col(conversation::Column::TotalMessages).add(1),
            )
            .filter(conversation::Column::Id.eq(&conv.id))
            .exec(conn)
            .await?;
        Ok((
            SubmitOut {
                success: true,
                message: form.success_message,
                follow_up_message: follow_up,
                collected_data: collected,
            },
            Some(updated),
        ))
    }

    /// The visitor closed the popup: the conversation is completed with the
    /// outcome `dismissal`, unless it already converted.
    pub async fn dismiss(
        &self,
        conversation_id: &str,
        ip: &str,
        now: DateTime<Utc>,
    ) -> Result<OkOut, ConversationError> {
        self.throttle_ip(ip).await?;
        let conv = self.find(&self.db, conversation_id).await?;
        self.throttle_campaign(&conv.campaign_id).await?;
        let outcome = if conv.outcome == "conversion" {
            "conversion"
        } else {
            "dismissal"
        };
        let txn = ca_core::db::begin_write(&self.db).await?;
        conversation::Entity::update_many()
            .col_expr(conversation::Column::Outcome, Expr::value(outcome))
            .filter(conversation::Column::Id.eq(&conv.id))
            .exec(&txn)
            .await?;
        let moved = complete_if_active(&txn, &conv.id, now).await?;
        if moved && crate::hooks::wanted(&txn, &conv.owner_id).await? {
            crate::hooks::completed(&txn, &conv, outcome, now).await?;
        }
        txn.commit().await?;
        Ok(OkOut { success: true })
    }

    /// Completes every active conversation idle for longer than the limit;
    /// returns how many.
    /// The conversations of owners whose webhooks want to hear of it are
    /// completed one by one, each with its `conversation.completed` event in
    /// the same transaction; the rest in one statement.
    pub async fn complete_idle(&self, now: DateTime<Utc>) -> Result<u64, ConversationError> {
        let idle = chrono::Duration::from_std(self.limits.idle).unwrap_or(chrono::Duration::MAX);
        let owners: Vec<String> = conversation::Entity::find()
            .select_only()
            .column(conversation::Column::OwnerId)
            .distinct()
            .filter(conversation::Column::Status.eq("active"))
            .filter(conversation::Column::LastActivityAt.lt(now - idle))
            .into_tuple()
            .all(&self.db)
            .await?;
        let wanting = ca_webhooks::events::owners_wanting(
            &self.db,
            ca_webhooks::EventType::ConversationCompleted,
            owners,
        )
        .await?;
        let mut completed = 0;
        if !wanting.is_empty() {
            let reported = conversation::Entity::find()
                .filter(conversation::Column::Status.eq("active"))
                .filter(conversation::Column::LastActivityAt.lt(now - idle))
                .filter(conversation::Column::OwnerId.is_in(wanting.iter().cloned()))
                .limit(1000)
                .all(&self.db)
                .await?;
            for conv in reported {
                let txn = ca_core::db::begin_write(&self.db).await?;
                if complete_if_active(&txn, &conv.id, now).await? {
                    crate::hooks::completed(&txn, &conv, &conv.outcome, now).await?;
                    completed += 1;
                }
                txn.commit().await?;
            }
        }
        let result = conversation::Entity::update_many()
            .col_expr(conversation::Column::Status, Expr::value("completed"))
            .col_expr(conversation::Column::CompletedAt, Expr::value(now))
            .filter(conversation::Column::Status.eq("active"))
            .filter(conversation::Column::LastActivityAt.lt(now - idle))
            .filter(conversation::Column::OwnerId.is_not_in(wanting))
            .exec(&self.db)
            .await?;
        Ok(completed + result.rows_affected)
    }
}

/// Completes the conversation `id` at `at` if it is still active; true if
/// this call completed it.
async fn complete_if_active<C: sea_orm::ConnectionTrait>(
    conn: &C,
    id: &str,
    at: DateTime<Utc>,
) -> Result<bool, sea_orm::DbErr> {
    Ok(conversation::Entity::update_many()
        .col_expr(conversation::Column::Status, Expr::value("completed"))
        .col_expr(conversation::Column::CompletedAt, Expr::value(Some(at)))
        .filter(conversation::Column::Id.eq(id))
        .filter(conversation::Column::Status.eq("active"))
        .exec(conn)
        .await?
        .rows_affected
        == 1)
}

/// The conversation produced a lead: its outcome becomes `conversion`. True
/// only the first time, so a conversation counts one conversion however many
/// forms it sends. Takes the caller's transaction, which also stores the lead.
pub async fn mark_converted<C: sea_orm::ConnectionTrait>(
    conn: &C,
    conversation_id: &str,
) -> Result<bool, sea_orm::DbErr> {
    Ok(conversation::Entity::update_many()
        .col_expr(conversation::Column::Outcome, Expr::value("conversion"))
        .filter(conversation::Column::Id.eq(conversation_id))
        .filter(conversation::Column::Outcome.ne("conversion"))
        .exec(conn)
        .await?
        .rows_affected
        == 1)
}

#[cfg(test)]
mod tests {
    use super::public_id;
    use chrono::{TimeZone, Utc};

    #[test]
    fn public_ids_sort_in_the_order_they_were_made_and_keep_their_shape() {
        let at = |ms: i64| Utc.timestamp_millis_opt(ms).single().expect("time");
        let times = [
            1_700_000_000_000,
            1_700_000_000_001,
            1_700_000_000_035,
            1_700_000_000_036,
            1_764_000_000_000,
            4_102_444_800_000, // 2100
        ];
        let ids: Vec<String> = times.iter().map(|&ms| public_id(at(ms))).collect();
        for id in &ids {
            assert!(id.starts_with("conv_") && id.len() == 29, "{id}");
            assert!(id[5..].bytes().all(|b| b.is_ascii_alphanumeric()), "{id}");
        }
        // Byte order and a collation that ignores case agree on the order.
        let mut bytes = ids.clone();
        bytes.sort();
        assert_eq!(bytes, ids);
        let mut folded = ids.clone();
        folded.sort_by_key(|id| id.to_lowercase());
        assert_eq!(folded, ids);
        // The random part differs between ids of the same millisecond.
        let twins: std::collections::HashSet<String> = (0..1000)
            .map(|_| public_id(at(1_764_000_000_000))[14..].to_string())
            .collect();
        assert_eq!(twins.len(), 1000);
        assert_eq!(&public_id(at(1_764_000_000_000))[5..14], "0midc1z40");
    }
}
