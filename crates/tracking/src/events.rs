//! Page views, impressions and engaged time: checked here, stored by the
//! batched writer before the widget is answered.

use chrono::{DateTime, Utc};

use ca_core::FieldErrors;
use ca_core::rate_limit::Limit;

use crate::TrackingError;
use crate::dto::{EventIn, EventKind};
use crate::event::{Arm, Event, Kind};
use crate::service::TrackingService;
use crate::writer::NotStored;

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
        let kind = match input.event_type {
            Some(EventKind::Pageview) => Some(Kind::PageView),
            Some(EventKind::Impression) => Some(Kind::Impression),
            Some(EventKind::Engagement) => {
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
            None => {
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
        if origin.is_some_and(|o| {
            crate::origin::is_preview(o, &campaign.website_url, &self.config.public_url)
        }) {
            return Ok(false);
        }
        let counts_visitor = match kind {
            Kind::PageView => {
                self.address_admits(ip, &campaign.id, &input.visitor_id, now)
                    .await
            }
            _ => true,
        };
        // An impression counts for the visitor's A/B test variant while that
        // is an unpaused arm of the campaign's running test.
        let arm = match kind {
            Kind::Impression => self
                .arms
                .get(&self.db, &campaign.id, input.variant_id.as_deref())
                .await?
                .map(|a| Arm {
                    test_id: a.test_id.clone(),
                    variant_id: a.variant_id.clone(),
                }),
            _ => None,
        };
        self.writer
            .push(Event {
                kind,
                owner_id: campaign.owner_id,
                campaign_id: campaign.id,
                visitor_id: input.visitor_id,
                at: now,
                counts_visitor,
                arm,
            })
            .await
            .map_err(|why| match why {
                NotStored::Busy => TrackingError::Busy,
                NotStored::Failed => TrackingError::NotStored,
            })?;
        Ok(true)
    }
}

impl TrackingService {
    /// Whether a page view of `visitor_id` from the client address `ip`
    /// counts toward the owner's monthly visitors: each address adds at most
    /// `new_visitors_per_address` distinct visitor ids per campaign per day
    /// (visitor ids are made by the browser, so one machine could otherwise
    /// invent thousands and use up the owner's quota). The address is kept
    /// only as a hash salted with the day, never as it was sent.
    async fn address_admits(
        &self,
        ip: &str,
        campaign_id: &str,
        visitor_id: &str,
        now: DateTime<Utc>,
    ) -> bool {
        let day = now.format("%Y-%m-%d").to_string();
        let address = address_hash(&self.config.address_secret, &day, ip);
        self.limiter
            .admit_member(
                &format!("newvisitors:{campaign_id}:{address}:{day}"),
                visitor_id,
                Limit::new(self.config.new_visitors_per_address, 26 * 3600),
            )
            .await
    }
}

/// The client address `ip` as a hash salted with the day: the same address
/// gives the same value within a day, and nothing links it to the address
/// or to its value on another day.
fn address_hash(secret: &str, day: &str, ip: &str) -> String {
    use sha2::{Digest, Sha256};
    let salt = Sha256::digest(format!("{secret}|{day}").as_bytes());
    let mut h = Sha256::new();
    h.update(salt);
    h.update(ip.as_bytes());
    hex::encode(&h.finalize()[..12])
}

#[cfg(test)]
mod tests {
    use super::address_hash;

    #[test]
    fn addresses_are_kept_as_daily_salted_hashes() {
        let a = address_hash("s", "2026-11-26", "203.0.113.9");
        assert_eq!(a, address_hash("s", "2026-11-26", "203.0.113.9"));
        assert_ne!(a, address_hash("s", "2026-11-27", "203.0.113.9"));
        assert_ne!(a, address_hash("s", "2026-11-26", "203.0.113.10"));
        assert_ne!(a, address_hash("t", "2026-11-26", "203.0.113.9"));
        assert!(!a.contains("203"));
        assert_eq!(a.len(), 24);
    }
}
