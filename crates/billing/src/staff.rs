//! What staff do with billing: manage plans, set an owner's plan by hand,
//! and read payment figures for the admin area.

use std::collections::HashMap;

use chrono::{DateTime, Datelike, Duration, Months, TimeZone, Utc};
use sea_orm::{
    ActiveModelTrait, ColumnTrait, ConnectionTrait, EntityTrait, PaginatorTrait, QueryFilter,
    QueryOrder, Set,
};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use ca_auth::entities::user;
use ca_core::FieldErrors;

use crate::BillingError;
use crate::dto::{PlanLimits, PlanOut};
use crate::entities::payment::CheckoutMode;
use crate::entities::{payment, plan, subscription};
use crate::plans::FREE_PLAN;

/// A plan as staff create or change it. `id` (on create) defaults to the
/// name; the name is lower-cased with spaces as hyphens.
#[derive(Debug, Clone, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct PlanIn {
    pub id: Option<String>,
    #[serde(default)]
    pub name: String,
    #[serde(default)]
    pub display_name: String,
    /// Whole units of `currency` per `interval`, 0 or more.
    #[serde(default)]
    #[schema(minimum = 0)]
    pub price: i64,
    /// An ISO 4217 code (default INR); any other code is refused. Checkout
    /// charges INR only: a plan in another currency is shown to owners with
    /// "Contact sales" and staff put owners on it by hand.
    pub currency: Option<String>,
    /// `monthly` (default) or `yearly`: a yearly plan is charged its price
    /// once a year and its period lasts a year.
    pub interval: Option<String>,
    #[serde(default)]
    pub features: Vec<String>,
    pub limits: PlanLimits,
    #[serde(default)]
    pub popular: bool,
    /// Default true.
    pub active: Option<bool>,
    #[serde(default)]
    #[schema(minimum = 0)]
    pub sort_order: i32,
}

/// A plan with how many accounts are on it.
#[derive(Debug, Clone, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct AdminPlanOut {
    #[serde(flatten)]
    pub plan: PlanOut,
    pub subscribers: u64,
}

/// `name` as plans are named: lower case, spaces become hyphens.
pub fn plan_slug(name: &str) -> String {
    name.trim()
        .to_lowercase()
        .split_whitespace()
        .collect::<Vec<_>>()
        .join("-")
}

/// Visitors per month go in steps of this many (or -1 for unlimited).
pub const VISITORS_STEP: i64 = 1000;

