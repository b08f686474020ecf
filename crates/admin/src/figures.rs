//! The figures of the admin dashboards: the staff dashboard's counts and
//! the superadmin's business figures, measured from accounts and payments.

use std::collections::HashMap;

use chrono::{DateTime, Datelike, Duration, Months, TimeZone, Utc};

use ca_auth::Role;
use ca_auth::dto::SubscriptionStatus;
use ca_auth::entities::user;

use crate::AdminError;
use crate::access::{self, Permission};
use crate::audit::Actor;
use crate::dto::*;
use crate::service::AdminService;
use crate::settings::ad_spend;
use crate::users::rupees;

fn month_key(t: DateTime<Utc>) -> String {
    t.format("%Y-%m").to_string()
}

impl AdminService {
    /// The admin dashboard's figures.
    pub async fn stats(&self, actor: &Actor) -> Result<DashboardStats, AdminError> {
        access::check(actor, Permission::ViewAdmin)?;
        let now = Utc::now();
        let users = ca_auth::staff::all(&self.db).await?;
        let trial_users = users
            .iter()
            .filter(|u| {
                u.role == "user"
                    && ca_auth::dto::effective_status(u, now).0 == SubscriptionStatus::Trial
            })
            .count() as u64;
        let month = Utc
            .with_ymd_and_hms(now.year(), now.month(), 1, 0, 0, 0)
            .single()
            .unwrap_or(now);
        Ok(DashboardStats {
            total_users: users.len() as u64,
            new_users_last30_days: users
                .iter()
                .filter(|u| u.created_at >= now - Duration::days(30))
                .count() as u64,
            total_admins: users.iter().filter(|u| Role::is_staff(&u.role)).count() as u64,
            total_campaigns: ca_campaigns::counters::count_all(&self.db).await?,
            active_subscriptions: ca_billing::staff::active_subscription_count(&self.db, now)
                .await?,
            total_conversations: ca_conversations::stats::count_all(&self.db).await?,
            total_customers: ca_customers::count_all(&self.db).await?,
            trial_users,
            revenue_this_month: rupees(
                ca_billing::staff::paid_since(&self.db, month, self.billing.counted_modes())
                    .await?
                    .1,
            ),
        })
    }

    /// The platform's business figures, measured from accounts and payments.
    pub async fn superadmin(&self, actor: &Actor) -> Result<SuperadminFigures, AdminError> {
        access::check(actor, Permission::ViewBusiness)?;
        let now = Utc::now();
        let revenue =
            ca_billing::staff::revenue_figures(&self.db, now, self.billing.counted_modes()).await?;
        let users = ca_auth::staff::all(&self.db).await?;
        let owners: Vec<&user::Model> = users.iter().filter(|u| u.role == "user").collect();
        let paid_owner_ids: std::collections::HashSet<String> =
            ca_billing::staff::owner_payment_totals(
                &self.db,
                &owners.iter().map(|u| u.id.clone()).collect::<Vec<_>>(),
                self.billing.counted_modes(),
            )
            .await?
            .into_keys()
            .collect();
        let mut by_status = UsersByStatus::default();
        let mut by_role = UsersByRole::default();
        let (mut trials_completed, mut trials_converted) = (0u64, 0u64);
        for u in &users {
            match u.role.as_str() {
                "admin" => by_role.admin += 1,
                "superuser" => by_role.superuser += 1,
                _ => by_role.user += 1,
            }
            match ca_auth::dto::effective_status(u, now).0 {
                SubscriptionStatus::Trial => by_status.trial += 1,
                SubscriptionStatus::Active => by_status.active += 1,
                SubscriptionStatus::Expired => by_status.expired += 1,
                _ => by_status.free += 1,
            }
            // Only trials that ended count: the end date passed, or the owner
            // paid (a payment ends the trial, converted). An owner whom staff
            // put on a paid plan by hand without a payment is left out: that
            // trial neither converted nor lapsed unpaid.
            if u.role == "user"
                && let Some(end) = u.trial_ends_at
            {
                let paid = paid_owner_ids.contains(&u.id);
                let set_by_staff = u.subscription_status == "active" && !paid;
                if !set_by_staff && (end <= now || paid) {
                    trials_completed += 1;
                    if paid {
                        trials_converted += 1;
                    }
                }
            }
        }
        let this_month = Utc
            .with_ymd_and_hms(now.year(), now.month(), 1, 0, 0, 0)
            .single()
            .unwrap_or(now);
        let first = this_month
            .checked_sub_months(Months::new(11))
            .unwrap_or(this_month);
        let mut signups: Vec<MonthUsers> = (0..12)
            .map(|i| MonthUsers {
                month: month_key(first.checked_add_months(Months::new(i)).unwrap_or(first)),
                users: 0,
            })
            .collect();
        let mut counts: HashMap<String, u64> = HashMap::new();
        for u in &users {
            *counts.entry(month_key(u.created_at)).or_default() += 1;
        }
        for m in &mut signups {
            m.users = counts.get(&m.month).copied().unwrap_or(0);
        }
        let since = now - Duration::days(30);
        let new_payers =
            ca_billing::staff::first_payments_since(&self.db, since, self.billing.counted_modes())
                .await?;
        let ad_spend = ad_spend(&self.db).await?;
        let acquisition_cost = ad_spend.and_then(|spend| {
            (new_payers > 0).then(|| ca_core::figures::round(spend / new_payers as f64, 2))
        });
        let trials_active = owners
            .iter()
            .filter(|u| ca_auth::dto::effective_status(u, now).0 == SubscriptionStatus::Trial)
            .count() as u64;
        Ok(SuperadminFigures {
            revenue,
            trials_active,
            trials_completed,
            trial_conversion_rate: ca_core::figures::percent(
                trials_converted as i64,
                trials_completed as i64,
            ),
            new_users_last30_days: users.iter().filter(|u| u.created_at >= since).count() as u64,
            signups_by_month: signups,
            users_by_role: by_role,
            users_by_status: by_status,
            ad_spend_last30_days: ad_spend,
            acquisition_cost,
        })
    }
}
