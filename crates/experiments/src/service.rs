//! The owner's A/B tests of a campaign: create (checked in full before
//! anything is written), list, read with results and the call, pause, and
//! promote the winner into the campaign. Every query filters by the owner.

use chrono::{DateTime, NaiveDate, Utc};
use std::collections::BTreeMap;

use sea_orm::sea_query::{Expr, OnConflict, Query};
use sea_orm::{
    ActiveModelTrait, ColumnTrait, ConnectionTrait, DatabaseConnection, EntityTrait,
    PaginatorTrait, QueryFilter, QueryOrder, Set,
};
use serde_json::{Map, Value};

use ca_campaigns::settings::CampaignSettings;
use ca_core::FieldErrors;

use crate::ExperimentError;
use crate::dto::{
    DayOut, DecisionOut, PromoteIn, TestChangeIn, TestIn, TestOut, VariantOut, WidgetTest,
    WidgetVariant,
};
use crate::entities::{count, exposure, test, variant};
use crate::stats::{self, Arm, Metric, Rules, Verdict};

/// Arms of a test: the control and 1 to 3 variants.
pub const MIN_ARMS: usize = 2;
pub const MAX_ARMS: usize = 4;
/// The parts of a campaign's settings a variant may change, section by
/// section (`None`: every key of the section).
const OVERRIDABLE: [(&str, Option<&[&str]>); 4] = [
    ("popup", None),
    ("aiSettings", Some(&["initialMessage"])),
    ("forms", None),
    ("exitIntent", Some(&["sensitivity", "delay"])),
];

/// The owner's maximum duration of a test in days: 30 unless chosen, from
/// 14 (two weeks after the minimum of 7 days before any call) to 90.
pub const DEFAULT_MAX_DAYS: i32 = 30;
pub const MIN_MAX_DAYS: i32 = 14;
pub const MAX_MAX_DAYS: i32 = 90;

pub const RUNNING: &str = "running";
pub const PAUSED: &str = "paused";
pub const CLOSED: &str = "closed";

/// The owner's A/B test calls.
#[derive(Clone)]
pub struct ExperimentService {
    db: DatabaseConnection,
}

fn metric_of(name: &str) -> Metric {
    if name == "revenuePerVisitor" {
        Metric::RevenuePerVisitor
    } else {
        Metric::ConversionRate
    }
}

/// `base` with `patch` laid over it: objects merge key by key, anything else
/// (arrays included) is replaced.
pub fn merge(base: &mut Value, patch: &Value) {
    match (base, patch) {
        (Value::Object(b), Value::Object(p)) => {
            for (k, v) in p {
                merge(b.entry(k.clone()).or_insert(Value::Null), v);
            }
        }
        (b, p) => *b = p.clone(),
    }
}

/// Checks one variant's overrides against the campaign's settings: only the
/// parts a test may change, and the result must be valid settings.
fn check_overrides(
    field: &str,
    overrides: &Value,
    settings: &CampaignSettings,
    errors: &mut FieldErrors,
) {
    let Value::Object(sections) = overrides else {
        errors.insert(
            field.into(),
            vec!["Overrides must be an object of campaign settings".into()],
        );
        return;
    };
    for (section, value) in sections {
        let Some((_, keys)) = OVERRIDABLE.iter().find(|(s, _)| s == section) else {
            errors.insert(
                format!("{field}.{section}"),
                vec![format!(
                    "A test cannot change \"{section}\"; it can change the popup, the greeting (aiSettings.initialMessage), the forms and the exit-intent sensitivity and delay"
                )],
            );
            continue;
        };
        let Value::Object(inner) = value else {
            errors.insert(
                format!("{field}.{section}"),
                vec!["Must be an object".into()],
            );
            continue;
        };
        if let Some(keys) = keys {
            for k in inner.keys() {
                if !keys.contains(&k.as_str()) {
                    errors.insert(
                        format!("{field}.{section}.{k}"),
                        vec![format!(
                            "A test cannot change \"{section}.{k}\"; only {}",
                            keys.join(", ")
                        )],
                    );
                }
            }
        }
    }
    if errors.keys().any(|k| k.starts_with(field)) {
        return;
    }
    let mut merged = serde_json::to_value(settings).unwrap_or(Value::Object(Map::new()));
    merge(&mut merged, overrides);
    match serde_json::from_value::<CampaignSettings>(merged) {
        Ok(mut s) => {
            for (k, msgs) in s.normalize_and_check() {
                let k = k.strip_prefix("settings.").unwrap_or(&k);
                errors.insert(format!("{field}.{k}"), msgs);
            }
        }
        Err(e) => {
            errors.insert(field.into(), vec![format!("Not valid settings: {e}")]);
        }
    }
}

/// A checked new test's arms: (name, weight, overrides).
type Arms = Vec<(String, i32, Value)>;

/// Checks the owner's maximum duration (whole days, 14 to 90) and
/// auto-promote switch as sent; `None` for a field left out.
fn check_ending(
    max_days: Option<&Value>,
    auto_promote: Option<&Value>,
    errors: &mut FieldErrors,
) -> (Option<i32>, Option<bool>) {
    let days = match max_days {
        None | Some(Value::Null) => None,
        Some(Value::Number(n)) => match n
            .as_i64()
            .filter(|d| (i64::from(MIN_MAX_DAYS)..=i64::from(MAX_MAX_DAYS)).contains(d))
        {
            Some(d) => Some(d as i32),
            None => {
                errors.insert("maxDays".into(), vec![max_days_message()]);
                None
            }
        },
        Some(_) => {
            errors.insert("maxDays".into(), vec![max_days_message()]);
            None
        }
    };
    let auto = match auto_promote {
        None | Some(Value::Null) => None,
        Some(Value::Bool(b)) => Some(*b),
        Some(_) => {
            errors.insert(
                "autoPromote".into(),
                vec!["Promote the winner automatically is true or false".into()],
            );
            None
        }
    };
    (days, auto)
}

fn max_days_message() -> String {
    format!("The maximum duration is a whole number of days from {MIN_MAX_DAYS} to {MAX_MAX_DAYS}")
}