fn check_plan(input: &mut PlanIn) -> Result<(), BillingError> {
    let mut errors = FieldErrors::new();
    input.name = plan_slug(&input.name);
    input.display_name = input.display_name.trim().to_string();
    if input.name.is_empty() || input.display_name.is_empty() {
        errors.insert(
            "name".into(),
            vec!["Plan name and display name are required".into()],
        );
    } else if input.name.len() > 64
        || !input
            .name
            .chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-')
    {
        errors.insert(
            "name".into(),
            vec!["Plan name may use lowercase letters, digits and hyphens (at most 64)".into()],
        );
    }
    if input.display_name.chars().count() > 80 {
        errors.insert(
            "displayName".into(),
            vec!["Display name must be at most 80 characters".into()],
        );
    }
    let mut features: Vec<String> = Vec::new();
    for f in &input.features {
        let f = f.trim();
        if !f.is_empty() && !features.iter().any(|x| x == f) {
            features.push(f.chars().take(200).collect());
        }
    }
    input.features = features;
    if input.features.is_empty() {
        errors.insert(
            "features".into(),
            vec!["At least one feature is required".into()],
        );
    } else if input.features.len() > 30 {
        errors.insert("features".into(), vec!["At most 30 features".into()]);
    }
    if !(0..=10_000_000).contains(&input.price) {
        errors.insert("price".into(), vec!["Price must be 0 or more".into()]);
    }
    if input.sort_order < 0 {
        errors.insert(
            "sortOrder".into(),
            vec!["Sort order must be 0 or more".into()],
        );
    }
    let currency = input
        .currency
        .as_deref()
        .map(|c| c.trim().to_uppercase())
        .filter(|c| !c.is_empty())
        .unwrap_or_else(|| "INR".into());
    if !crate::currency::is_iso_4217(&currency) {
        errors.insert(
            "currency".into(),
            vec![format!(
                "Currency must be an ISO 4217 code such as INR, USD or EUR; {} is not one",
                currency.chars().take(12).collect::<String>()
            )],
        );
    }
    input.currency = Some(currency);
    let interval = input
        .interval
        .as_deref()
        .map(|i| i.trim().to_lowercase())
        .filter(|i| !i.is_empty())
        .unwrap_or_else(|| "monthly".into());
    if !matches!(interval.as_str(), "monthly" | "yearly") {
        errors.insert(
            "interval".into(),
            vec!["Billing interval must be monthly or yearly".into()],
        );
    }
    input.interval = Some(interval);
    let l = &input.limits;
    if l.campaigns != -1 && !(1..=999).contains(&l.campaigns) {
        errors.insert(
            "limits.campaigns".into(),
            vec!["Campaigns must be 1 to 999 (or -1 for unlimited)".into()],
        );
    }
    if l.visitors_per_month != -1
        && (l.visitors_per_month < VISITORS_STEP || l.visitors_per_month % VISITORS_STEP != 0)
    {
        errors.insert(
            "limits.visitorsPerMonth".into(),
            vec![
                "Visitors per month must be a multiple of 1,000 (1,000 or more), or -1 for unlimited"
                    .into(),
            ],
        );
    }
    if l.ai_conversations != -1 && l.ai_conversations < 0 {
        errors.insert(
            "limits.aiConversations".into(),
            vec!["AI conversations must be 0 or more (or -1 for unlimited)".into()],
        );
    }
    if errors.is_empty() {
        Ok(())
    } else {
        Err(BillingError::invalid(errors))
    }
}

fn apply(active: &mut plan::ActiveModel, input: PlanIn, now: DateTime<Utc>) {
    active.name = Set(input.name);
    active.display_name = Set(input.display_name);
    active.price = Set(input.price);
    active.currency = Set(input.currency.unwrap_or_else(|| "INR".into()));
    active.interval = Set(input.interval.unwrap_or_else(|| "monthly".into()));
    active.features = Set(serde_json::to_string(&input.features).unwrap_or_else(|_| "[]".into()));
    active.limit_campaigns = Set(input.limits.campaigns);
    active.limit_visitors_per_month = Set(input.limits.visitors_per_month);
    active.limit_ai_conversations = Set(input.limits.ai_conversations);
    active.custom_branding = Set(input.limits.custom_branding);
    active.api_access = Set(input.limits.api_access);
    active.white_label = Set(input.limits.white_label);
    active.priority_support = Set(input.limits.priority_support);
    active.phone_support = Set(input.limits.phone_support);
    active.popular = Set(input.popular);
    active.sort_order = Set(input.sort_order);
    active.updated_at = Set(now);
}

/// Every plan, active or not, with its subscribers.
pub async fn plans_with_subscribers<C: ConnectionTrait>(
    conn: &C,
) -> Result<Vec<AdminPlanOut>, BillingError> {
    let plans = plan::Entity::find()
        .order_by_asc(plan::Column::SortOrder)
        .order_by_asc(plan::Column::Price)
        .all(conn)
        .await?;
    let users = user::Entity::find().all(conn).await?;
    let now = Utc::now();
    let mut counts: HashMap<String, u64> = HashMap::new();
    for u in &users {
        let on = if ca_auth::dto::on_plan(u, now) {
            u.plan_id.as_str()
        } else {
            FREE_PLAN
        };
        *counts.entry(on.to_string()).or_default() += 1;
    }
    Ok(plans
        .iter()
        .map(|p| AdminPlanOut {
            plan: PlanOut::from(p),
            subscribers: counts.get(&p.id).copied().unwrap_or(0),
        })
        .collect())
}

