//! Plans, entitlements, checkout and the demo payment path.

use chrono::{DateTime, Datelike, Months, TimeZone, Utc};
use sea_orm::{
    ActiveModelTrait, ColumnTrait, ConnectionTrait, DatabaseConnection, EntityTrait,
    PaginatorTrait, QueryFilter, QueryOrder, Set,
};

use ca_auth::dto::effective_status;
use ca_auth::entities::user;

use std::sync::Arc;

use crate::BillingError;
use crate::dto::PlanOut;
use crate::entities::{plan, plan_invitation};
use crate::payments::BillingConfig;
use crate::payu::Simulator;

/// AI conversations allowed during the trial.
pub const TRIAL_AI_CONVERSATIONS: i64 = 100;
/// The plan every account falls back to.
pub const FREE_PLAN: &str = "free";

/// What an owner may do right now.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Entitlement {
    /// The plan id shown to the owner.
    pub plan_id: String,
    /// `trial`, `active`, `free`, `expired`, …
    pub status: String,
    pub campaigns: i32,
    pub visitors_per_month: i64,
    /// -1 means unlimited.
    pub ai_conversations: i64,
    /// Not on a paid plan (trial or free): limit messages speak of the free plan.
    pub is_free: bool,
}

/// The owner's entitlement at `now`: trial limits during the trial, the paid
/// plan's limits while active, the free plan's otherwise.
pub async fn entitlement<C: ConnectionTrait>(
    conn: &C,
    owner: &user::Model,
    now: DateTime<Utc>,
) -> Result<Entitlement, BillingError> {
    let (status, _, _) = effective_status(owner, now);
    if status == "trial" {
        let trial = ca_auth::trial::settings(conn).await?;
        return Ok(Entitlement {
            plan_id: owner.plan_id.clone(),
            status: status.to_string(),
            campaigns: trial.trial_campaign_limit,
            visitors_per_month: trial.trial_visitor_limit,
            ai_conversations: TRIAL_AI_CONVERSATIONS,
            is_free: true,
        });
    }
    let plan_id = if status == "active" {
        owner.plan_id.as_str()
    } else {
        FREE_PLAN
    };
    let plan = match plan::Entity::find_by_id(plan_id.to_string())
        .one(conn)
        .await?
    {
        Some(p) => Some(p),
        None => {
            plan::Entity::find_by_id(FREE_PLAN.to_string())
                .one(conn)
                .await?
        }
    };
    let (campaigns, visitors, ai) = plan
        .as_ref()
        .map(|p| {
            (
                p.limit_campaigns,
                p.limit_visitors_per_month,
                p.limit_ai_conversations,
            )
        })
        .unwrap_or((0, 0, 0));
    let paid = status == "active" && plan.as_ref().is_some_and(|p| p.price > 0);
    Ok(Entitlement {
        plan_id: if status == "active" {
            owner.plan_id.clone()
        } else {
            FREE_PLAN.to_string()
        },
        status: status.to_string(),
        campaigns,
        visitors_per_month: visitors,
        ai_conversations: ai,
        is_free: !paid,
    })
}

/// The first instant of the next calendar month (UTC): when monthly counters reset.
pub fn next_month_start(now: DateTime<Utc>) -> DateTime<Utc> {
    let first = Utc
        .with_ymd_and_hms(now.year(), now.month(), 1, 0, 0, 0)
        .single()
        .unwrap_or(now);
    first.checked_add_months(Months::new(1)).unwrap_or(first)
}

/// The first instant of the current calendar month (UTC).
pub fn month_start(now: DateTime<Utc>) -> DateTime<Utc> {
    Utc.with_ymd_and_hms(now.year(), now.month(), 1, 0, 0, 0)
        .single()
        .unwrap_or(now)
}

/// The plan with id `id`, or [`BillingError::PlanNotFound`].
async fn find_plan<C: ConnectionTrait>(conn: &C, id: &str) -> Result<plan::Model, BillingError> {
    plan::Entity::find_by_id(id.trim().to_string())
        .one(conn)
        .await?
        .ok_or(BillingError::PlanNotFound)
}

/// Allows `email` to buy the invite-only plan `plan_id`.
pub async fn invite<C: ConnectionTrait>(
    conn: &C,
    plan_id: &str,
    email: &str,
) -> Result<(), BillingError> {
    let email = email.trim().to_lowercase();
    let plan_id = find_plan(conn, plan_id).await?.id;
    if is_invited(conn, &plan_id, &email).await? {
        return Ok(());
    }
    plan_invitation::ActiveModel {
        id: Set(ca_core::ids::new_id().to_string()),
        plan_id: Set(plan_id),
        email: Set(email),
        created_at: Set(Utc::now()),
    }
    .insert(conn)
    .await?;
    Ok(())
}

async fn is_invited<C: ConnectionTrait>(
    conn: &C,
    plan_id: &str,
    email: &str,
) -> Result<bool, BillingError> {
    Ok(plan_invitation::Entity::find()
        .filter(plan_invitation::Column::PlanId.eq(plan_id))
        .filter(plan_invitation::Column::Email.eq(email.trim().to_lowercase()))
        .count(conn)
        .await?
        > 0)
}

