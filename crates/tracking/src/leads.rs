//! Leads: a form the visitor submits in the popup, the customer record it
//! creates or updates, and the conversion it counts.

use chrono::{DateTime, Utc};
use sea_orm::EntityTrait;

use ca_campaigns::entities::campaign;
use ca_conversations::dto::{SubmitIn, SubmitOut};
use ca_conversations::entities::conversation;

use crate::TrackingError;
use crate::service::TrackingService;

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
        origin: Option<&str>,
        now: DateTime<Utc>,
    ) -> Result<SubmitOut, TrackingError> {
        // The collected data and the lead it makes are one step: both are
        // stored, or neither.
        let txn = ca_core::db::begin_write(&self.db).await?;
        let (out, conversation) = self
            .conversations
            .submit(&txn, conversation_id, input, ip, now)
            .await?;
        let lead = match &conversation {
            Some(conv) => self.record_lead(&txn, conv, origin, now).await?,
            None => None,
        };
        // The attribution touch is part of the same write: on SQLite a write
        // of its own after the commit would queue for the lock again.
        if let (Some(conv), Some(_)) = (&conversation, &lead) {
            self.touch(
                &txn,
                &conv.campaign_id,
                &conv.owner_id,
                &conv.visitor_id,
                now,
            )
            .await?;
        }
        txn.commit().await?;
        if let (Some(conv), Some(lead)) = (&conversation, &lead) {
            tracing::debug!(campaign = %conv.campaign_id, customer = %lead.customer_id, first = lead.first, "lead recorded");
        }
        Ok(out)
    }

    /// A form submitted in `conv` collected an email: creates or updates the
    /// owner's customer, and on the conversation's first lead marks it
    /// `conversion` and counts a campaign conversion, in the caller's
    /// transaction. A form the owner fills in on their own Preview page
    /// (`origin` is this server, not the campaign's website) is answered
    /// like any other but makes no lead: no customer, no conversion, no
    /// lead email or webhook.
    async fn record_lead<C: sea_orm::ConnectionTrait>(
        &self,
        txn: &C,
        conv: &conversation::Model,
        origin: Option<&str>,
        now: DateTime<Utc>,
    ) -> Result<Option<RecordedLead>, TrackingError> {
        let data: serde_json::Map<String, serde_json::Value> =
            serde_json::from_str(&conv.collected_data).unwrap_or_default();
        let text = |k: &str| data.get(k).and_then(|v| v.as_str()).map(str::to_string);
        let Some(email) = text("email") else {
            return Ok(None);
        };
        let campaign = campaign::Entity::find_by_id(conv.campaign_id.clone())
            .one(txn)
            .await?
            .ok_or(TrackingError::CampaignNotFound)?;
        if origin.is_some_and(|o| {
            crate::origin::is_preview(o, &campaign.website_url, &self.config.public_url)
        }) {
            return Ok(None);
        }
        // Only the first lead of a conversation counts as a conversion.
        let first = ca_conversations::visitor::mark_converted(txn, &conv.id).await?;
        let (name, phone, company) = (text("name"), text("phone"), text("company"));
        let (customer, previous) = ca_customers::upsert_lead_and_previous(
            txn,
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
        // The owner's webhooks hear of it in this same transaction.
        match &previous {
            None => {
                let page_url = serde_json::from_str::<serde_json::Value>(&conv.user_context)
                    .ok()
                    .and_then(|c| {
                        c.get("currentUrl")
                            .and_then(|u| u.as_str())
                            .map(str::to_string)
                    });
                ca_webhooks::enqueue(
                    txn,
                    &conv.owner_id,
                    ca_webhooks::Event::LeadCreated(ca_webhooks::events::LeadCreated {
                        customer: ca_customers::hooks::customer_data(&customer),
                        fields: data.clone(),
                        campaign: ca_webhooks::events::CampaignRef {
                            id: campaign.id.clone(),
                            name: campaign.name.clone(),
                        },
                        page_url,
                        conversation_id: Some(conv.conversation_id.clone()),
                    }),
                    now,
                )
                .await?;
                // And the owner's browsers (push notifications).
                ca_push::enqueue(
                    txn,
                    &conv.owner_id,
                    ca_push::Notice::Lead {
                        customer_id: customer.id.clone(),
                        name: customer.name.clone(),
                        email: customer.email.clone(),
                    },
                    now,
                )
                .await?;
            }
            Some(before) => ca_customers::hooks::lead_updated(txn, before, &customer, now).await?,
        }
        if first {
            ca_campaigns::counters::add_conversion(txn, &campaign.id, now).await?;
            // The conversation's A/B test variant, while it still runs,
            // counts the lead too: once per visitor, like its visitors.
            if let Some(arm) = self
                .arms
                .get(txn, &campaign.id, conv.variant_id.as_deref())
                .await?
                && let Some(tally) = ca_experiments::service::lead_tally(
                    txn,
                    &arm.test_id,
                    &arm.variant_id,
                    &conv.visitor_id,
                    now,
                )
                .await?
            {
                ca_experiments::service::record(
                    txn,
                    &arm.test_id,
                    &arm.variant_id,
                    now.date_naive(),
                    tally,
                )
                .await?;
            }
            ca_customers::notifications::queue_lead(
                txn,
                &conv.owner_id,
                &customer.email,
                customer.name.as_deref(),
                &campaign.name,
                now,
            )
            .await?;
        }
        Ok(Some(RecordedLead {
            customer_id: customer.id,
            first,
        }))
    }
}

/// The customer a lead went to, and whether it was the conversation's first.
struct RecordedLead {
    customer_id: String,
    first: bool,
}