/// Creates a plan; its id is the given id or the name.
pub async fn create_plan<C: ConnectionTrait>(
    conn: &C,
    mut input: PlanIn,
) -> Result<PlanOut, BillingError> {
    check_plan(&mut input)?;
    let id = input
        .id
        .as_deref()
        .map(plan_slug)
        .filter(|i| !i.is_empty())
        .unwrap_or_else(|| input.name.clone());
    if plan::Entity::find_by_id(id.clone())
        .one(conn)
        .await?
        .is_some()
    {
        return Err(BillingError::PlanExists(id));
    }
    let now = Utc::now();
    let is_active = input.active.unwrap_or(true);
    let mut active = plan::ActiveModel {
        id: Set(id),
        active: Set(is_active),
        invite_only: Set(false),
        contact_sales: Set(false),
        created_at: Set(now),
        ..Default::default()
    };
    apply(&mut active, input, now);
    let model = active.insert(conn).await?;
    Ok(PlanOut::from(&model))
}

/// Changes a plan (its id stays). Owners already on it keep it at the new terms.
pub async fn update_plan<C: ConnectionTrait>(
    conn: &C,
    id: &str,
    mut input: PlanIn,
) -> Result<PlanOut, BillingError> {
    let found = plan::Entity::find_by_id(id.trim().to_string())
        .one(conn)
        .await?
        .ok_or(BillingError::PlanNotFound)?;
    check_plan(&mut input)?;
    if found.id == FREE_PLAN && (input.price != 0 || input.active == Some(false)) {
        return Err(BillingError::FreePlanFixed);
    }
    let now = Utc::now();
    let is_active = input.active.unwrap_or(found.active);
    let mut active: plan::ActiveModel = found.into();
    active.active = Set(is_active);
    apply(&mut active, input, now);
    Ok(PlanOut::from(&active.update(conn).await?))
}

/// Deactivates a plan: nobody can buy it any more; owners on it keep it
/// until their period ends. Plans are never deleted outright, since payments
/// and invoices name them.
pub async fn deactivate_plan<C: ConnectionTrait>(
    conn: &C,
    id: &str,
) -> Result<(PlanOut, u64), BillingError> {
    let found = plan::Entity::find_by_id(id.trim().to_string())
        .one(conn)
        .await?
        .ok_or(BillingError::PlanNotFound)?;
    if found.id == FREE_PLAN {
        return Err(BillingError::FreePlanFixed);
    }
    let now = Utc::now();
    let owners = owners_on_plan(conn, &found.id, now).await?;
    let mut active: plan::ActiveModel = found.into();
    active.active = Set(false);
    active.updated_at = Set(now);
    Ok((PlanOut::from(&active.update(conn).await?), owners))
}

/// The statuses staff may set by hand, and what each does:
/// - `free`: the free plan;
/// - `trial`: a trial ending `ends_at` (or the trial length from now), with the trial's limits;
/// - `active`: the plan's limits until `ends_at` (required, in the future); nothing is charged
///   and nothing renews;
/// - `cancelled`: the plan's limits until `ends_at` (required, in the future; the current
///   period's end when left out), then the free plan's;
/// - `past_due`: a payment is due: the plan stays named, with the free plan's limits until the
///   owner pays;
/// - `expired`: the plan ended: the free plan's limits until the owner buys a plan.
pub const SETTABLE_STATUSES: &[&str] = &[
    "free",
    "trial",
    "active",
    "cancelled",
    "past_due",
    "expired",
];

/// Owners on the plan `plan_id` now (paid, set by staff, or cancelled and
/// not yet ended).
pub async fn owners_on_plan<C: ConnectionTrait>(
    conn: &C,
    plan_id: &str,
    now: DateTime<Utc>,
) -> Result<u64, BillingError> {
    let users = user::Entity::find()
        .filter(user::Column::PlanId.eq(plan_id))
        .all(conn)
        .await?;
    Ok(users
        .iter()
        .filter(|u| ca_auth::dto::on_plan(u, now))
        .count() as u64)
}