fn validation(errors: FieldErrors) -> ExperimentError {
    let message = errors
        .values()
        .next()
        .and_then(|m| m.first())
        .cloned()
        .unwrap_or_else(|| "The test is not valid".into());
    ExperimentError::Validation { message, errors }
}

/// Checks a new test in full; nothing is written when any rule is broken.
pub fn check_test(input: &TestIn, settings: &CampaignSettings) -> Result<Arms, ExperimentError> {
    let mut errors = FieldErrors::new();
    let name = input.name.trim();
    if name.is_empty() || name.chars().count() > 120 {
        errors.insert(
            "name".into(),
            vec!["Give the test a name of 1 to 120 characters".into()],
        );
    }
    if !["conversionRate", "revenuePerVisitor"].contains(&input.metric.as_str()) {
        errors.insert(
            "metric".into(),
            vec!["The metric must be conversionRate or revenuePerVisitor".into()],
        );
    }
    let n = input.variants.len();
    if !(MIN_ARMS..=MAX_ARMS).contains(&n) {
        errors.insert(
            "variants".into(),
            vec!["A test has the control and 1 to 3 variants (2 to 4 in all)".into()],
        );
    }
    let mut arms = Vec::new();
    let mut total: i64 = 0;
    let mut weights_ok = true;
    for (i, v) in input.variants.iter().enumerate() {
        let field = format!("variants[{i}]");
        let vname = v.name.trim();
        if vname.is_empty() || vname.chars().count() > 60 {
            errors.insert(
                format!("{field}.name"),
                vec!["Give each variant a name of 1 to 60 characters".into()],
            );
        }
        let weight = match &v.weight {
            Some(Value::Number(w)) => w.as_i64().filter(|w| (0..=100).contains(w)),
            _ => None,
        };
        match weight {
            Some(w) => total += w,
            None => {
                weights_ok = false;
                errors.insert(
                    format!("{field}.weight"),
                    vec!["The weight is a whole percent from 0 to 100".into()],
                );
            }
        }
        if i == 0 {
            if v.overrides != Value::Object(Map::new()) && !v.overrides.is_null() {
                errors.insert(
                    format!("{field}.overrides"),
                    vec!["The control is the campaign as it is: its overrides must be {}".into()],
                );
            }
        } else {
            check_overrides(
                &format!("{field}.overrides"),
                &v.overrides,
                settings,
                &mut errors,
            );
        }
        let overrides = if v.overrides.is_null() {
            Value::Object(Map::new())
        } else {
            v.overrides.clone()
        };
        arms.push((vname.to_string(), weight.unwrap_or(0) as i32, overrides));
    }
    check_ending(
        input.max_days.as_ref(),
        input.auto_promote.as_ref(),
        &mut errors,
    );
    if weights_ok && n > 0 && total != 100 {
        errors.insert(
            "variants".into(),
            vec![format!(
                "The weights must add up to 100 percent; they add up to {total}"
            )],
        );
    }
    if !errors.is_empty() {
        return Err(validation(errors));
    }
    Ok(arms)
}

/// One day's increments of a variant's counters.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct Tally {
    /// Visitors the test counts for the first time (see [`record_exposures`]).
    pub visitors: i64,
    pub impressions: i64,
    pub conversations: i64,
    pub leads: i64,
    pub purchases: i64,
    pub revenue_paise: i64,
    /// What the revenue adds to the sum of squares of each visitor's
    /// revenue, in rupees² (see [`purchase_squares`]); unset, the square of
    /// `revenue_paise`, as for one order of a visitor with no revenue before.
    pub revenue_squares: Option<f64>,
}

/// Adds `tally` to a variant's counters for `day` on `conn` (the caller's
/// transaction): one upsert.
pub async fn record<C: ConnectionTrait>(
    conn: &C,
    test_id: &str,
    variant_id: &str,
    day: NaiveDate,
    tally: Tally,
) -> Result<(), sea_orm::DbErr> {
    let rupees = tally.revenue_paise as f64 / 100.0;
    let squares = tally.revenue_squares.unwrap_or(rupees * rupees);
    let row = count::ActiveModel {
        variant_id: Set(variant_id.to_string()),
        day: Set(day),
        test_id: Set(test_id.to_string()),
        visitors: Set(tally.visitors),
        impressions: Set(tally.impressions),
        conversations: Set(tally.conversations),
        leads: Set(tally.leads),
        purchases: Set(tally.purchases),
        revenue_paise: Set(tally.revenue_paise),
        revenue_squares: Set(squares),
    };
    use count::Column as C;
    use sea_orm::sea_query::ExprTrait;
    count::Entity::insert(row)
        .on_conflict(
            OnConflict::columns([C::VariantId, C::Day])
                .value(
                    C::Visitors,
                    Expr::col((count::Entity, C::Visitors)).add(tally.visitors),
                )
                .value(
                    C::Impressions,
                    Expr::col((count::Entity, C::Impressions)).add(tally.impressions),
                )
                .value(
                    C::Conversations,
                    Expr::col((count::Entity, C::Conversations)).add(tally.conversations),
                )
                .value(
                    C::Leads,
                    Expr::col((count::Entity, C::Leads)).add(tally.leads),
                )
                .value(
                    C::Purchases,
                    Expr::col((count::Entity, C::Purchases)).add(tally.purchases),
                )
                .value(
                    C::RevenuePaise,
                    Expr::col((count::Entity, C::RevenuePaise)).add(tally.revenue_paise),
                )
                .value(
                    C::RevenueSquares,
                    Expr::col((count::Entity, C::RevenueSquares)).add(squares),
                )
                .to_owned(),
        )
        .exec_without_returning(conn)
        .await?;
    Ok(())
}

/// A visitor who saw an arm of a test (one impression).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Exposure {
    pub test_id: String,
    pub variant_id: String,
    pub visitor_id: String,
    pub at: DateTime<Utc>,
}

/// A visitor and when a test first saw them.
type Seen<'a> = (&'a str, DateTime<Utc>);

