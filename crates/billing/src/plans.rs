//! Plans and what an owner may do: the entitlement of a trial, a paid plan
//! or the free plan, invitations to invite-only plans, and which plans an
//! owner may buy through checkout.

use chrono::{DateTime, Utc};
use sea_orm::{
    ActiveModelTrait, ColumnTrait, ConnectionTrait, EntityTrait, PaginatorTrait, QueryFilter,
    QueryOrder, Set,
};

use ca_auth::dto::SubscriptionStatus;
use ca_auth::dto::effective_status;
use ca_auth::entities::user;

use crate::BillingError;
use crate::dto::PlanOut;
use crate::entities::{plan, plan_invitation};
use crate::service::BillingService;

/// AI conversations allowed during the trial.
pub const TRIAL_AI_CONVERSATIONS: i64 = 100;
/// The plan every account falls back to.
pub const FREE_PLAN: &str = "free";

/// What an owner may do right now.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Entitlement {
    /// The plan id shown to the owner.
    pub plan_id: String,
    pub status: SubscriptionStatus,
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
    if status == SubscriptionStatus::Trial {
        let trial = ca_auth::trial::settings(conn).await?;
        return Ok(Entitlement {
            plan_id: owner.plan_id.clone(),
            status,
            campaigns: trial.trial_campaign_limit,
            visitors_per_month: trial.trial_visitor_limit,
            ai_conversations: TRIAL_AI_CONVERSATIONS,
            is_free: true,
        });
    }
    let on_plan = ca_auth::dto::on_plan(owner, now);
    let plan_id = if on_plan {
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
    let paid = on_plan && plan.as_ref().is_some_and(|p| p.price > 0);
    Ok(Entitlement {
        plan_id: if on_plan {
            owner.plan_id.clone()
        } else {
            FREE_PLAN.to_string()
        },
        status,
        campaigns,
        visitors_per_month: visitors,
        ai_conversations: ai,
        is_free: !paid,
    })
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

/// The active invite-only plans `email` has been invited to (and so may buy).
pub(crate) async fn invited_plans<C: ConnectionTrait>(
    conn: &C,
    email: &str,
) -> Result<Vec<String>, BillingError> {
    let invited: Vec<String> = plan_invitation::Entity::find()
        .filter(plan_invitation::Column::Email.eq(email.trim().to_lowercase()))
        .all(conn)
        .await?
        .into_iter()
        .map(|i| i.plan_id)
        .collect();
    if invited.is_empty() {
        return Ok(invited);
    }
    Ok(plan::Entity::find()
        .filter(plan::Column::Id.is_in(invited))
        .filter(plan::Column::InviteOnly.eq(true))
        .filter(plan::Column::Active.eq(true))
        .order_by_asc(plan::Column::SortOrder)
        .all(conn)
        .await?
        .into_iter()
        .map(|p| p.id)
        .collect())
}

/// The plan `owner` wants, if they may buy it through checkout. The plan
/// they are on is bought again only as a renewal (`renew`), which extends
/// their period from its end.
pub(crate) async fn purchasable<C: ConnectionTrait>(
    conn: &C,
    owner: &user::Model,
    plan_id: &str,
    renew: bool,
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
    if !crate::currency::payable_by_checkout(&plan.currency) {
        return Err(BillingError::CheckoutCurrency {
            plan: plan.display_name,
            currency: plan.currency,
        });
    }
    if plan.invite_only && !is_invited(conn, &plan.id, &owner.email).await? {
        return Err(BillingError::InviteOnly);
    }
    let (status, _, _) = effective_status(owner, now);
    if status == SubscriptionStatus::Active && owner.plan_id == plan.id && !renew {
        return Err(BillingError::AlreadySubscribed);
    }
    Ok(plan)
}

impl BillingService {
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
}