/// Puts an owner on a plan by hand with `status` (see [`SETTABLE_STATUSES`]).
/// Only an active plan can be chosen, except the plan the owner is on.
pub async fn change_plan<C: ConnectionTrait>(
    conn: &C,
    owner_id: &str,
    plan_id: &str,
    status: &str,
    ends_at: Option<DateTime<Utc>>,
    now: DateTime<Utc>,
) -> Result<user::Model, BillingError> {
    let plan = plan::Entity::find_by_id(plan_id.trim().to_string())
        .one(conn)
        .await?
        .ok_or(BillingError::PlanNotFound)?;
    let owner = user::Entity::find_by_id(owner_id.to_string())
        .one(conn)
        .await?;
    let mut errors = FieldErrors::new();
    let mut ends_at = ends_at;
    match status {
        "active" | "cancelled" => {
            if status == "cancelled" && ends_at.is_none() {
                // Cancelling keeps the period the owner is in.
                ends_at = owner
                    .as_ref()
                    .filter(|o| ca_auth::dto::on_plan(o, now))
                    .and_then(|o| o.subscription_ends_at);
            }
            match ends_at {
                None => {
                    errors.insert(
                        "subscriptionEndsAt".into(),
                        vec![format!(
                            "An end date is required for {} subscription",
                            if status == "active" {
                                "an active"
                            } else {
                                "a cancelled"
                            }
                        )],
                    );
                }
                Some(end) if end <= now => {
                    errors.insert(
                        "subscriptionEndsAt".into(),
                        vec!["The end date must be in the future".into()],
                    );
                }
                _ => {}
            }
        }
        "free" | "trial" | "past_due" | "expired" => {}
        _ => {
            errors.insert(
                "subscriptionStatus".into(),
                vec!["Status must be free, trial, active, cancelled, past_due or expired".into()],
            );
        }
    }
    let names_plan = matches!(status, "active" | "cancelled" | "past_due" | "expired");
    let current = owner.as_ref().is_some_and(|o| o.plan_id == plan.id);
    if names_plan && !plan.active && !current {
        errors.insert(
            "planId".into(),
            vec![format!(
                "The {} plan is inactive; choose an active plan",
                plan.display_name
            )],
        );
    }
    if !errors.is_empty() {
        return Err(BillingError::invalid(errors));
    }
    let updated = match status {
        "active" | "cancelled" => {
            ca_auth::subscription::set_subscription(conn, owner_id, &plan.id, status, ends_at)
                .await?
        }
        "past_due" | "expired" => {
            ca_auth::subscription::set_subscription(conn, owner_id, &plan.id, status, None).await?
        }
        "trial" => {
            let days = ca_auth::trial::settings(conn).await?.trial_duration_days;
            let end = ends_at
                .filter(|e| *e > now)
                .unwrap_or(now + Duration::days(days));
            ca_auth::subscription::set_trial(conn, owner_id, end).await?
        }
        _ => {
            ca_auth::subscription::set_subscription(conn, owner_id, FREE_PLAN, "free", None).await?
        }
    };
    // A hand-set plan is not a paid subscription: nothing renews or cancels.
    subscription::Entity::delete_many()
        .filter(subscription::Column::OwnerId.eq(owner_id))
        .exec(conn)
        .await?;
    Ok(updated)
}

/// Payment figures per owner: successful payments, revenue (paise) and the last one.
pub async fn owner_payment_totals<C: ConnectionTrait>(
    conn: &C,
    owner_ids: &[String],
    modes: &[CheckoutMode],
) -> Result<HashMap<String, (u64, i64, Option<DateTime<Utc>>)>, BillingError> {
    let mut out: HashMap<String, (u64, i64, Option<DateTime<Utc>>)> = HashMap::new();
    if owner_ids.is_empty() {
        return Ok(out);
    }
    let rows = payment::Entity::find()
        .filter(payment::Column::OwnerId.is_in(owner_ids.to_vec()))
        .filter(payment::Column::Status.eq(crate::entities::payment::PaymentStatus::Success))
        .filter(payment::Column::Mode.is_in(modes.to_vec()))
        .all(conn)
        .await?;
    for p in rows {
        let e = out.entry(p.owner_id.clone()).or_insert((0, 0, None));
        e.0 += 1;
        e.1 += p.amount_paise;
        let at = p.settled_at.unwrap_or(p.created_at);
        e.2 = Some(e.2.map_or(at, |d: DateTime<Utc>| d.max(at)));
    }
    Ok(out)
}