/// A test counts each visitor once: remembers, on `conn` (the caller's
/// transaction), the visitors of `exposures` the test had not counted yet,
/// each with the variant and day of their first impression here. Returns
/// how many visitors each (test, variant, day) gained, for the caller to add
/// with the day's other counts ([`record`]); a visitor the test already
/// counted, in an earlier batch, on another server or earlier in these
/// exposures, adds nothing.
pub async fn first_exposures<C: ConnectionTrait>(
    conn: &C,
    exposures: &[Exposure],
) -> Result<BTreeMap<(String, String, NaiveDate), i64>, sea_orm::DbErr> {
    // Each visitor's first impression of each test in these exposures.
    let mut first: BTreeMap<(&str, &str), (&str, DateTime<Utc>)> = BTreeMap::new();
    for e in exposures {
        let seen = first
            .entry((e.test_id.as_str(), e.visitor_id.as_str()))
            .or_insert((e.variant_id.as_str(), e.at));
        if e.at < seen.1 {
            *seen = (e.variant_id.as_str(), e.at);
        }
    }
    let mut gained = BTreeMap::new();
    if first.is_empty() {
        return Ok(gained);
    }
    if conn.get_database_backend() == sea_orm::DbBackend::Postgres {
        // One statement for the batch, whose text never changes (prepared
        // once per connection), rows in key order; the rows it inserts are
        // the visitors new to their test.
        let rows: Vec<Value> = first
            .iter()
            .map(|((t, v), (a, at))| serde_json::json!({"t": t, "v": v, "a": a, "at": at}))
            .collect();
        let json =
            serde_json::to_string(&rows).map_err(|e| sea_orm::DbErr::Custom(e.to_string()))?;
        let inserted = conn
            .query_all_raw(sea_orm::Statement::from_sql_and_values(
                sea_orm::DbBackend::Postgres,
                "INSERT INTO experiment_exposures (test_id, visitor_id, variant_id, first_at) \
                 SELECT x.t, x.v, x.a, x.at \
                 FROM json_to_recordset($1::json) AS x(t text, v text, a text, at timestamptz) \
                 ON CONFLICT (test_id, visitor_id) DO NOTHING \
                 RETURNING test_id, variant_id, first_at",
                [json.into()],
            ))
            .await?;
        for row in inserted {
            let test_id: String = row.try_get("", "test_id")?;
            let variant_id: String = row.try_get("", "variant_id")?;
            let at: DateTime<Utc> = row.try_get("", "first_at")?;
            *gained
                .entry((test_id, variant_id, at.date_naive()))
                .or_insert(0) += 1;
        }
        return Ok(gained);
    }
    // SQLite, where a statement costs no round trip: one insert per arm and
    // day, grouped in key order (every writer takes the rows in the same
    // order).
    let mut groups: BTreeMap<(&str, &str, NaiveDate), Vec<Seen>> = BTreeMap::new();
    for ((test_id, visitor_id), (variant_id, at)) in first {
        groups
            .entry((test_id, variant_id, at.date_naive()))
            .or_default()
            .push((visitor_id, at));
    }
    use exposure::Column as E;
    for ((test_id, variant_id, day), visitors) in groups {
        let mut new = 0;
        for chunk in visitors.chunks(500) {
            let mut insert = Query::insert();
            insert.into_table(exposure::Entity).columns([
                E::TestId,
                E::VisitorId,
                E::VariantId,
                E::FirstAt,
            ]);
            for (visitor_id, at) in chunk {
                insert.values_panic([
                    test_id.into(),
                    (*visitor_id).into(),
                    variant_id.into(),
                    (*at).into(),
                ]);
            }
            insert.on_conflict(
                OnConflict::columns([E::TestId, E::VisitorId])
                    .do_nothing()
                    .to_owned(),
            );
            // Rows that conflicted (visitors already counted) are not
            // inserted, and so not in the count.
            new += conn.execute(&insert).await?.rows_affected() as i64;
        }
        if new > 0 {
            gained.insert((test_id.to_string(), variant_id.to_string(), day), new);
        }
    }
    Ok(gained)
}

/// A test counts one lead per visitor: whether the lead `visitor_id` just
/// left counts, on `conn` (the caller's transaction). It does when it is the
/// visitor's first in the test; a visitor the test had not counted yet (their
/// impression not stored yet) is counted now, on `variant_id`, and answered
/// as a visitor too, so the impression adds nothing later. Answers the tally
/// to record, or `None`.
pub async fn lead_tally<C: ConnectionTrait>(
    conn: &C,
    test_id: &str,
    variant_id: &str,
    visitor_id: &str,
    now: DateTime<Utc>,
) -> Result<Option<Tally>, sea_orm::DbErr> {
    use exposure::Column as E;
    let lead = Tally {
        leads: 1,
        ..Tally::default()
    };
    // Twice at most: a visitor stored by another writer after the update
    // is marked on the second round.
    for _ in 0..2 {
        let marked = exposure::Entity::update_many()
            .col_expr(E::LedAt, Expr::value(now))
            .filter(E::TestId.eq(test_id))
            .filter(E::VisitorId.eq(visitor_id))
            .filter(E::LedAt.is_null())
            .exec(conn)
            .await?;
        if marked.rows_affected > 0 {
            return Ok(Some(lead));
        }
        let known = exposure::Entity::find_by_id((test_id.to_string(), visitor_id.to_string()))
            .one(conn)
            .await?;
        match known {
            // Their lead was counted before.
            Some(k) if k.led_at.is_some() => return Ok(None),
            // Stored by another writer since the update: mark it next round.
            Some(_) => continue,
            None => {}
        }
        let inserted = exposure::Entity::insert(exposure::ActiveModel {
            test_id: Set(test_id.to_string()),
            visitor_id: Set(visitor_id.to_string()),
            variant_id: Set(variant_id.to_string()),
            first_at: Set(now),
            led_at: Set(Some(now)),
            revenue_paise: Set(0),
        })
        .on_conflict(
            OnConflict::columns([E::TestId, E::VisitorId])
                .do_nothing()
                .to_owned(),
        )
        .exec_without_returning(conn)
        .await?;
        if inserted > 0 {
            return Ok(Some(Tally {
                visitors: 1,
                ..lead
            }));
        }
    }
    Ok(None)
}

