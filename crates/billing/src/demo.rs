//! The demo payment: while no payment provider is configured, checkout may
//! go to a demo page that activates the plan without charging. The payment
//! is recorded with provider `demo` and settled like a real one, so
//! history, invoice and period are the same.

use chrono::{DateTime, Utc};
use sea_orm::EntityTrait;

use ca_auth::entities::user;

use crate::BillingError;
use crate::plans::purchasable;
use crate::service::BillingService;

impl BillingService {
    /// Starts checkout (the campaign wizard's "Upgrade"): with no payment
    /// provider configured the browser goes to the demo payment page; with
    /// PayU configured the demo page is never offered: the payment for the
    /// plan's own interval (a month, or a year for a yearly plan) is created and the browser goes to a page that sends it to PayU.
    pub async fn checkout(
        &self,
        owner: &user::Model,
        plan_id: &str,
        browser: crate::payments::Browser,
    ) -> Result<String, BillingError> {
        if !self.config.demo_enabled {
            let input = crate::dto::InitializeIn {
                udf2: Some(plan_id.to_string()),
                ..Default::default()
            };
            let started = self.initialize(owner, input, browser).await?;
            return Ok(format!("/payment/checkout/{}", started.txnid));
        }
        let plan = purchasable(&self.db, owner, plan_id, false, Utc::now()).await?;
        let cycle = crate::payments::purchase_cycle(&plan, None)?;
        let price = crate::payments::cycle_price(&plan, cycle).to_string();
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
        self.complete_demo_payment_at(owner, plan_id, Utc::now())
            .await
    }

    /// [`Self::complete_demo_payment`] made at `now`: the payment, its
    /// invoice and the plan's period are dated then (the demo data's owner
    /// subscribed weeks ago). Same rule: only while no payment provider is
    /// configured.
    pub async fn complete_demo_payment_at(
        &self,
        owner: &user::Model,
        plan_id: &str,
        now: DateTime<Utc>,
    ) -> Result<user::Model, BillingError> {
        if !self.config.demo_enabled {
            return Err(BillingError::DemoPaymentsDisabled);
        }
        let plan = purchasable(&self.db, owner, plan_id, false, now).await?;
        let checkout = crate::payments::Checkout {
            provider: "demo",
            mode: crate::entities::payment::CheckoutMode::Demo,
            browser: Default::default(),
        };
        let payment = crate::payments::insert_pending(
            &self.db,
            owner,
            &plan,
            crate::payments::purchase_cycle(&plan, None)?,
            &checkout,
            &self.config.tax,
            now,
        )
        .await?;
        let outcome = crate::payu::Outcome {
            status: crate::entities::payment::PaymentStatus::Success,
            mihpayid: None,
            mode: Some("DEMO".into()),
            bank_ref_num: None,
            unmapped_status: None,
            error: None,
            raw: Default::default(),
        };
        crate::payments::settle(&self.db, &self.config, &payment, &outcome, now).await?;
        tracing::info!(user_id = %owner.id, plan = %plan.id, "demo payment completed; plan active");
        ca_auth::entities::user::Entity::find_by_id(owner.id.clone())
            .one(&self.db)
            .await?
            .ok_or(BillingError::PlanNotFound)
    }
}