/// The owner's payments, newest first.
pub async fn payments_of<C: ConnectionTrait>(
    conn: &C,
    owner_id: &str,
) -> Result<Vec<payment::Model>, BillingError> {
    Ok(payment::Entity::find()
        .filter(payment::Column::OwnerId.eq(owner_id))
        .order_by_desc(payment::Column::CreatedAt)
        .all(conn)
        .await?)
}

/// The owner's paid-subscription record, if any.
pub async fn subscription_of<C: ConnectionTrait>(
    conn: &C,
    owner_id: &str,
) -> Result<Option<subscription::Model>, BillingError> {
    Ok(subscription::Entity::find_by_id(owner_id.to_string())
        .one(conn)
        .await?)
}

/// Owners whose subscription is cancelled at the period's end.
pub async fn cancelled_owner_ids<C: ConnectionTrait>(
    conn: &C,
) -> Result<Vec<String>, BillingError> {
    Ok(subscription::Entity::find()
        .filter(subscription::Column::Status.eq("active"))
        .filter(subscription::Column::CancelAtPeriodEnd.eq(true))
        .all(conn)
        .await?
        .into_iter()
        .map(|s| s.owner_id)
        .collect())
}

/// Revenue of one calendar month.
#[derive(Debug, Clone, Serialize, ToSchema, PartialEq)]
pub struct MonthRevenue {
    /// `YYYY-MM`.
    pub month: String,
    /// Rupees from successful payments settled that month.
    pub revenue: f64,
    pub payments: u64,
}

/// Subscription figures of the platform, measured from payments and
/// subscription records.
#[derive(Debug, Clone, Serialize, ToSchema, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct RevenueFigures {
    /// The last 12 calendar months, oldest first.
    pub revenue_by_month: Vec<MonthRevenue>,
    /// Monthly recurring revenue of the paid subscriptions running now
    /// (annual ones count a twelfth of what they paid).
    pub mrr: f64,
    pub active_subscriptions: u64,
    /// Subscriptions that ended or were cancelled in the last 30 days, per
    /// 100 running at its start; null when none were running.
    pub churn_rate: Option<f64>,
    pub cancelled_last30_days: u64,
    pub expired_last30_days: u64,
    /// MRR per active subscription.
    pub arpu: f64,
    /// ARPU ÷ monthly churn; null when churn is 0 or unknown.
    pub lifetime_value: Option<f64>,
    /// Rupees from successful payments this calendar month.
    pub revenue_this_month: f64,
}

fn month_key(t: DateTime<Utc>) -> String {
    t.format("%Y-%m").to_string()
}

