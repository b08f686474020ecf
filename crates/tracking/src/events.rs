//! Page views, impressions and engaged time: checked here, stored by the
//! batched writer before the widget is answered.

use chrono::{DateTime, Utc};

use ca_core::FieldErrors;

use crate::dto::EventIn;
use crate::writer::{Event, Kind, NotStored};
use crate::{TrackingError, TrackingService};

/// The most engaged time one report can add (half an hour: the widget
/// reports whenever the page is hidden, so a longer stretch is a stuck tab).
pub const MAX_ENGAGED_SECONDS: u64 = 1800;

impl TrackingService {
    /// Checks an event and stores it through the batched writer; `false` when
    /// it came from the owner's Preview and is not counted.
    pub async fn event(
        &self,
        input: EventIn,
        origin: Option<&str>,
        ip: &str,
        now: DateTime<Utc>,
    ) -> Result<bool, TrackingError> {
        let mut errors = FieldErrors::new();
        let kind = match input.event_type.as_str() {
            "pageview" => Some(Kind::PageView),
            "impression" => Some(Kind::Impression),
            "engagement" => {
                let seconds = input
                    .seconds
                    .as_ref()
                    .and_then(serde_json::Value::as_u64)
                    .filter(|s| (1..=MAX_ENGAGED_SECONDS).contains(s))
                    .and_then(|s| u32::try_from(s).ok());
                if seconds.is_none() {
                    errors.insert(
                        "seconds".into(),
                        vec![format!(
                            "Seconds must be a whole number from 1 to {MAX_ENGAGED_SECONDS}"
                        )],
                    );
                }
                seconds.map(|seconds| Kind::Engagement {
                    seconds,
                    new_session: input.new_session.unwrap_or(false),
                })
            }
            _ => {
                errors.insert(
                    "type".into(),
                    vec!["Event type must be pageview, impression or engagement".into()],
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
        if !campaign.is_active {
            return Err(TrackingError::CampaignInactive);
        }
        self.throttle(ip, &campaign.id).await?;
        let Some(kind) = kind else {
            return Err(TrackingError::invalid(FieldErrors::new()));
        };
        if origin
            .is_some_and(|o| crate::is_preview(o, &campaign.website_url, &self.config.public_url))
        {
            return Ok(false);
        }
        self.writer
            .push(Event {
                kind,
                owner_id: campaign.owner_id,
                campaign_id: campaign.id,
                visitor_id: input.visitor_id,
                at: now,
            })
            .await
            .map_err(|why| match why {
                NotStored::Busy => TrackingError::Busy,
                NotStored::Failed => TrackingError::NotStored,
            })?;
        Ok(true)
    }
}