/// The spread of revenue per visitor is over each visitor's total: what an
/// order of `value_paise` by `visitor_id` adds to the sum of squares, in
/// rupees², on `conn` (the caller's transaction). For a visitor whose
/// revenue so far is r it is (r + x)² − r² = 2rx + x²; the visitor's total
/// is kept for the next order. A visitor the test never counted adds x².
pub async fn purchase_squares<C: ConnectionTrait>(
    conn: &C,
    test_id: &str,
    visitor_id: &str,
    value_paise: i64,
) -> Result<f64, sea_orm::DbErr> {
    use exposure::Column as E;
    use sea_orm::sea_query::ExprTrait;
    let x = value_paise as f64 / 100.0;
    // Added in the statement, which answers the new total: two orders of
    // one visitor at once each see the other's.
    let after = exposure::Entity::update_many()
        .col_expr(E::RevenuePaise, Expr::col(E::RevenuePaise).add(value_paise))
        .filter(E::TestId.eq(test_id))
        .filter(E::VisitorId.eq(visitor_id))
        .exec_with_returning(conn)
        .await?;
    let Some(after) = after.first() else {
        return Ok(x * x);
    };
    let r = (after.revenue_paise - value_paise) as f64 / 100.0;
    Ok(2.0 * r * x + x * x)
}

/// A visitor's variant that counts: an unpaused arm of its campaign's
/// running test.
#[derive(Debug, Clone, PartialEq)]
pub struct RunningArm {
    pub test_id: String,
    pub variant_id: String,
    /// The variant's partial campaign settings (`{}` for the control).
    pub overrides: Value,
}

impl RunningArm {
    /// The greeting the variant replaces the campaign's with, if it does
    /// (an empty one stands for the default greeting, as in the campaign).
    pub fn greeting(&self) -> Option<String> {
        let message = self.overrides.get("aiSettings")?.get("initialMessage")?;
        let message = message.as_str()?.trim();
        Some(if message.is_empty() {
            ca_campaigns::settings::DEFAULT_GREETING.to_string()
        } else {
            message.to_string()
        })
    }

    /// The campaign's settings as this variant's visitors see them; the
    /// campaign's own when the overrides no longer fit its settings.
    pub fn settings(&self, campaign: &CampaignSettings) -> CampaignSettings {
        if self.overrides.as_object().is_none_or(Map::is_empty) {
            return campaign.clone();
        }
        let Ok(mut merged) = serde_json::to_value(campaign) else {
            return campaign.clone();
        };
        merge(&mut merged, &self.overrides);
        serde_json::from_value(merged).unwrap_or_else(|_| campaign.clone())
    }
}

/// Whether `id` could be a variant id at all (anything else is ignored
/// without a look-up).
fn plausible_id(id: &str) -> bool {
    (1..=64).contains(&id.len())
        && id
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
}

/// The running test of `campaign_id` that `variant_id` belongs to, if the
/// variant is one of its unpaused arms: what a visitor's `variantId` is
/// checked against before anything is counted (any other id is ignored).
pub async fn running_variant<C: ConnectionTrait>(
    conn: &C,
    campaign_id: &str,
    variant_id: &str,
) -> Result<Option<String>, sea_orm::DbErr> {
    Ok(running_arm(conn, campaign_id, variant_id)
        .await?
        .map(|arm| arm.test_id))
}

/// [`running_variant`] with the variant's overrides: two primary-key reads.
pub async fn running_arm<C: ConnectionTrait>(
    conn: &C,
    campaign_id: &str,
    variant_id: &str,
) -> Result<Option<RunningArm>, sea_orm::DbErr> {
    if !plausible_id(variant_id) {
        return Ok(None);
    }
    let Some(v) = variant::Entity::find_by_id(variant_id.to_string())
        .one(conn)
        .await?
    else {
        return Ok(None);
    };
    if v.paused {
        return Ok(None);
    }
    let running = test::Entity::find_by_id(v.test_id.clone())
        .filter(test::Column::CampaignId.eq(campaign_id))
        .filter(test::Column::Status.eq(RUNNING))
        .one(conn)
        .await?;
    Ok(running.map(|t| RunningArm {
        test_id: t.id,
        variant_id: v.id,
        overrides: serde_json::from_str(&v.overrides).unwrap_or(Value::Object(Map::new())),
    }))
}

/// What the widget's public config carries for `campaign_id`: the running
/// test's unpaused arms with their weights and overrides, or nothing.
pub async fn widget_test<C: ConnectionTrait>(
    conn: &C,
    campaign_id: &str,
) -> Result<Option<WidgetTest>, sea_orm::DbErr> {
    let Some(t) = test::Entity::find()
        .filter(test::Column::CampaignId.eq(campaign_id))
        .filter(test::Column::Status.eq(RUNNING))
        .one(conn)
        .await?
    else {
        return Ok(None);
    };
    let variants = variants_of(conn, &t.id).await?;
    let live: Vec<WidgetVariant> = variants
        .iter()
        .filter(|v| !v.paused && v.weight > 0)
        .map(|v| WidgetVariant {
            id: v.id.clone(),
            weight: v.weight,
            overrides: serde_json::from_str(&v.overrides).unwrap_or(Value::Object(Map::new())),
        })
        .collect();
    if live.is_empty() {
        return Ok(None);
    }
    Ok(Some(WidgetTest {
        id: t.id,
        variants: live,
    }))
}

pub(crate) async fn variants_of<C: ConnectionTrait>(
    conn: &C,
    test_id: &str,
) -> Result<Vec<variant::Model>, sea_orm::DbErr> {
    variant::Entity::find()
        .filter(variant::Column::TestId.eq(test_id))
        .order_by_asc(variant::Column::Position)
        .all(conn)
        .await
}

/// Sums of one arm over its days.
#[derive(Default, Clone, Copy)]
pub(crate) struct Totals {
    visitors: i64,
    impressions: i64,
    conversations: i64,
    leads: i64,
    purchases: i64,
    revenue_paise: i64,
    revenue_squares: f64,
}

impl Totals {
    pub(crate) fn arm(&self) -> Arm {
        Arm {
            visitors: self.visitors.max(0) as u64,
            conversions: self.leads.max(0) as u64,
            revenue: self.revenue_paise as f64 / 100.0,
            revenue_squares: self.revenue_squares,
        }
    }
}

