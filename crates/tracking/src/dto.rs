//! Wire types of the widget's configuration, event and purchase calls.

use ca_campaigns::settings::{ExitIntentSettings, PopupSettings, TargetingSettings};
use ca_conversations::dto::PublicForm;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

/// What the widget needs to run a campaign; never the knowledge base,
/// business info or custom instructions.
#[derive(Debug, Clone, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct PublicCampaign {
    pub id: String,
    pub exit_intent: ExitIntentSettings,
    pub popup: PopupSettings,
    pub targeting: TargetingSettings,
    /// The assistant's greeting.
    pub greeting: String,
    /// The popup's email field as a form (`id` = `email-capture`).
    pub email_capture: PublicForm,
    /// The running A/B test, absent when none runs.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub test: Option<ca_experiments::dto::WidgetTest>,
}

/// `GET /api/widget/campaigns/{id}/config`.
#[derive(Debug, Clone, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct PublicConfigOut {
    pub success: bool,
    /// False: the widget does nothing on this page load.
    pub active: bool,
    /// Why not active: `inactive` (switched off), `plan_inactive` (the owner's
    /// plan does not cover campaigns), `visitor_limit` (the month's visitors are used up),
    /// `paused` (staff suspended the owner's account and paused its widget).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub campaign: Option<PublicCampaign>,
}

/// The kinds of widget event (`EventIn.type`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum EventKind {
    Pageview,
    Impression,
    Engagement,
}

/// `POST /api/widget/events` (JSON, also sent as `text/plain` by `sendBeacon`).
#[derive(Debug, Clone, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct EventIn {
    #[serde(default)]
    #[schema(required = true, min_length = 1, pattern = r"\S")]
    pub campaign_id: String,
    #[serde(default)]
    #[schema(required = true, pattern = r"^[A-Za-z0-9_\-]{8,64}$")]
    pub visitor_id: String,
    /// `pageview`, `impression` or `engagement` (engaged time on a page).
    #[serde(
        default,
        rename = "type",
        deserialize_with = "ca_core::validation::lenient"
    )]
    #[schema(required = true, value_type = EventKind, inline)]
    pub event_type: Option<EventKind>,
    /// `engagement` only: whole seconds of engaged time not reported before, 1–1800.
    #[serde(default)]
    #[schema(value_type = Option<i64>, minimum = 1, maximum = 1800)]
    pub seconds: Option<serde_json::Value>,
    /// `engagement` only: this report begins a new browsing session.
    #[serde(default)]
    pub new_session: Option<bool>,
    /// `impression` only: the A/B test variant the widget assigned this
    /// visitor (an `id` of the public config's `campaign.test.variants`).
    /// While it is an unpaused variant of the campaign's running test the
    /// impression counts for it; any other value is ignored (never an error).
    #[serde(default, deserialize_with = "ca_core::validation::lenient")]
    #[schema(max_length = 64)]
    pub variant_id: Option<String>,
}

/// `POST /api/widget/purchases`: what `caTrack('purchase', {value, currency, orderId})` sends.
#[derive(Debug, Clone, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct PurchaseIn {
    #[serde(default)]
    #[schema(required = true, min_length = 1, pattern = r"\S")]
    pub campaign_id: String,
    #[serde(default)]
    #[schema(required = true, pattern = r"^[A-Za-z0-9_\-]{8,64}$")]
    pub visitor_id: String,
    /// The order total in rupees (up to 2 decimals, at most 10,000,000,000).
    #[schema(
        value_type = f64,
        minimum = 0.01,
        maximum = 10_000_000_000.0,
        multiple_of = 0.01
    )]
    pub value: Option<serde_json::Value>,
    /// `INR`.
    #[serde(default)]
    #[schema(value_type = Option<Currency>, inline)]
    pub currency: Option<String>,
    #[serde(default)]
    #[schema(required = true, min_length = 1, max_length = 100, pattern = r"\S")]
    pub order_id: String,
    /// The A/B test variant the widget assigned this visitor on the campaign
    /// `campaignId` (an `id` of the public config's `campaign.test.variants`).
    /// While it is an unpaused variant of the campaign's running test, the
    /// purchase and its value count for it (a new order id, not above the
    /// campaign's largest believable order); any other value is ignored
    /// (never an error).
    #[serde(default, deserialize_with = "ca_core::validation::lenient")]
    #[schema(max_length = 64)]
    pub variant_id: Option<String>,
}

/// The answer to a purchase.
#[derive(Debug, Clone, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct PurchaseOut {
    pub success: bool,
    /// The order id was recorded before: nothing was counted again.
    pub duplicate: bool,
    /// The campaign the revenue went to (a visitor who converted on or
    /// interacted with it within the attribution window), if any.
    pub attributed_campaign_id: Option<String>,
    /// Above the campaign's largest believable order (its revenue settings):
    /// kept, but not added to any revenue.
    pub held: bool,
}

/// `{success, counted}`: the event is stored.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct AcceptedOut {
    pub success: bool,
    /// False for events from the owner's Preview page (this server's own
    /// origin, not the campaign's website): accepted, never counted.
    pub counted: bool,
}

/// The one currency purchases are tracked in, for the API document.
#[derive(ToSchema)]
#[allow(dead_code, clippy::upper_case_acronyms)]
pub enum Currency {
    INR,
}
