//! Plans as staff manage them: the list with subscribers, creating,
//! changing and deactivating (superusers only).

use sea_orm::EntityTrait;

use ca_billing::dto::PlanOut;
use ca_billing::staff::{AdminPlanOut, PlanIn};

use crate::AdminError;
use crate::access::{self, Permission};
use crate::audit::Actor;
use crate::audited::{Action, Done};
use crate::service::AdminService;

const fn plan_action(name: &'static str) -> Action {
    Action {
        name,
        target_type: "plan",
        need: Some(Permission::ManagePlans),
    }
}

fn json(plan: &PlanOut) -> Option<serde_json::Value> {
    serde_json::to_value(plan).ok()
}

impl AdminService {
    /// Every plan with its subscribers.
    pub async fn plans(&self, actor: &Actor) -> Result<Vec<AdminPlanOut>, AdminError> {
        access::check(actor, Permission::ViewAdmin)?;
        Ok(ca_billing::staff::plans_with_subscribers(&self.db).await?)
    }

    pub async fn create_plan(&self, actor: &Actor, input: PlanIn) -> Result<PlanOut, AdminError> {
        self.audited(actor, plan_action("create_plan"), async |txn| {
            let plan = ca_billing::staff::create_plan(txn, input).await?;
            Ok(Done::new(plan.id.clone(), plan.clone()).after(json(&plan)))
        })
        .await
    }

    pub async fn update_plan(
        &self,
        actor: &Actor,
        id: &str,
        input: PlanIn,
    ) -> Result<PlanOut, AdminError> {
        self.audited(actor, plan_action("update_plan"), async |txn| {
            let before = ca_billing::entities::plan::Entity::find_by_id(id.trim().to_string())
                .one(txn)
                .await?
                .map(|p| PlanOut::from(&p));
            let plan = ca_billing::staff::update_plan(txn, id, input).await?;
            Ok(Done::new(plan.id.clone(), plan.clone())
                .before(before.as_ref().and_then(json))
                .after(json(&plan)))
        })
        .await
    }

    /// Deactivates a plan; answers it with how many owners are on it (they
    /// keep it until their period ends).
    pub async fn deactivate_plan(
        &self,
        actor: &Actor,
        id: &str,
    ) -> Result<(PlanOut, u64), AdminError> {
        self.audited(actor, plan_action("deactivate_plan"), async |txn| {
            let (plan, owners) = ca_billing::staff::deactivate_plan(txn, id).await?;
            Ok(Done::new(plan.id.clone(), (plan.clone(), owners)).after(json(&plan)))
        })
        .await
    }
}