fn round(x: f64, places: i32) -> f64 {
    let f = 10f64.powi(places);
    (x * f).round() / f
}

impl ExperimentService {
    pub fn new(db: DatabaseConnection) -> Self {
        Self { db }
    }

    async fn settings(
        &self,
        owner_id: &str,
        campaign_id: &str,
    ) -> Result<CampaignSettings, ExperimentError> {
        Ok(ca_campaigns::service::settings_of(&self.db, owner_id, campaign_id).await?)
    }

    async fn find_test(
        &self,
        owner_id: &str,
        campaign_id: &str,
        test_id: &str,
    ) -> Result<test::Model, ExperimentError> {
        test::Entity::find_by_id(test_id.to_string())
            .filter(test::Column::CampaignId.eq(campaign_id))
            .filter(test::Column::OwnerId.eq(owner_id))
            .one(&self.db)
            .await?
            .ok_or(ExperimentError::TestNotFound)
    }

    /// Starts a test of one of the owner's campaigns.
    pub async fn create(
        &self,
        owner_id: &str,
        campaign_id: &str,
        input: TestIn,
    ) -> Result<TestOut, ExperimentError> {
        self.create_at(owner_id, campaign_id, input, Utc::now())
            .await
    }

    /// [`Self::create`] as of `now`.
    pub async fn create_at(
        &self,
        owner_id: &str,
        campaign_id: &str,
        input: TestIn,
        now: DateTime<Utc>,
    ) -> Result<TestOut, ExperimentError> {
        let settings = self.settings(owner_id, campaign_id).await?;
        let arms = check_test(&input, &settings)?;
        let (max_days, auto_promote) = check_ending(
            input.max_days.as_ref(),
            input.auto_promote.as_ref(),
            &mut FieldErrors::new(),
        );
        let txn = ca_core::db::begin_write(&self.db).await?;
        let open = test::Entity::find()
            .filter(test::Column::CampaignId.eq(campaign_id))
            .filter(test::Column::Status.ne(CLOSED))
            .count(&txn)
            .await?;
        if open > 0 {
            txn.rollback().await?;
            return Err(ExperimentError::AlreadyRunning);
        }
        let id = insert_test(
            &txn,
            owner_id,
            campaign_id,
            &input,
            arms,
            (max_days, auto_promote),
            now,
        )
        .await?;
        txn.commit().await?;
        ca_core::freshness::changed();
        tracing::info!(test = %id, campaign = %campaign_id, "A/B test started");
        self.get_at(owner_id, campaign_id, &id, now).await
    }

    /// Starts the next version of an open (running or paused) test with
    /// edited variants, in one transaction: the test is closed with no
    /// decision and keeps its own results (`replacedBy` names the new
    /// version), and the new version runs from zero with a new id, so every
    /// visitor is assigned again and results of different variants are
    /// never mixed. The body is checked as a new test's is (against the
    /// campaign as it is now); on a refusal nothing changes.
    pub async fn new_version(
        &self,
        owner_id: &str,
        campaign_id: &str,
        test_id: &str,
        input: TestIn,
    ) -> Result<TestOut, ExperimentError> {
        self.new_version_at(owner_id, campaign_id, test_id, input, Utc::now())
            .await
    }

    /// [`Self::new_version`] as of `now`.
    pub async fn new_version_at(
        &self,
        owner_id: &str,
        campaign_id: &str,
        test_id: &str,
        input: TestIn,
        now: DateTime<Utc>,
    ) -> Result<TestOut, ExperimentError> {
        let settings = self.settings(owner_id, campaign_id).await?;
        let old = self.find_test(owner_id, campaign_id, test_id).await?;
        if old.status == CLOSED {
            return Err(ExperimentError::Closed);
        }
        let arms = check_test(&input, &settings)?;
        let ending = check_ending(
            input.max_days.as_ref(),
            input.auto_promote.as_ref(),
            &mut FieldErrors::new(),
        );
        let txn = ca_core::db::begin_write(&self.db).await?;
        let id = insert_test(&txn, owner_id, campaign_id, &input, arms, ending, now).await?;
        // Closed only if still open: of two edits at once (or an edit and a
        // promotion) only one goes through.
        let closed = test::Entity::update_many()
            .col_expr(test::Column::Status, Expr::value(CLOSED))
            .col_expr(test::Column::ClosedAt, Expr::value(Some(now)))
            .col_expr(test::Column::ReplacedBy, Expr::value(Some(id.clone())))
            .col_expr(test::Column::UpdatedAt, Expr::value(now))
            .filter(test::Column::Id.eq(test_id))
            .filter(test::Column::Status.ne(CLOSED))
            .exec(&txn)
            .await?
            .rows_affected;
        if closed != 1 {
            txn.rollback().await?;
            return Err(ExperimentError::Closed);
        }
        txn.commit().await?;
        ca_core::freshness::changed();
        tracing::info!(test = %id, replaces = %test_id, campaign = %campaign_id, "A/B test's next version started");
        self.get_at(owner_id, campaign_id, &id, now).await
    }

    /// The campaign's tests, newest first, with their results.
    pub async fn list(
        &self,
        owner_id: &str,
        campaign_id: &str,
    ) -> Result<Vec<TestOut>, ExperimentError> {
        self.settings(owner_id, campaign_id).await?;
        let tests = test::Entity::find()
            .filter(test::Column::CampaignId.eq(campaign_id))
            .filter(test::Column::OwnerId.eq(owner_id))
            .order_by_desc(test::Column::CreatedAt)
            .order_by_desc(test::Column::Id)
            .all(&self.db)
            .await?;
        let now = Utc::now();
        let mut out = Vec::with_capacity(tests.len());
        for t in tests {
            out.push(self.results(t, now).await?);
        }
        Ok(out)
    }

    /// One test with its results and the call.
    pub async fn get(
        &self,
        owner_id: &str,
        campaign_id: &str,
        test_id: &str,
    ) -> Result<TestOut, ExperimentError> {
        self.get_at(owner_id, campaign_id, test_id, Utc::now())
            .await
    }

