//! Page views and impressions: checked here, stored by the batched writer.

use chrono::{DateTime, Utc};

use ca_core::FieldErrors;

use crate::dto::EventIn;
use crate::writer::{Event, Kind};
use crate::{TrackingError, TrackingService};

impl TrackingService {
    /// Checks an event and queues it for the batched writer.
    pub async fn event(
        &self,
        input: EventIn,
        origin: Option<&str>,
        ip: &str,
        now: DateTime<Utc>,
    ) -> Result<(), TrackingError> {
        let mut errors = FieldErrors::new();
        let kind = match input.event_type.as_str() {
            "pageview" => Some(Kind::PageView),
            "impression" => Some(Kind::Impression),
            _ => {
                errors.insert(
                    "type".into(),
                    vec!["Event type must be pageview or impression".into()],
                );
                None
            }
        };
        if !ca_core::validation::client_token(&input.visitor_id) {
            errors.insert(
                "visitorId".into(),
                vec!["Visitor id must be 8 to 64 letters, digits, - or _".into()],
            );
        }
        if !errors.is_empty() {
            return Err(TrackingError::invalid(errors));
        }
        let campaign = self.site(&input.campaign_id).await?;
        self.check_origin(origin, &campaign.website_url)?;
        self.throttle(ip, &campaign.id).await?;
        let Some(kind) = kind else {
            return Err(TrackingError::invalid(FieldErrors::new()));
        };
        let queued = self
            .writer
            .push(Event {
                kind,
                owner_id: campaign.owner_id,
                campaign_id: campaign.id,
                visitor_id: input.visitor_id,
                at: now,
            })
            .await;
        if queued {
            Ok(())
        } else {
            Err(TrackingError::ShuttingDown)
        }
    }
}
