//! The conversation service: visitor conversations (`visitor`), the owner's
//! view of them (`dashboard`), the assistant's owner tools
//! (`assistant::owner`) and the platform's counts (`stats`) are its calls,
//! each in the file named by what it does.

use std::sync::Arc;
use std::time::Duration;

use sea_orm::DatabaseConnection;

use ca_core::rate_limit::RateLimiter;

use crate::assistant::Assistant;

/// The limits of the public calls.
#[derive(Debug, Clone)]
pub struct Limits {
    /// Longest visitor message, in characters.
    pub message_max_chars: usize,
    /// Visitor messages per conversation.
    pub messages_per_conversation: i64,
    /// Widget calls per client IP per minute.
    pub ip_per_minute: u32,
    /// Widget calls per campaign per minute (all visitors together).
    pub campaign_per_minute: u32,
    /// A conversation without activity for this long is completed.
    pub idle: Duration,
    /// How long a campaign's facts for starting a conversation (active or
    /// not, greeting, lead form, the owner's AI allowance) are reused: the
    /// widget configuration's cache time. A change made on this server is
    /// seen at once.
    pub campaign_cache: Duration,
}

impl Default for Limits {
    fn default() -> Self {
        Self {
            message_max_chars: 1000,
            messages_per_conversation: 40,
            ip_per_minute: 60,
            campaign_per_minute: 1200,
            idle: Duration::from_secs(30 * 60),
            campaign_cache: Duration::from_secs(10),
        }
    }
}

/// The visitor conversation service.
#[derive(Clone)]
pub struct ConversationService {
    pub(crate) db: DatabaseConnection,
    pub(crate) assistant: Arc<dyn Assistant>,
    pub(crate) limiter: Arc<RateLimiter>,
    pub(crate) limits: Limits,
    pub(crate) start_facts: crate::start_facts::StartFactsCache,
    /// Which visitors' A/B test variants count, kept as long as the start facts.
    pub(crate) arms: ca_experiments::ArmCache,
    /// The writer that stores chat starts in batches; without it each start
    /// is written in a transaction of its own.
    pub(crate) starts: Option<crate::start_writer::StartWriter>,
}

impl ConversationService {
    pub fn new(
        db: DatabaseConnection,
        assistant: Arc<dyn Assistant>,
        limiter: Arc<RateLimiter>,
        limits: Limits,
    ) -> Self {
        Self {
            db,
            assistant,
            limiter,
            arms: ca_experiments::ArmCache::new(limits.campaign_cache),
            limits,
            start_facts: Default::default(),
            starts: None,
        }
    }

    /// Writes chat starts through a writer task (started here, on the current
    /// runtime) that stores every start waiting in one transaction: the
    /// server's way under load. The task stops once the service and all its
    /// clones are dropped, after answering the starts still queued. It writes
    /// over `own` when given (on SQLite, a connection of its own, see
    /// `ca_core::db::connect_writer`), over the service's pool otherwise.
    #[must_use]
    pub fn with_batched_starts(mut self, own: Option<DatabaseConnection>) -> Self {
        let db = own.unwrap_or_else(|| self.db.clone());
        self.starts = Some(crate::start_writer::StartWriter::start(db));
        self
    }

    /// The chat-start writer's totals, when starts are batched.
    pub fn start_stats(&self) -> Option<&crate::start_writer::StartStats> {
        self.starts.as_ref().map(|w| w.stats())
    }

    pub fn limits(&self) -> &Limits {
        &self.limits
    }

    /// The assistant in use (`builtin` or `openai-compatible`).
    pub fn assistant_name(&self) -> &'static str {
        self.assistant.name()
    }
}