    /// [`Self::get`] as of `now`.
    pub async fn get_at(
        &self,
        owner_id: &str,
        campaign_id: &str,
        test_id: &str,
        now: DateTime<Utc>,
    ) -> Result<TestOut, ExperimentError> {
        let t = self.find_test(owner_id, campaign_id, test_id).await?;
        self.results(t, now).await
    }

    /// Pauses a running test (the widget stops splitting traffic) or
    /// resumes a paused one.
    pub async fn pause(
        &self,
        owner_id: &str,
        campaign_id: &str,
        test_id: &str,
    ) -> Result<TestOut, ExperimentError> {
        let t = self.find_test(owner_id, campaign_id, test_id).await?;
        if t.status == CLOSED {
            return Err(ExperimentError::Closed);
        }
        let next = if t.status == RUNNING { PAUSED } else { RUNNING };
        let txn = ca_core::db::begin_write(&self.db).await?;
        if next == RUNNING {
            let other = test::Entity::find()
                .filter(test::Column::CampaignId.eq(campaign_id))
                .filter(test::Column::Status.eq(RUNNING))
                .filter(test::Column::Id.ne(test_id))
                .count(&txn)
                .await?;
            if other > 0 {
                txn.rollback().await?;
                return Err(ExperimentError::AlreadyRunning);
            }
        }
        let mut active: test::ActiveModel = t.into();
        active.status = Set(next.into());
        active.updated_at = Set(Utc::now());
        active.update(&txn).await?;
        txn.commit().await?;
        ca_core::freshness::changed();
        self.get(owner_id, campaign_id, test_id).await
    }

    /// Pauses one variant of an open test or resumes it. A paused variant's
    /// share of visitors sees the campaign as it is and counts for no arm;
    /// the call is made on the control and the variants still running. The
    /// control cannot be paused (pause the test instead).
    pub async fn pause_variant(
        &self,
        owner_id: &str,
        campaign_id: &str,
        test_id: &str,
        variant_id: &str,
    ) -> Result<TestOut, ExperimentError> {
        let t = self.find_test(owner_id, campaign_id, test_id).await?;
        if t.status == CLOSED {
            return Err(ExperimentError::Closed);
        }
        let Some(v) = variant::Entity::find_by_id(variant_id.to_string())
            .filter(variant::Column::TestId.eq(test_id))
            .one(&self.db)
            .await?
        else {
            return Err(ExperimentError::VariantNotFound);
        };
        if v.position == 0 {
            return Err(ExperimentError::ControlNotPausable);
        }
        let txn = ca_core::db::begin_write(&self.db).await?;
        variant::Entity::update_many()
            .col_expr(variant::Column::Paused, Expr::value(!v.paused))
            .filter(variant::Column::Id.eq(variant_id))
            .exec(&txn)
            .await?;
        test::Entity::update_many()
            .col_expr(test::Column::UpdatedAt, Expr::value(Utc::now()))
            .filter(test::Column::Id.eq(test_id))
            .exec(&txn)
            .await?;
        txn.commit().await?;
        ca_core::freshness::changed();
        tracing::info!(test = %test_id, variant = %variant_id, paused = !v.paused, "A/B variant paused or resumed");
        self.get(owner_id, campaign_id, test_id).await
    }

    /// Changes how an open (running or paused) test ends: its maximum
    /// duration and whether the winner is promoted by itself. The test keeps
    /// its version, its counts and its start. An inconclusive call that a
    /// longer maximum duration makes early is taken back: the test goes on
    /// and is called again (and the owner told again) when due.
    pub async fn change(
        &self,
        owner_id: &str,
        campaign_id: &str,
        test_id: &str,
        input: TestChangeIn,
    ) -> Result<TestOut, ExperimentError> {
        self.change_at(owner_id, campaign_id, test_id, input, Utc::now())
            .await
    }

    /// [`Self::change`] as of `now`.
    pub async fn change_at(
        &self,
        owner_id: &str,
        campaign_id: &str,
        test_id: &str,
        input: TestChangeIn,
        now: DateTime<Utc>,
    ) -> Result<TestOut, ExperimentError> {
        let t = self.find_test(owner_id, campaign_id, test_id).await?;
        let mut errors = FieldErrors::new();
        let (days, auto) = check_ending(
            input.max_days.as_ref(),
            input.auto_promote.as_ref(),
            &mut errors,
        );
        if !errors.is_empty() {
            return Err(validation(errors));
        }
        if days.is_none() && auto.is_none() {
            return Err(ExperimentError::field(
                "maxDays",
                "Send the maximum duration (maxDays), autoPromote or both",
            ));
        }
        if t.status == CLOSED {
            return Err(ExperimentError::Closed);
        }
        let txn = ca_core::db::begin_write(&self.db).await?;
        let mut update = test::Entity::update_many()
            .col_expr(test::Column::UpdatedAt, Expr::value(now))
            .filter(test::Column::Id.eq(test_id))
            .filter(test::Column::Status.ne(CLOSED));
        if let Some(d) = days {
            update = update.col_expr(test::Column::MaxDays, Expr::value(d));
            if t.decided_at.is_some() && t.winner.is_none() && elapsed_days(&t, now) < f64::from(d)
            {
                update = update
                    .col_expr(
                        test::Column::DecidedAt,
                        Expr::value(Option::<DateTime<Utc>>::None),
                    )
                    .col_expr(
                        test::Column::DecisionReason,
                        Expr::value(Option::<String>::None),
                    )
                    .col_expr(
                        test::Column::NotifiedAt,
                        Expr::value(Option::<DateTime<Utc>>::None),
                    );
            }
        }
        if let Some(a) = auto {
            update = update.col_expr(test::Column::AutoPromote, Expr::value(a));
        }
        let changed = update.exec(&txn).await?.rows_affected;
        if changed == 0 {
            txn.rollback().await?;
            return Err(ExperimentError::Closed);
        }
        txn.commit().await?;
        tracing::info!(test = %test_id, max_days = ?days, auto_promote = ?auto, "A/B test's ending changed");
        self.get_at(owner_id, campaign_id, test_id, now).await
    }