/// The platform's revenue and subscription figures at `now`.
pub async fn revenue_figures<C: ConnectionTrait>(
    conn: &C,
    now: DateTime<Utc>,
    modes: &[CheckoutMode],
) -> Result<RevenueFigures, BillingError> {
    let this_month = Utc
        .with_ymd_and_hms(now.year(), now.month(), 1, 0, 0, 0)
        .single()
        .unwrap_or(now);
    let first = this_month
        .checked_sub_months(Months::new(11))
        .unwrap_or(this_month);
    let paid = payment::Entity::find()
        .filter(payment::Column::Status.eq(crate::entities::payment::PaymentStatus::Success))
        .filter(payment::Column::SettledAt.gte(first))
        .filter(payment::Column::Mode.is_in(modes.to_vec()))
        .all(conn)
        .await?;
    let mut months: Vec<MonthRevenue> = (0..12)
        .map(|i| MonthRevenue {
            month: month_key(first.checked_add_months(Months::new(i)).unwrap_or(first)),
            revenue: 0.0,
            payments: 0,
        })
        .collect();
    for p in &paid {
        let key = month_key(p.settled_at.unwrap_or(p.created_at));
        if let Some(m) = months.iter_mut().find(|m| m.month == key) {
            m.revenue += p.amount_paise as f64 / 100.0;
            m.payments += 1;
        }
    }
    let revenue_this_month = months.last().map_or(0.0, |m| m.revenue);

    let subs = subscription::Entity::find().all(conn).await?;
    let running: Vec<&subscription::Model> = subs
        .iter()
        .filter(|s| s.status == "active" && s.current_period_end > now)
        .collect();
    let mut mrr_paise = 0f64;
    for s in &running {
        if let Some(txnid) = &s.last_txnid
            && let Some(p) = payment::Entity::find()
                .filter(payment::Column::Txnid.eq(txnid))
                .filter(payment::Column::Mode.is_in(modes.to_vec()))
                .one(conn)
                .await?
        {
            mrr_paise += if s.cycle == "annual" {
                p.amount_paise as f64 / 12.0
            } else {
                p.amount_paise as f64
            };
        }
    }
    let active = running.len() as u64;
    let start = now - Duration::days(30);
    let cancelled = subs
        .iter()
        .filter(|s| s.cancelled_at.is_some_and(|c| c >= start))
        .count() as u64;
    let expired = subs
        .iter()
        .filter(|s| s.status == "expired" && s.updated_at >= start)
        .count() as u64;
    // Running at the start of the window: began before it and ended after it.
    let at_start = subs
        .iter()
        .filter(|s| s.current_period_start < start && s.current_period_end > start)
        .count() as u64;
    let lost = subs
        .iter()
        .filter(|s| {
            s.cancelled_at.is_some_and(|c| c >= start)
                || (s.status == "expired" && s.updated_at >= start)
        })
        .count() as u64;
    let churn_rate =
        (at_start > 0).then(|| ca_core::figures::percent(lost as i64, at_start as i64));
    let mrr = (mrr_paise / 100.0 * 100.0).round() / 100.0;
    let arpu = if active > 0 {
        ca_core::figures::round(mrr / active as f64, 2)
    } else {
        0.0
    };
    let lifetime_value = churn_rate
        .filter(|c| *c > 0.0)
        .map(|c| ca_core::figures::round(arpu / (c / 100.0), 2));
    Ok(RevenueFigures {
        revenue_by_month: months,
        mrr,
        active_subscriptions: active,
        churn_rate,
        cancelled_last30_days: cancelled,
        expired_last30_days: expired,
        arpu,
        lifetime_value,
        revenue_this_month,
    })
}

/// Successful payments settled since `since`, and their total in paise.
pub async fn paid_since<C: ConnectionTrait>(
    conn: &C,
    since: DateTime<Utc>,
    modes: &[CheckoutMode],
) -> Result<(u64, i64), BillingError> {
    let rows = payment::Entity::find()
        .filter(payment::Column::Status.eq(crate::entities::payment::PaymentStatus::Success))
        .filter(payment::Column::SettledAt.gte(since))
        .filter(payment::Column::Mode.is_in(modes.to_vec()))
        .all(conn)
        .await?;
    Ok((rows.len() as u64, rows.iter().map(|p| p.amount_paise).sum()))
}

/// How many owners have a paid subscription running now.
pub async fn active_subscription_count<C: ConnectionTrait>(
    conn: &C,
    now: DateTime<Utc>,
) -> Result<u64, BillingError> {
    Ok(user::Entity::find()
        // Staff accounts may carry a subscription from their time as an
        // owner; they are not paying customers.
        .filter(user::Column::Role.eq("user"))
        .filter(user::Column::SubscriptionStatus.eq("active"))
        .filter(user::Column::SubscriptionEndsAt.gt(now))
        .count(conn)
        .await?)
}

/// Owners whose first successful payment was settled since `since` (new
/// paying customers, for the acquisition cost).
pub async fn first_payments_since<C: ConnectionTrait>(
    conn: &C,
    since: DateTime<Utc>,
    modes: &[CheckoutMode],
) -> Result<u64, BillingError> {
    let rows = payment::Entity::find()
        .filter(payment::Column::Status.eq(crate::entities::payment::PaymentStatus::Success))
        .filter(payment::Column::Mode.is_in(modes.to_vec()))
        .all(conn)
        .await?;
    let mut first: HashMap<String, DateTime<Utc>> = HashMap::new();
    for p in rows {
        let at = p.settled_at.unwrap_or(p.created_at);
        first
            .entry(p.owner_id)
            .and_modify(|d| *d = (*d).min(at))
            .or_insert(at);
    }
    Ok(first.values().filter(|d| **d >= since).count() as u64)
}
