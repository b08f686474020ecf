//! The assistant: the OpenAI-compatible provider when one is configured, the
//! builtin one otherwise, and the builtin one again whenever the provider fails,
//! so a visitor always gets an answer.

pub mod builtin;
pub mod language;
pub mod openai;
pub mod owner;
pub mod passages;
pub mod questions;
pub mod retrieval;

use std::sync::Arc;
use std::time::{Duration, Instant};

use builtin::{Knowledge, UsedPassage, reply};
use futures_util::future::BoxFuture;
use openai::{ChatMessage, OpenAiCompatible, ProviderConfig, ProviderError, ReplyTiming};

/// Who wrote an answer.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Source {
    Provider,
    /// The builtin assistant (no provider configured, or the provider failed).
    Builtin,
}

/// A finished answer.
#[derive(Debug, Clone, PartialEq)]
pub struct Answer {
    pub text: String,
    pub source: Source,
    pub timing: ReplyTiming,
    /// The builtin assistant asked for the visitor's email.
    pub asks_for_email: bool,
    /// The owner's texts hold no answer to the visitor's question (the
    /// builtin assistant said it is not sure; a model was asked anyway).
    pub unanswered: bool,
    /// The passages the builtin assistant quoted (none from a model, which
    /// reads the whole knowledge base).
    pub passages: Vec<UsedPassage>,
}

/// What the assistant is told about the campaign.
#[derive(Debug, Clone, Default)]
pub struct Brief<'a> {
    pub business_info: &'a str,
    pub knowledge_base: &'a str,
    pub custom_instructions: &'a str,
    /// A sentence about the form the server will show with this reply, if any.
    pub form_hint: Option<&'a str>,
    /// The title of that form: the builtin assistant points to it instead of
    /// admitting it does not know.
    pub form_title: Option<&'a str>,
}

/// The system prompt: who the assistant speaks for, what it knows, how to behave.
pub fn system_prompt(brief: &Brief<'_>) -> String {
    let mut p = String::from(
        "You are the website assistant of the business described below. A visitor is about to leave the site; \
         help them warmly and briefly (at most 3 sentences), answer only from the information given, quote prices \
         in rupees (₹), and if you do not know something say so and suggest leaving their email so the team can reply. \
         Never invent policies, prices or discounts.\n",
    );
    if !brief.business_info.trim().is_empty() {
        p.push_str("\n# Business\n");
        p.push_str(brief.business_info.trim());
        p.push('\n');
    }
    if !brief.knowledge_base.trim().is_empty() {
        p.push_str("\n# Knowledge base\n");
        p.push_str(brief.knowledge_base.trim());
        p.push('\n');
    }
    if !brief.custom_instructions.trim().is_empty() {
        p.push_str("\n# Owner's instructions\n");
        p.push_str(brief.custom_instructions.trim());
        p.push('\n');
    }
    if let Some(hint) = brief.form_hint {
        p.push_str("\n# Form\n");
        p.push_str(hint);
        p.push('\n');
    }
    p
}

/// The newest messages that fit in `budget_tokens` (about 4 characters a token),
/// oldest first; the newest message is always kept.
pub fn trim_history(history: &[ChatMessage], budget_tokens: usize) -> Vec<ChatMessage> {
    let budget = budget_tokens.saturating_mul(4);
    let mut used = 0;
    let mut kept: Vec<ChatMessage> = Vec::new();
    for m in history.iter().rev() {
        let len = m.content.chars().count();
        if !kept.is_empty() && used + len > budget {
            break;
        }
        used += len;
        kept.push(m.clone());
    }
    kept.reverse();
    kept
}