    /// Writes the variant's overrides into the campaign's settings and closes
    /// the test, in one transaction.
    pub async fn promote(
        &self,
        owner_id: &str,
        campaign_id: &str,
        test_id: &str,
        input: PromoteIn,
    ) -> Result<TestOut, ExperimentError> {
        let t = self.find_test(owner_id, campaign_id, test_id).await?;
        if t.status == CLOSED {
            return Err(ExperimentError::Closed);
        }
        let variants = variants_of(&self.db, test_id).await?;
        let Some(winner) = variants.iter().find(|v| v.id == input.variant_id) else {
            return Err(ExperimentError::field(
                "variantId",
                "Choose one of this test's variants to promote",
            ));
        };
        let now = Utc::now();
        let txn = ca_core::db::begin_write(&self.db).await?;
        let reason = format!("\"{}\" promoted by the owner", winner.name);
        if let Err(e) = promote_in(&txn, &t, winner, reason, now).await {
            txn.rollback().await?;
            return Err(e);
        }
        txn.commit().await?;
        ca_core::freshness::changed();
        tracing::info!(test = %test_id, variant = %input.variant_id, "A/B test promoted");
        self.get_at(owner_id, campaign_id, test_id, now).await
    }

    async fn results(
        &self,
        t: test::Model,
        now: DateTime<Utc>,
    ) -> Result<TestOut, ExperimentError> {
        let variants = variants_of(&self.db, &t.id).await?;
        let (rows, totals) = totals_of(&self.db, &t.id, &variants).await?;
        let metric = metric_of(&t.metric);
        let arms: Vec<Arm> = totals.iter().map(Totals::arm).collect();
        let best = stats::probability_to_be_best(&arms, metric);
        let call = call_of(&t, &variants, &arms, now);
        let elapsed = call.elapsed;
        let state = call.state;
        // A read writes nothing: the decision worker records the call (and
        // tells the owner); until it has, the call is shown as computed.
        let decision = if let Some(at) = t.decided_at {
            Some(DecisionOut {
                winner: t.winner.clone(),
                at,
                reason: t.decision_reason.clone().unwrap_or_default(),
            })
        } else if t.status == CLOSED {
            // Replaced by its next version: closed without a call.
            None
        } else {
            call.due.map(|(winner, reason)| DecisionOut {
                winner: winner.map(|i| variants[i].id.clone()),
                at: now,
                reason,
            })
        };
        let variants = variants
            .iter()
            .zip(totals.iter())
            .zip(best.iter())
            .map(|((v, tot), p)| {
                let arm = tot.arm();
                let (lo, hi) = stats::wilson_interval(arm.conversions, arm.visitors, stats::Z_95);
                VariantOut {
                    id: v.id.clone(),
                    name: v.name.clone(),
                    weight: v.weight,
                    overrides: serde_json::from_str(&v.overrides)
                        .unwrap_or(Value::Object(Map::new())),
                    paused: v.paused,
                    visitors: tot.visitors,
                    impressions: tot.impressions,
                    conversations: tot.conversations,
                    leads: tot.leads,
                    purchases: tot.purchases,
                    conversion_rate: round(arm.conversion_rate() * 100.0, 2),
                    conversion_rate_interval: [round(lo * 100.0, 2), round(hi * 100.0, 2)],
                    revenue: round(tot.revenue_paise as f64 / 100.0, 2),
                    revenue_per_visitor: round(arm.revenue_per_visitor(), 2),
                    probability_to_be_best: round(*p, 4),
                    daily: {
                        let mut days: Vec<DayOut> = rows
                            .iter()
                            .filter(|r| r.variant_id == v.id)
                            .map(|r| DayOut {
                                day: r.day,
                                visitors: r.visitors,
                                impressions: r.impressions,
                                leads: r.leads,
                                revenue: round(r.revenue_paise as f64 / 100.0, 2),
                            })
                            .collect();
                        days.sort_by_key(|d| d.day);
                        days
                    },
                }
            })
            .collect();
        Ok(TestOut {
            id: t.id,
            campaign_id: t.campaign_id,
            name: t.name,
            metric: t.metric,
            state: if t.status == CLOSED {
                "closed".into()
            } else {
                state.into()
            },
            status: t.status,
            version: t.version,
            started_at: t.started_at,
            closed_at: t.closed_at,
            days: (elapsed.floor()) as i64,
            variants,
            decision,
            max_days: t.max_days,
            auto_promote: t.auto_promote,
            notified_at: t.notified_at,
            replaced_by: t.replaced_by,
        })
    }
}

/// Writes a new running test of the campaign with its arms, on `conn` (the
/// caller's write transaction): version one more than the campaign's tests
/// so far. Returns its id.
async fn insert_test<C: ConnectionTrait>(
    conn: &C,
    owner_id: &str,
    campaign_id: &str,
    input: &TestIn,
    arms: Arms,
    (max_days, auto_promote): (Option<i32>, Option<bool>),
    now: DateTime<Utc>,
) -> Result<String, sea_orm::DbErr> {
    let earlier = test::Entity::find()
        .filter(test::Column::CampaignId.eq(campaign_id))
        .count(conn)
        .await?;
    let id = ca_core::ids::new_id().to_string();
    test::ActiveModel {
        id: Set(id.clone()),
        campaign_id: Set(campaign_id.to_string()),
        owner_id: Set(owner_id.to_string()),
        name: Set(input.name.trim().to_string()),
        metric: Set(input.metric.clone()),
        status: Set(RUNNING.into()),
        version: Set(i32::try_from(earlier).unwrap_or(i32::MAX - 1) + 1),
        started_at: Set(now),
        closed_at: Set(None),
        winner: Set(None),
        decided_at: Set(None),
        decision_reason: Set(None),
        max_days: Set(max_days.unwrap_or(DEFAULT_MAX_DAYS)),
        auto_promote: Set(auto_promote.unwrap_or(false)),
        notified_at: Set(None),
        replaced_by: Set(None),
        created_at: Set(now),
        updated_at: Set(now),
    }
    .insert(conn)
    .await?;
    for (position, (name, weight, overrides)) in arms.into_iter().enumerate() {
        variant::ActiveModel {
            id: Set(ca_core::ids::new_id().to_string()),
            test_id: Set(id.clone()),
            position: Set(position as i32),
            name: Set(name),
            weight: Set(weight),
            overrides: Set(overrides.to_string()),
            paused: Set(false),
        }
        .insert(conn)
        .await?;
    }
    Ok(id)
}

