//! Leads: a form the visitor submits in the popup, the customer record it
//! creates or updates, and the conversion it counts.

use chrono::{DateTime, Utc};
use sea_orm::EntityTrait;

use ca_campaigns::entities::campaign;
use ca_conversations::dto::{SubmitIn, SubmitOut};
use ca_conversations::entities::conversation;

use crate::{TrackingError, TrackingService};

impl TrackingService {
    /// The visitor submitted a conversion form (or the popup's email field):
    /// the conversation checks and keeps what was collected, then a collected
    /// email becomes the owner's lead, stored before the visitor hears it was
    /// received.
    pub async fn submit_form(
        &self,
        conversation_id: &str,
        input: SubmitIn,
        ip: &str,
        now: DateTime<Utc>,
    ) -> Result<SubmitOut, TrackingError> {
        let (out, conversation) = self
            .conversations
            .submit(conversation_id, input, ip, now)
            .await?;
        if let Some(conversation) = conversation {
            self.record_lead(&conversation, now).await?;
        }
        Ok(out)
    }

    /// A form submitted in `conv` collected an email: creates or updates the
    /// owner's customer, and on the conversation's first lead marks it
    /// `conversion` and counts a campaign conversion. One transaction.
    pub async fn record_lead(
        &self,
        conv: &conversation::Model,
        now: DateTime<Utc>,
    ) -> Result<Option<String>, TrackingError> {
        let data: serde_json::Map<String, serde_json::Value> =
            serde_json::from_str(&conv.collected_data).unwrap_or_default();
        let text = |k: &str| data.get(k).and_then(|v| v.as_str()).map(str::to_string);
        let Some(email) = text("email") else {
            return Ok(None);
        };
        let campaign = campaign::Entity::find_by_id(conv.campaign_id.clone())
            .one(&self.db)
            .await?
            .ok_or(TrackingError::CampaignNotFound)?;
        let txn = ca_core::db::begin_write(&self.db).await?;
        // Only the first lead of a conversation counts as a conversion.
        let first = ca_conversations::visitor::mark_converted(&txn, &conv.id).await?;
        let (name, phone, company) = (text("name"), text("phone"), text("company"));
        let customer = ca_customers::upsert_lead(
            &txn,
            &ca_customers::Lead {
                owner_id: &conv.owner_id,
                email: &email,
                name: name.as_deref(),
                phone: phone.as_deref(),
                company: company.as_deref(),
                collected_data: &conv.collected_data,
                campaign_id: &campaign.id,
                campaign_name: &campaign.name,
                visitor_id: &conv.visitor_id,
                messages: conv.visitor_messages,
                new_conversation: first,
            },
            now,
        )
        .await?;
        if first {
            ca_campaigns::counters::add_conversion(&txn, &campaign.id, now).await?;
            ca_customers::notifications::queue_lead(
                &txn,
                &conv.owner_id,
                &customer.email,
                customer.name.as_deref(),
                &campaign.name,
                now,
            )
            .await?;
        }
        txn.commit().await?;
        self.touch(&campaign.id, &conv.owner_id, &conv.visitor_id, now)
            .await?;
        tracing::info!(campaign = %campaign.id, customer = %customer.id, first, "lead recorded");
        Ok(Some(customer.id))
    }
}
