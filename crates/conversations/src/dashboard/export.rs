//! The owner's conversations as CSV: one row per conversation with its
//! transcript, read in pages so the export never holds everything at once.

use sea_orm::{ColumnTrait, EntityTrait, QueryFilter, QueryOrder, QuerySelect};
use serde::Deserialize;
use utoipa::IntoParams;

use crate::entities::{conversation, message};
use crate::error::ConversationError;
use crate::service::ConversationService;

use super::{names, owned_campaign, summary};

/// Query of the CSV export.
#[derive(Debug, Clone, Default, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct ExportQuery {
    /// `csv` (the default and only format).
    #[param(schema_with = ca_core::period::export_format_schema)]
    pub format: Option<String>,
}

/// The CSV header row of the conversations export.
pub const CSV_HEADER: [&str; 15] = [
    "Conversation ID",
    "Campaign",
    "Status",
    "Outcome",
    "Started",
    "Last Activity",
    "Messages",
    "Visitor Messages",
    "Name",
    "Email",
    "Phone",
    "Company",
    "Device",
    "Page",
    "Transcript",
];

/// One page of the export: conversations after `after` (by `_id`), with
/// their messages and campaign names, at most `size` conversations.
pub struct ExportPage {
    pub conversations: Vec<conversation::Model>,
    pub messages: std::collections::HashMap<String, Vec<message::Model>>,
}

/// CSV lines for one export page (the header first when `header`).
pub fn csv_chunk(
    page: &ExportPage,
    names: &std::collections::HashMap<String, String>,
    header: bool,
) -> Result<Vec<u8>, ConversationError> {
    use ca_core::spreadsheet::safe_cell;
    let fail =
        |e: csv::Error| ConversationError::Infra(ca_core::error::InfraError::Other(e.to_string()));
    let mut w = csv::Writer::from_writer(Vec::new());
    if header {
        w.write_record(CSV_HEADER).map_err(fail)?;
    }
    for c in &page.conversations {
        let out = summary(c, names.get(&c.campaign_id).map_or("", String::as_str));
        let opt = |v: &Option<String>| safe_cell(v.as_deref().unwrap_or(""));
        let transcript = page
            .messages
            .get(&c.id)
            .map(|ms| {
                ms.iter()
                    .map(|m| format!("{}: {}", m.role, m.content))
                    .collect::<Vec<_>>()
                    .join("\n")
            })
            .unwrap_or_default();
        w.write_record([
            out.conversation_id.clone(),
            safe_cell(&out.campaign.name),
            out.status.clone(),
            out.outcome.clone(),
            out.created_at.to_rfc3339(),
            out.updated_at.to_rfc3339(),
            out.analytics.total_messages.to_string(),
            out.analytics.visitor_messages.to_string(),
            opt(&out.collected_data.name),
            opt(&out.collected_data.email),
            opt(&out.collected_data.phone),
            opt(&out.collected_data.company),
            opt(&out.user_context.device_type),
            opt(&out.user_context.current_url),
            safe_cell(&transcript),
        ])
        .map_err(fail)?;
    }
    w.into_inner()
        .map_err(|e| ConversationError::Infra(ca_core::error::InfraError::Other(e.to_string())))
}

impl ConversationService {
    /// Checks the export's campaign (when given) belongs to the owner.
    pub async fn export_check(
        &self,
        owner_id: &str,
        campaign_id: Option<&str>,
    ) -> Result<(), ConversationError> {
        if let Some(c) = campaign_id {
            owned_campaign(&self.db, owner_id, c).await?;
        }
        Ok(())
    }

    /// The next page of the export after `after`.
    pub async fn export_page(
        &self,
        owner_id: &str,
        campaign_id: Option<&str>,
        after: Option<&str>,
        size: u64,
    ) -> Result<ExportPage, ConversationError> {
        let mut q = conversation::Entity::find().filter(conversation::Column::OwnerId.eq(owner_id));
        if let Some(c) = campaign_id {
            q = q.filter(conversation::Column::CampaignId.eq(c.trim()));
        }
        if let Some(after) = after {
            q = q.filter(conversation::Column::Id.gt(after));
        }
        let conversations = q
            .order_by_asc(conversation::Column::Id)
            .limit(size)
            .all(&self.db)
            .await?;
        let ids: Vec<String> = conversations.iter().map(|c| c.id.clone()).collect();
        let mut messages: std::collections::HashMap<String, Vec<message::Model>> =
            std::collections::HashMap::new();
        if !ids.is_empty() {
            for m in message::Entity::find()
                .filter(message::Column::ConversationId.is_in(ids))
                .order_by_asc(message::Column::Id)
                .all(&self.db)
                .await?
            {
                messages
                    .entry(m.conversation_id.clone())
                    .or_default()
                    .push(m);
            }
        }
        Ok(ExportPage {
            conversations,
            messages,
        })
    }

    /// The owner's campaign names by id (for the export).
    pub async fn campaign_names(
        &self,
        owner_id: &str,
    ) -> Result<std::collections::HashMap<String, String>, ConversationError> {
        names(&self.db, owner_id).await
    }
}