/// A test's day rows and each arm's sums over them (arms in `variants`
/// order).
pub(crate) async fn totals_of<C: ConnectionTrait>(
    conn: &C,
    test_id: &str,
    variants: &[variant::Model],
) -> Result<(Vec<count::Model>, Vec<Totals>), sea_orm::DbErr> {
    let rows = count::Entity::find()
        .filter(count::Column::TestId.eq(test_id))
        .all(conn)
        .await?;
    let totals = variants
        .iter()
        .map(|v| {
            rows.iter()
                .filter(|r| r.variant_id == v.id)
                .fold(Totals::default(), |mut a, r| {
                    a.visitors += r.visitors;
                    a.impressions += r.impressions;
                    a.conversations += r.conversations;
                    a.leads += r.leads;
                    a.purchases += r.purchases;
                    a.revenue_paise += r.revenue_paise;
                    a.revenue_squares += r.revenue_squares;
                    a
                })
        })
        .collect();
    Ok((rows, totals))
}

/// Days since the test started (to its close for a closed test).
fn elapsed_days(t: &test::Model, now: DateTime<Utc>) -> f64 {
    let end = t.closed_at.unwrap_or(now);
    (end - t.started_at).num_seconds().max(0) as f64 / 86_400.0
}

/// Where a test stands at one look, and the call it is due if any.
pub(crate) struct Call {
    /// Days since the start.
    pub elapsed: f64,
    /// `tooEarly`, `tooFewVisitors`, `running`, `winner` or `inconclusive`.
    pub state: &'static str,
    /// The winning arm (an index into the test's variants; none when
    /// inconclusive) and the reason, when a call is due.
    pub due: Option<(Option<usize>, String)>,
}

/// The call on `t` from its arms' sums (`arms` in `variants` order): made
/// on the control and the variants still running, after at least 7 days,
/// with the owner's maximum duration.
pub(crate) fn call_of(
    t: &test::Model,
    variants: &[variant::Model],
    arms: &[Arm],
    now: DateTime<Utc>,
) -> Call {
    let metric = metric_of(&t.metric);
    let elapsed = elapsed_days(t, now);
    let live: Vec<usize> = variants
        .iter()
        .enumerate()
        .filter(|(i, v)| *i == 0 || !v.paused)
        .map(|(i, _)| i)
        .collect();
    let live_arms: Vec<Arm> = live.iter().map(|&i| arms[i]).collect();
    let rules = Rules {
        max_days: f64::from(t.max_days),
        ..Rules::default()
    };
    let (state, due) = match stats::decide(&live_arms, metric, &rules, elapsed) {
        Verdict::TooEarly => ("tooEarly", None),
        Verdict::TooFewVisitors => ("tooFewVisitors", None),
        Verdict::Running => ("running", None),
        Verdict::Winner(i) => {
            let reason = if i == 0 {
                "Every variant is behind the control beyond doubt".to_string()
            } else {
                format!(
                    "\"{}\" is ahead of the control beyond doubt (always-valid 95 % test, after at least 7 days and enough visitors)",
                    variants[live[i]].name
                )
            };
            ("winner", Some((Some(live[i]), reason)))
        }
        Verdict::Inconclusive => (
            "inconclusive",
            Some((
                None,
                format!(
                    "No variant differs from the control beyond doubt after the maximum duration of {} days",
                    t.max_days
                ),
            )),
        ),
    };
    Call {
        elapsed,
        state,
        due,
    }
}

/// Writes `winner`'s overrides into the campaign's settings and closes `t`
/// with `winner` and `reason`, on `conn` (the caller's transaction, which
/// the caller rolls back on an error).
pub(crate) async fn promote_in<C: ConnectionTrait>(
    conn: &C,
    t: &test::Model,
    winner: &variant::Model,
    reason: String,
    now: DateTime<Utc>,
) -> Result<(), ExperimentError> {
    let settings = ca_campaigns::service::settings_of(conn, &t.owner_id, &t.campaign_id).await?;
    let mut merged = serde_json::to_value(&settings)
        .map_err(|e| ca_core::error::InfraError::Other(e.to_string()))?;
    let overrides: Value =
        serde_json::from_str(&winner.overrides).unwrap_or(Value::Object(Map::new()));
    merge(&mut merged, &overrides);
    let new_settings: CampaignSettings = serde_json::from_value(merged).map_err(|e| {
        ExperimentError::field(
            "variantId",
            format!("The variant's settings no longer apply to the campaign: {e}"),
        )
    })?;
    // Closed first: of two promotions at once (the owner's and the worker's)
    // only one writes the campaign.
    if !close_in(conn, &t.id, Some(&winner.id), &reason, now).await? {
        return Err(ExperimentError::Closed);
    }
    ca_campaigns::service::write_settings(conn, &t.owner_id, &t.campaign_id, new_settings).await?;
    Ok(())
}

/// Closes the open test `test_id` with its call, on `conn`; false when it
/// was already closed.
pub(crate) async fn close_in<C: ConnectionTrait>(
    conn: &C,
    test_id: &str,
    winner: Option<&str>,
    reason: &str,
    now: DateTime<Utc>,
) -> Result<bool, sea_orm::DbErr> {
    let closed = test::Entity::update_many()
        .col_expr(test::Column::Status, Expr::value(CLOSED))
        .col_expr(test::Column::ClosedAt, Expr::value(Some(now)))
        .col_expr(
            test::Column::Winner,
            Expr::value(winner.map(str::to_string)),
        )
        .col_expr(test::Column::DecidedAt, Expr::value(Some(now)))
        .col_expr(
            test::Column::DecisionReason,
            Expr::value(reason.to_string()),
        )
        .col_expr(test::Column::UpdatedAt, Expr::value(now))
        .filter(test::Column::Id.eq(test_id))
        .filter(test::Column::Status.ne(CLOSED))
        .exec(conn)
        .await?
        .rows_affected;
    Ok(closed == 1)
}
