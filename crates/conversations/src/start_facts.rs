//! What starting a conversation needs to know about a campaign and its
//! owner, kept in memory for the widget configuration's cache time so a
//! burst of visitors opening the chat does not read the campaign, the owner
//! and the plan again for each of them.

use std::sync::Arc;

use crate::dto::PublicForm;

/// Campaigns whose start facts are kept before the cache starts again empty.
pub(crate) const START_FACTS_KEPT: usize = 10_000;

/// What starting a conversation needs to know about a campaign and its owner.
pub(crate) struct StartFacts {
    pub(crate) campaign_id: String,
    pub(crate) owner_id: String,
    pub(crate) is_active: bool,
    /// Staff suspended the owner and paused their widget: no chat starts or
    /// goes on (each reply may cost a paid completion).
    pub(crate) widget_paused: bool,
    pub(crate) greeting: String,
    /// The form shown instead of the chat when the AI allowance is used up.
    pub(crate) lead_form: PublicForm,
    /// The owner's monthly AI conversations (-1: unlimited).
    pub(crate) ai_conversations: i64,
}

pub(crate) struct StartFactsEntry {
    pub(crate) at: std::time::Instant,
    /// [`ca_core::freshness::version`] when it was read.
    pub(crate) version: u64,
    pub(crate) facts: Arc<StartFacts>,
}

/// Start facts by campaign id.
pub(crate) type StartFactsCache =
    Arc<std::sync::Mutex<std::collections::HashMap<String, StartFactsEntry>>>;