/// Answers `message`, streaming tokens to `on_token`; falls back to the builtin
/// assistant when there is no provider or it fails before finishing.
pub async fn answer(
    provider: Option<&OpenAiCompatible>,
    brief: &Brief<'_>,
    history: &[ChatMessage],
    message: &str,
    history_budget_tokens: usize,
    on_token: &mut (dyn FnMut(&str) + Send),
) -> Answer {
    let started = Instant::now();
    let knowledge = Knowledge {
        knowledge_base: brief.knowledge_base,
        business_info: brief.business_info,
    };
    if let Some(provider) = provider {
        let mut messages = vec![ChatMessage::new("system", &system_prompt(brief))];
        messages.extend(trim_history(history, history_budget_tokens));
        messages.push(ChatMessage::new("user", message));
        let mut text = String::new();
        let mut first: Option<Duration> = None;
        let mut relay = |t: &str| {
            first.get_or_insert_with(|| started.elapsed());
            text.push_str(t);
            on_token(t);
        };
        match provider.stream(&messages, &mut relay).await {
            Ok(timing) => {
                return Answer {
                    text,
                    source: Source::Provider,
                    timing,
                    asks_for_email: false,
                    unanswered: reply(&knowledge, message).unanswered,
                    passages: Vec::new(),
                };
            }
            Err(err) => {
                tracing::warn!(%err, "assistant provider failed; answering with the builtin assistant");
                if !text.is_empty() {
                    // Part of the answer already reached the visitor: finish the sentence honestly.
                    let tail = " … Sorry, I lost my train of thought. Leave your email and our team will follow up.";
                    on_token(tail);
                    text.push_str(tail);
                    return Answer {
                        text,
                        source: Source::Provider,
                        timing: ReplyTiming {
                            first_token: first.unwrap_or_else(|| started.elapsed()),
                            total: started.elapsed(),
                        },
                        asks_for_email: true,
                        unanswered: reply(&knowledge, message).unanswered,
                        passages: Vec::new(),
                    };
                }
            }
        }
    }
    let mut r = reply(&knowledge, message);
    if let Some(title) = brief.form_title.map(str::trim).filter(|t| !t.is_empty())
        && !r.grounded
    {
        // The visitor asked for what a form offers (its trigger keyword): point to it.
        r.text = format!("Good news: {title}! Fill in the form below and it's yours.");
        r.asks_for_email = true;
        r.unanswered = false;
    }
    on_token(&r.text);
    let elapsed = started.elapsed();
    Answer {
        text: r.text,
        source: Source::Builtin,
        timing: ReplyTiming {
            first_token: elapsed,
            total: elapsed,
        },
        asks_for_email: r.asks_for_email,
        unanswered: r.unanswered,
        passages: r.passages,
    }
}

/// One reply to produce.
pub struct Request<'a> {
    pub brief: Brief<'a>,
    /// Earlier messages, oldest first (the message being answered excluded).
    pub history: &'a [ChatMessage],
    pub message: &'a str,
}

/// Something that answers a visitor, streaming the answer to `on_token`.
pub trait Assistant: Send + Sync {
    /// `builtin` or `openai-compatible`, for logs and the health page.
    fn name(&self) -> &'static str;
    fn reply<'a>(
        &'a self,
        request: &'a Request<'a>,
        on_token: &'a mut (dyn FnMut(&str) + Send),
    ) -> BoxFuture<'a, Answer>;
}

/// The builtin assistant: passage retrieval, no network, deterministic.
pub struct Builtin;

impl Assistant for Builtin {
    fn name(&self) -> &'static str {
        "builtin"
    }

    fn reply<'a>(
        &'a self,
        request: &'a Request<'a>,
        on_token: &'a mut (dyn FnMut(&str) + Send),
    ) -> BoxFuture<'a, Answer> {
        Box::pin(answer(
            None,
            &request.brief,
            request.history,
            request.message,
            0,
            on_token,
        ))
    }
}

/// An OpenAI-compatible model server, with the builtin assistant as fallback.
pub struct Provider {
    client: OpenAiCompatible,
    history_budget_tokens: usize,
}

impl Provider {
    pub fn new(
        config: ProviderConfig,
        history_budget_tokens: usize,
    ) -> Result<Self, ProviderError> {
        Ok(Self {
            client: OpenAiCompatible::new(config)?,
            history_budget_tokens,
        })
    }
}

impl Assistant for Provider {
    fn name(&self) -> &'static str {
        "openai-compatible"
    }

    fn reply<'a>(
        &'a self,
        request: &'a Request<'a>,
        on_token: &'a mut (dyn FnMut(&str) + Send),
    ) -> BoxFuture<'a, Answer> {
        Box::pin(answer(
            Some(&self.client),
            &request.brief,
            request.history,
            request.message,
            self.history_budget_tokens,
            on_token,
        ))
    }
}

/// The assistant configuration selects: the provider when a base URL is set,
/// the builtin assistant otherwise.
pub fn from_config(
    provider: Option<ProviderConfig>,
    history_budget_tokens: usize,
) -> Result<Arc<dyn Assistant>, ProviderError> {
    Ok(match provider {
        Some(config) => Arc::new(Provider::new(config, history_budget_tokens)?),
        None => Arc::new(Builtin),
    })
}
