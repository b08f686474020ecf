//! Settings staff save: the trial new owners get, the ad spend the
//! acquisition cost is computed from, and the grace period staff have to
//! turn on two-factor sign-in (superusers only).

use serde_json::json;

use ca_auth::trial::TrialSettings;
use ca_auth::two_factor::{StaffTwoFactorPolicy, StaffTwoFactorPolicyIn};

use crate::AdminError;
use crate::access::{self, Permission};
use crate::audit::Actor;
use crate::audited::{Action, Done};
use crate::dto::{AdSpendIn, SuperadminFigures};
use crate::service::AdminService;

/// Where the ad spend is kept among the platform settings.
pub(crate) const AD_SPEND: &str = "ad_spend_last30_days";

const fn settings_action(name: &'static str) -> Action {
    Action {
        name,
        target_type: "settings",
        need: Some(Permission::EditSettings),
    }
}

/// The ad spend of the last 30 days staff recorded, in rupees.
pub(crate) async fn ad_spend<C: sea_orm::ConnectionTrait>(
    conn: &C,
) -> Result<Option<f64>, AdminError> {
    Ok(ca_auth::settings::get(conn, AD_SPEND)
        .await?
        .and_then(|v| v.parse::<f64>().ok()))
}

impl AdminService {
    pub async fn trial_settings(&self, actor: &Actor) -> Result<TrialSettings, AdminError> {
        access::check(actor, Permission::ViewAdmin)?;
        Ok(ca_auth::trial::settings(&self.db).await?)
    }

    pub async fn save_trial_settings(
        &self,
        actor: &Actor,
        input: TrialSettings,
    ) -> Result<TrialSettings, AdminError> {
        self.audited(
            actor,
            settings_action("update_trial_settings"),
            async |txn| {
                let before = ca_auth::trial::settings(txn).await?;
                let saved = ca_auth::trial::save(txn, input).await?;
                Ok(Done::new("trial", saved.clone())
                    .before(serde_json::to_value(&before).ok())
                    .after(serde_json::to_value(&saved).ok()))
            },
        )
        .await
    }

    /// The grace period staff have to turn on two-factor sign-in.
    pub async fn two_factor_policy(
        &self,
        actor: &Actor,
    ) -> Result<StaffTwoFactorPolicy, AdminError> {
        access::check(actor, Permission::ViewAdmin)?;
        Ok(ca_auth::two_factor::policy(&self.db).await?)
    }

    /// Sets the grace period staff have to turn on two-factor sign-in
    /// (superusers); 0 requires it at once.
    pub async fn save_two_factor_policy(
        &self,
        actor: &Actor,
        input: StaffTwoFactorPolicyIn,
    ) -> Result<StaffTwoFactorPolicy, AdminError> {
        self.audited(
            actor,
            settings_action("update_staff_two_factor"),
            async |txn| {
                let before = ca_auth::two_factor::policy(txn).await?;
                let saved = ca_auth::two_factor::save_policy(txn, input).await?;
                Ok(Done::new("staff_two_factor", saved.clone())
                    .before(serde_json::to_value(&before).ok())
                    .after(serde_json::to_value(&saved).ok()))
            },
        )
        .await
    }

    /// Records the ad spend the acquisition cost is computed from.
    pub async fn set_ad_spend(
        &self,
        actor: &Actor,
        input: AdSpendIn,
    ) -> Result<SuperadminFigures, AdminError> {
        self.audited(actor, settings_action("set_ad_spend"), async |txn| {
            let amount = input.ad_spend_last30_days;
            if !amount.is_finite() || !(0.0..=1e12).contains(&amount) {
                return Err(AdminError::field(
                    "adSpendLast30Days",
                    "Ad spend must be 0 or more rupees",
                ));
            }
            let before = ad_spend(txn).await?;
            ca_auth::settings::put(txn, AD_SPEND, &format!("{amount:.2}")).await?;
            Ok(Done::new(AD_SPEND, ())
                .before(before.map(|b| json!(b)))
                .after(Some(json!(amount))))
        })
        .await?;
        self.superadmin(actor).await
    }
}
