//! Wire types of the A/B tests API.

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

/// One arm of a new test. The first is the control and changes nothing
/// (`overrides: {}`).
#[derive(Debug, Clone, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct VariantIn {
    #[serde(default)]
    #[schema(required = true, min_length = 1, max_length = 60)]
    pub name: String,
    /// Share of traffic in whole percent; the weights of a test add up to 100.
    #[schema(required = true, minimum = 0, maximum = 100)]
    pub weight: Option<serde_json::Value>,
    /// A partial campaign `settings` object, such as `{"popup": {"title": "…"}}`.
    /// Only the popup (message, design), the assistant's greeting
    /// (`aiSettings.initialMessage`), the forms and the exit-intent
    /// sensitivity and delay can be overridden.
    #[serde(default)]
    #[schema(value_type = Object)]
    pub overrides: serde_json::Value,
}

/// `POST /api/campaigns/{id}/tests`.
#[derive(Debug, Clone, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct TestIn {
    #[serde(default)]
    #[schema(required = true, min_length = 1, max_length = 120)]
    pub name: String,
    /// `conversionRate` or `revenuePerVisitor`.
    #[serde(default)]
    #[schema(required = true)]
    pub metric: String,
    /// The control first, then 1 to 3 variants.
    #[serde(default)]
    #[schema(required = true, min_items = 2, max_items = 4)]
    pub variants: Vec<VariantIn>,
    /// The maximum duration in whole days, 14 to 90 (30 when left out):
    /// after this many days without a winner the test is called
    /// inconclusive and the owner is told. No call is made before 7 days.
    #[serde(default)]
    #[schema(value_type = Option<i32>, minimum = 14, maximum = 90)]
    pub max_days: Option<serde_json::Value>,
    /// Whether the winner is promoted into the campaign by itself when the
    /// call is made (false when left out). When the control wins or the
    /// test is inconclusive the test is closed and the campaign stays as it
    /// is.
    #[serde(default)]
    #[schema(value_type = Option<bool>)]
    pub auto_promote: Option<serde_json::Value>,
}

/// `PATCH /api/campaigns/{id}/tests/{testId}`: the owner's choices for how
/// a running or paused test ends. Either field may be left out.
#[derive(Debug, Clone, Default, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct TestChangeIn {
    /// The maximum duration in whole days, 14 to 90.
    #[serde(default)]
    #[schema(value_type = Option<i32>, minimum = 14, maximum = 90)]
    pub max_days: Option<serde_json::Value>,
    /// Whether the winner is promoted into the campaign by itself.
    #[serde(default)]
    #[schema(value_type = Option<bool>)]
    pub auto_promote: Option<serde_json::Value>,
}

/// `POST /api/campaigns/{id}/tests/{testId}/promote`.
#[derive(Debug, Clone, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct PromoteIn {
    #[serde(default)]
    #[schema(required = true)]
    pub variant_id: String,
}

/// One arm's results.
#[derive(Debug, Clone, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct VariantOut {
    pub id: String,
    pub name: String,
    pub weight: i32,
    #[schema(value_type = Object)]
    pub overrides: serde_json::Value,
    pub paused: bool,
    /// Different visitors who saw this arm's popup: each counts once, however
    /// many pages they saw it on. The rates below are per visitor.
    pub visitors: i64,
    /// Times this arm's popup was shown.
    pub impressions: i64,
    pub conversations: i64,
    pub leads: i64,
    pub purchases: i64,
    /// Leads per visitor, in percent.
    pub conversion_rate: f64,
    /// The 95 % interval of the conversion rate, in percent: `[low, high]`.
    pub conversion_rate_interval: [f64; 2],
    /// Attributed revenue in rupees.
    pub revenue: f64,
    /// Revenue per visitor in rupees.
    pub revenue_per_visitor: f64,
    /// Share of the posterior in which this arm is ahead on the test's metric
    /// (0 to 1): a description of the data so far, not a decision.
    pub probability_to_be_best: f64,
    /// What the arm counted each day of the test, oldest first (days without
    /// traffic are left out): what the results chart draws.
    pub daily: Vec<DayOut>,
}

/// One day of one arm.
#[derive(Debug, Clone, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct DayOut {
    /// `YYYY-MM-DD` (UTC).
    #[schema(value_type = String, format = Date)]
    pub day: chrono::NaiveDate,
    /// Visitors the arm counted for the first time that day.
    pub visitors: i64,
    pub impressions: i64,
    pub leads: i64,
    /// Attributed revenue in rupees.
    pub revenue: f64,
}

/// The call on a test: a winner, or `winner: null` when the maximum duration
/// passed without one.
#[derive(Debug, Clone, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct DecisionOut {
    pub winner: Option<String>,
    pub at: DateTime<Utc>,
    pub reason: String,
}

/// A test with its results.
#[derive(Debug, Clone, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct TestOut {
    pub id: String,
    pub campaign_id: String,
    pub name: String,
    /// `conversionRate` or `revenuePerVisitor`.
    pub metric: String,
    /// `running`, `paused` or `closed`.
    pub status: String,
    pub version: i32,
    pub started_at: DateTime<Utc>,
    pub closed_at: Option<DateTime<Utc>>,
    /// Whole days since the start (to the close for a closed test).
    pub days: i64,
    /// Where the test stands: `tooEarly` (under 7 days), `tooFewVisitors`,
    /// `running`, `winner`, `inconclusive` or `closed`.
    pub state: String,
    pub variants: Vec<VariantOut>,
    /// The call once made (or, between a call being due and the decision
    /// worker recording it within about a minute, the call as computed).
    pub decision: Option<DecisionOut>,
    /// The maximum duration in days (14 to 90): after this many days
    /// without a winner the test is inconclusive.
    pub max_days: i32,
    /// Whether the winner is promoted into the campaign by itself.
    pub auto_promote: bool,
    /// When the owner was told of the call by email (and in their browsers
    /// with notifications on); none before the call or when the owner
    /// promoted a variant themselves.
    pub notified_at: Option<DateTime<Utc>>,
    /// The id of the version that took this test's place when the owner
    /// edited its variants (this one is then closed, with no decision, and
    /// keeps its own results); none otherwise.
    pub replaced_by: Option<String>,
}

#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct TestResponse {
    pub success: bool,
    pub data: TestOut,
}

#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct TestListResponse {
    pub success: bool,
    pub data: Vec<TestOut>,
}

/// What the widget's public config carries while a test runs: the widget
/// assigns each visitor to a variant by a hash of the visitor id and the test
/// id, in proportion to the weights (paused variants are left out).
#[derive(Debug, Clone, Serialize, PartialEq, ToSchema)]
pub struct WidgetTest {
    pub id: String,
    pub variants: Vec<WidgetVariant>,
}

/// One arm as the widget assigns it.
#[derive(Debug, Clone, Serialize, PartialEq, ToSchema)]
pub struct WidgetVariant {
    pub id: String,
    /// Share of traffic in whole percent.
    pub weight: i32,
    /// A partial campaign `settings` object laid over the campaign's.
    #[schema(value_type = Object)]
    pub overrides: serde_json::Value,
}
