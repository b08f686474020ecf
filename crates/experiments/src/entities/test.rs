//! `experiment_tests`: one A/B test of a campaign.

use sea_orm::entity::prelude::*;

#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "experiment_tests")]
pub struct Model {
    #[sea_orm(primary_key, auto_increment = false)]
    pub id: String,
    pub campaign_id: String,
    pub owner_id: String,
    pub name: String,
    /// `conversionRate` or `revenuePerVisitor`.
    pub metric: String,
    /// `running`, `paused` or `closed`.
    pub status: String,
    /// 1 for the campaign's first test, then one more for each later test.
    pub version: i32,
    pub started_at: DateTimeUtc,
    pub closed_at: Option<DateTimeUtc>,
    /// The winning variant's id, once a call is made (none when inconclusive).
    pub winner: Option<String>,
    pub decided_at: Option<DateTimeUtc>,
    pub decision_reason: Option<String>,
    /// After this many days without a winner the test is inconclusive
    /// (14 to 90, chosen by the owner).
    pub max_days: i32,
    /// Whether the winner is written into the campaign (and the test
    /// closed) as soon as the call is made, without the owner.
    pub auto_promote: bool,
    /// When the owner was told of the call (email and browser notice).
    pub notified_at: Option<DateTimeUtc>,
    /// The id of the next version, when the owner edited this test's
    /// variants: this one was closed then and keeps its own results.
    pub replaced_by: Option<String>,
    pub created_at: DateTimeUtc,
    pub updated_at: DateTimeUtc,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