/// The plan `owner` wants, if they may buy it through checkout.
pub(crate) async fn purchasable<C: ConnectionTrait>(
    conn: &C,
    owner: &user::Model,
    plan_id: &str,
    now: DateTime<Utc>,
) -> Result<plan::Model, BillingError> {
    let plan_id = plan_id.trim();
    if plan_id.is_empty() {
        return Err(BillingError::MissingPlan);
    }
    let plan = plan::Entity::find_by_id(plan_id.to_string())
        .one(conn)
        .await?
        .filter(|p| p.active)
        .ok_or(BillingError::PlanNotFound)?;
    if plan.price <= 0 {
        return Err(BillingError::FreePlan);
    }
    if plan.contact_sales {
        return Err(BillingError::ContactSales(plan.display_name));
    }
    if plan.invite_only && !is_invited(conn, &plan.id, &owner.email).await? {
        return Err(BillingError::InviteOnly);
    }
    let (status, _, _) = effective_status(owner, now);
    if status == "active" && owner.plan_id == plan.id {
        return Err(BillingError::AlreadySubscribed);
    }
    Ok(plan)
}

/// Plans, payments, the subscription and the demo payment, for the owner's
/// billing screens.
#[derive(Clone)]
pub struct BillingService {
    pub(crate) db: DatabaseConnection,
    pub(crate) config: Arc<BillingConfig>,
    pub(crate) http: reqwest::Client,
    pub(crate) simulator: Simulator,
}

impl BillingService {
    pub fn new(db: DatabaseConnection, config: BillingConfig) -> Self {
        Self {
            db,
            config: Arc::new(config),
            http: reqwest::Client::new(),
            simulator: Simulator::default(),
        }
    }

    /// The hosted payment page checkout uses.
    pub fn gateway(&self) -> &crate::payments::Gateway {
        &self.config.gateway
    }

    /// Whether the demo page may activate plans (no payment provider set).
    pub fn demo_enabled(&self) -> bool {
        self.config.demo_enabled
    }

    /// Active plans in display order.
    pub async fn list_plans(&self) -> Result<Vec<PlanOut>, BillingError> {
        let plans = plan::Entity::find()
            .filter(plan::Column::Active.eq(true))
            .order_by_asc(plan::Column::SortOrder)
            .order_by_asc(plan::Column::Price)
            .all(&self.db)
            .await?;
        Ok(plans.iter().map(PlanOut::from).collect())
    }

    /// One plan by id, active or not.
    pub async fn get_plan(&self, id: &str) -> Result<PlanOut, BillingError> {
        Ok(PlanOut::from(&find_plan(&self.db, id).await?))
    }

    /// Starts checkout; with no payment provider configured the browser goes to
    /// the demo payment page.
    pub async fn checkout(
        &self,
        owner: &user::Model,
        plan_id: &str,
    ) -> Result<String, BillingError> {
        let plan = purchasable(&self.db, owner, plan_id, Utc::now()).await?;
        let price = plan.price.to_string();
        let query = serde_urlencoded::to_string([
            ("planId", plan.id.as_str()),
            ("planName", plan.display_name.as_str()),
            ("price", price.as_str()),
        ])
        .map_err(|e| BillingError::Infra(ca_core::error::InfraError::Other(e.to_string())))?;
        Ok(format!("/mock-payment?{query}"))
    }

    /// Completes a demo payment (the demo page, only while no payment
    /// provider is configured): the payment is recorded with mode `demo` and
    /// settled like a real one, so history, invoice and period are the same.
    pub async fn complete_demo_payment(
        &self,
        owner: &user::Model,
        plan_id: &str,
    ) -> Result<user::Model, BillingError> {
        if !self.config.demo_enabled {
            return Err(BillingError::DemoPaymentsDisabled);
        }
        let now = Utc::now();
        let plan = purchasable(&self.db, owner, plan_id, now).await?;
        let payment = crate::entities::payment::ActiveModel {
            id: Set(ca_core::ids::new_id().to_string()),
            txnid: Set(format!(
                "DEMO{}",
                &ca_core::ids::new_id().simple().to_string()[..20]
            )),
            owner_id: Set(owner.id.clone()),
            plan_id: Set(plan.id.clone()),
            cycle: Set("monthly".into()),
            amount_paise: Set(plan.price * 100),
            currency: Set("INR".into()),
            productinfo: Set(format!("{} Plan (Monthly)", plan.display_name)),
            firstname: Set(owner.name.chars().take(60).collect()),
            email: Set(owner.email.clone()),
            phone: Set(owner.phone.chars().take(20).collect()),
            provider: Set("demo".into()),
            status: Set("pending".into()),
            payment_mode: Set(None),
            mihpayid: Set(None),
            bank_ref_num: Set(None),
            unmapped_status: Set(None),
            error_message: Set(None),
            raw: Set(None),
            invoice_number: Set(None),
            period_start: Set(None),
            period_end: Set(None),
            created_at: Set(now),
            updated_at: Set(now),
            settled_at: Set(None),
            checked_at: Set(None),
            receipt_sent_at: Set(None),
        }
        .insert(&self.db)
        .await?;
        let outcome = crate::payu::Outcome {
            status: "success".into(),
            mihpayid: None,
            mode: Some("DEMO".into()),
            bank_ref_num: None,
            unmapped_status: None,
            error: None,
            raw: Default::default(),
        };
        crate::payments::settle(&self.db, &payment, &outcome, now).await?;
        tracing::info!(user_id = %owner.id, plan = %plan.id, "demo payment completed; plan active");
        ca_auth::entities::user::Entity::find_by_id(owner.id.clone())
            .one(&self.db)
            .await?
            .ok_or(BillingError::PlanNotFound)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn month_boundaries() {
        let t = Utc
            .with_ymd_and_hms(2026, 12, 15, 10, 0, 0)
            .single()
            .expect("date");
        assert_eq!(
            next_month_start(t),
            Utc.with_ymd_and_hms(2027, 1, 1, 0, 0, 0)
                .single()
                .expect("date")
        );
        assert_eq!(
            month_start(t),
            Utc.with_ymd_and_hms(2026, 12, 1, 0, 0, 0)
                .single()
                .expect("date")
        );
    }
}
