//! The admin area's calls. Roles are checked here for every call: an `admin`
//! manages owners and admins; only a `superuser` may sign in as a user,
//! manage plans, create or change superusers, or read the platform figures.
//! Nobody deletes or demotes themselves, and the last superuser stays.

use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::{Arc, Mutex};
use std::time::Instant;

use chrono::{DateTime, Datelike, Duration, Months, TimeZone, Utc};
use sea_orm::{ConnectionTrait, DatabaseConnection, DbBackend, EntityTrait, Set};
use serde_json::json;

use ca_auth::entities::user;
use ca_auth::staff::{AccountChange, UserFilter};
use ca_auth::{AuthService, NewAccount, Role};
use ca_billing::dto::PlanOut;
use ca_billing::staff::{AdminPlanOut, PlanIn};
use ca_core::FieldErrors;
use ca_core::paging::whole_number;

use crate::AdminError;
use crate::audit::{self, Actor, Entry};
use crate::dto::*;
use crate::entities::admin_setting;

/// How full the event writer's queue is: (queued, capacity).
pub type WriterProbe = Arc<dyn Fn() -> (u64, u64) + Send + Sync>;

/// The admin service.
#[derive(Clone)]
pub struct AdminService {
    db: DatabaseConnection,
    auth: AuthService,
    data_dir: PathBuf,
    started: Instant,
    writer: WriterProbe,
    system: Arc<Mutex<sysinfo::System>>,
}

const AD_SPEND: &str = "ad_spend_last30_days";

fn staff(actor: &Actor) -> Result<(), AdminError> {
    if actor.is_staff() {
        Ok(())
    } else {
        Err(AdminError::AdminRequired)
    }
}

fn superuser(actor: &Actor) -> Result<(), AdminError> {
    staff(actor)?;
    if actor.is_superuser() {
        Ok(())
    } else {
        Err(AdminError::SuperuserRequired)
    }
}

fn rupees(paise: i64) -> f64 {
    paise as f64 / 100.0
}

fn snapshot(u: &user::Model) -> serde_json::Value {
    json!({
        "name": u.name, "email": u.email, "phone": u.phone, "role": u.role,
        "planId": u.plan_id, "subscriptionStatus": u.subscription_status,
        "subscriptionEndsAt": u.subscription_ends_at, "trialEndsAt": u.trial_ends_at,
    })
}

fn month_key(t: DateTime<Utc>) -> String {
    t.format("%Y-%m").to_string()
}

impl AdminService {
    pub fn new(
        db: DatabaseConnection,
        auth: AuthService,
        data_dir: PathBuf,
        writer: WriterProbe,
    ) -> Self {
        Self {
            db,
            auth,
            data_dir,
            started: Instant::now(),
            writer,
            system: Arc::new(Mutex::new(sysinfo::System::new())),
        }
    }

    async fn admin_users(
        &self,
        users: Vec<user::Model>,
        now: DateTime<Utc>,
    ) -> Result<Vec<AdminUser>, AdminError> {
        let ids: Vec<String> = users.iter().map(|u| u.id.clone()).collect();
        let campaigns = ca_campaigns::counters::count_by_owner(&self.db, &ids).await?;
        let payments = ca_billing::staff::owner_payment_totals(&self.db, &ids).await?;
        let cancelled = ca_billing::staff::cancelled_owner_ids(&self.db).await?;
        Ok(users
            .into_iter()
            .map(|u| {
                let (status, _, _) = ca_auth::dto::effective_status(&u, now);
                let status = status.to_string();
                let (count, paise, last) = payments.get(&u.id).cloned().unwrap_or((0, 0, None));
                AdminUser {
                    underscore_id: u.id.clone(),
                    campaign_count: campaigns.get(&u.id).copied().unwrap_or(0),
                    cancel_at_period_end: status == "active" && cancelled.contains(&u.id),
                    subscription_status: status,
                    total_payments: count,
                    total_revenue: rupees(paise),
                    last_payment_date: last,
                    id: u.id,
                    name: u.name,
                    email: u.email,
                    phone: u.phone,
                    role: u.role,
                    plan_id: u.plan_id,
                    subscription_ends_at: u.subscription_ends_at,
                    trial_ends_at: u.trial_ends_at,
                    created_at: u.created_at,
                    last_login_at: u.last_login_at,
                }
            })
            .collect())
    }

    async fn admin_user(&self, u: user::Model) -> Result<AdminUser, AdminError> {
        self.admin_users(vec![u], Utc::now())
            .await?
            .pop()
            .ok_or(AdminError::Auth(ca_auth::AuthError::UserNotFound))
    }

    /// The admin dashboard's figures.
    pub async fn stats(&self, actor: &Actor) -> Result<DashboardStats, AdminError> {
        staff(actor)?;
        let now = Utc::now();
        let users = ca_auth::staff::all(&self.db).await?;
        let trial_users = users
            .iter()
            .filter(|u| u.role == "user" && ca_auth::dto::effective_status(u, now).0 == "trial")
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
            revenue_this_month: rupees(ca_billing::staff::paid_since(&self.db, month).await?.1),
        })
    }

    /// One page of accounts.
    pub async fn users(&self, actor: &Actor, q: &UserListQuery) -> Result<UserList, AdminError> {
        staff(actor)?;
        let mut errors = FieldErrors::new();
        let page = whole_number(q.page.as_deref(), "page", 1, 1, 1_000_000, &mut errors);
        let limit = whole_number(q.limit.as_deref(), "limit", 10, 1, 100, &mut errors);
        let role = q
            .role
            .as_deref()
            .map(str::trim)
            .filter(|r| !r.is_empty() && *r != "all");
        if role.is_some_and(|r| !matches!(r, "user" | "admin" | "superuser")) {
            errors.insert(
                "role".into(),
                vec!["Role must be user, admin or superuser".into()],
            );
        }
        let status = q
            .subscription_status
            .as_deref()
            .map(str::trim)
            .filter(|s| !s.is_empty() && *s != "all");
        if status
            .is_some_and(|s| !matches!(s, "free" | "trial" | "active" | "cancelled" | "expired"))
        {
            errors.insert(
                "subscriptionStatus".into(),
                vec![
                    "Subscription status must be free, trial, active, cancelled or expired".into(),
                ],
            );
        }
        let search = q.search.as_deref().map(str::trim).filter(|s| !s.is_empty());
        if search.is_some_and(|s| s.chars().count() > 100) {
            errors.insert(
                "search".into(),
                vec!["Search can be at most 100 characters".into()],
            );
        }
        if !errors.is_empty() {
            return Err(AdminError::Validation {
                message: ca_core::validation::first_message(&errors),
                errors,
            });
        }
        let now = Utc::now();
        let cancelled = ca_billing::staff::cancelled_owner_ids(&self.db).await?;
        let filter = UserFilter {
            search: search.map(str::to_string),
            role: role.map(str::to_string),
            status: status.map(str::to_string),
        };
        let (rows, total) =
            ca_auth::staff::list(&self.db, &filter, &cancelled, page, limit, now).await?;
        let pages = total.div_ceil(limit);
        Ok(UserList {
            users: self.admin_users(rows, now).await?,
            pagination: UserPagination {
                total_users: total,
                current_page: page,
                total_pages: pages,
                has_prev: page > 1,
                has_next: page < pages,
                limit,
            },
        })
    }

    /// Everything about one account.
    pub async fn user_detail(&self, actor: &Actor, id: &str) -> Result<UserDetail, AdminError> {
        staff(actor)?;
        let now = Utc::now();
        let u = ca_auth::staff::get(&self.db, id).await?;
        let campaigns = ca_campaigns::counters::of_owner(&self.db, &u.id).await?;
        let conversations = ca_conversations::stats::count_by_campaign(&self.db, &u.id).await?;
        let customers = ca_customers::count_by_campaign(&self.db, &u.id).await?;
        let total_customers = ca_customers::service::count(&self.db, &u.id, None).await?;
        let month = Utc
            .with_ymd_and_hms(now.year(), now.month(), 1, 0, 0, 0)
            .single()
            .unwrap_or(now);
        let usage = ca_campaigns::service::usage(&self.db, &u, now).await?;
        let revenue_paise: i64 = campaigns.iter().map(|c| c.revenue_paise).sum();
        let impressions: i64 = campaigns.iter().map(|c| c.impressions).sum();
        let conversions: i64 = campaigns.iter().map(|c| c.conversions).sum();
        let total_conversations: u64 = conversations.values().sum();
        let payments = ca_billing::staff::payments_of(&self.db, &u.id).await?;
        let subscription = ca_billing::staff::subscription_of(&self.db, &u.id)
            .await?
            .filter(|s| s.status == "active")
            .map(|s| UserSubscription {
                status: s.status,
                current_period_start: s.current_period_start,
                current_period_end: s.current_period_end,
                interval: s.cycle,
                cancel_at_period_end: s.cancel_at_period_end,
            });
        let (status, _, _) = ca_auth::dto::effective_status(&u, now);
        let plan_id = if status == "active" {
            u.plan_id.clone()
        } else {
            "free".to_string()
        };
        let current_plan: Option<PlanOut> = ca_billing::entities::plan::Entity::find_by_id(plan_id)
            .one(&self.db)
            .await?
            .map(|p| PlanOut::from(&p));

        let mut timeline: Vec<ActivityItem> = Vec::new();
        for c in ca_conversations::stats::recent(&self.db, &u.id, 10).await? {
            timeline.push(ActivityItem {
                kind: "conversation".into(),
                title: if c.outcome == "conversion" {
                    "Conversation converted".into()
                } else {
                    "New conversation".into()
                },
                description: c.last_message.chars().take(120).collect(),
                timestamp: c.created_at,
            });
        }
        for c in ca_customers::recent(&self.db, &u.id, 10).await? {
            timeline.push(ActivityItem {
                kind: "customer".into(),
                title: "New customer".into(),
                description: c.email.clone(),
                timestamp: c.created_at,
            });
        }
        for p in payments.iter().take(10) {
            timeline.push(ActivityItem {
                kind: "payment".into(),
                title: format!("Payment {}", p.status),
                description: format!("{} · ₹{:.2}", p.productinfo, rupees(p.amount_paise)),
                timestamp: p.settled_at.unwrap_or(p.created_at),
            });
        }
        let audit_entries = audit::about(&self.db, &u.id, 50).await?;
        for a in audit_entries.iter().take(10) {
            timeline.push(ActivityItem {
                kind: "admin".into(),
                title: a.action.replace('_', " "),
                description: match &a.acting_as_id {
                    Some(_) => format!("by {} (signed in as this user)", a.actor_name),
                    None => format!("by {}", a.actor_name),
                },
                timestamp: a.created_at,
            });
        }
        timeline.sort_by_key(|i| std::cmp::Reverse(i.timestamp));
        timeline.truncate(20);

        let user_campaigns = campaigns
            .iter()
            .map(|c| UserCampaign {
                id: c.id.clone(),
                name: c.name.clone(),
                is_active: c.is_active,
                created_at: c.created_at,
                conversations_count: conversations.get(&c.id).copied().unwrap_or(0),
                customers_count: customers.get(&c.id).copied().unwrap_or(0),
                revenue: rupees(c.revenue_paise),
                conversion_rate: ca_core::figures::percent(c.conversions, c.impressions),
                impressions: c.impressions,
                conversions: c.conversions,
            })
            .collect();
        Ok(UserDetail {
            campaigns: user_campaigns,
            analytics: UserAnalytics {
                conversations: ThisMonth {
                    this_month: ca_conversations::stats::count_since(&self.db, &u.id, month)
                        .await?,
                },
                customers: ThisMonth {
                    this_month: ca_customers::count_since(&self.db, &u.id, month).await?,
                },
                revenue: RevenuePerCustomer {
                    average_per_customer: if total_customers > 0 {
                        ca_core::figures::round(rupees(revenue_paise) / total_customers as f64, 2)
                    } else {
                        0.0
                    },
                },
                usage: UsageFigures {
                    campaign_usage: usage.campaigns.current,
                    campaign_limit: usage.campaigns.limit,
                    visitor_usage: usage.visitors.current,
                    visitor_limit: usage.visitors.limit,
                },
            },
            activity_timeline: timeline,
            summary: UserSummary {
                total_conversations,
                total_customers,
                total_revenue: rupees(revenue_paise),
                conversion_rate: ca_core::figures::percent(conversions, impressions),
                active_campaigns: campaigns.iter().filter(|c| c.is_active).count() as u64,
                account_age: (now - u.created_at).num_days(),
            },
            subscription,
            current_plan,
            payments: payments
                .iter()
                .map(|p| UserPayment {
                    id: p.id.clone(),
                    status: p.status.clone(),
                    productinfo: p.productinfo.clone(),
                    txnid: p.txnid.clone(),
                    mihpayid: p.mihpayid.clone(),
                    amount: rupees(p.amount_paise),
                    paid_at: p.settled_at.filter(|_| p.status == "success"),
                    created_at: p.created_at,
                    payment_mode: p.payment_mode.clone(),
                    plan_id: p.plan_id.clone(),
                })
                .collect(),
            audit: audit_entries,
            user: self.admin_user(u).await?,
        })
    }

    /// Refuses what the actor may not do to `target`: an admin may not touch
    /// a superuser.
    fn may_manage(actor: &Actor, target: &user::Model) -> Result<(), AdminError> {
        if target.role == "superuser" && !actor.is_superuser() {
            return Err(AdminError::SuperuserRequired);
        }
        Ok(())
    }

    /// Changes an account's name, email, phone or role.
    pub async fn update_user(
        &self,
        actor: &Actor,
        id: &str,
        input: UserChangeIn,
    ) -> Result<AdminUser, AdminError> {
        staff(actor)?;
        let txn = ca_core::db::begin_write(&self.db).await?;
        let before = ca_auth::staff::get(&txn, id).await?;
        Self::may_manage(actor, &before)?;
        if let Some(role) = input.role.as_deref().map(str::trim) {
            if role == "superuser" && !actor.is_superuser() {
                return Err(AdminError::SuperuserRequired);
            }
            if role != before.role {
                if before.id == actor.user.id {
                    return Err(AdminError::SelfAction("change the role of"));
                }
                if before.role == "superuser"
                    && ca_auth::staff::count_role(&txn, "superuser").await? <= 1
                {
                    return Err(AdminError::LastSuperuser);
                }
            }
        }
        let after = ca_auth::staff::update(
            &txn,
            &before.id,
            AccountChange {
                name: input.name,
                email: input.email,
                phone: input.phone,
                role: input.role,
            },
        )
        .await?;
        audit::record(
            &txn,
            actor,
            Entry {
                action: "update_user",
                target_type: "user",
                target_id: &after.id,
                before: Some(snapshot(&before)),
                after: Some(snapshot(&after)),
            },
        )
        .await?;
        txn.commit().await?;
        self.admin_user(after).await
    }

    /// Deletes an account with its campaigns, conversations, customers and
    /// payments, in one transaction.
    pub async fn delete_user(&self, actor: &Actor, id: &str) -> Result<(), AdminError> {
        staff(actor)?;
        let txn = ca_core::db::begin_write(&self.db).await?;
        let target = ca_auth::staff::get(&txn, id).await?;
        if target.id == actor.user.id {
            return Err(AdminError::SelfAction("delete"));
        }
        Self::may_manage(actor, &target)?;
        if target.role == "superuser" && ca_auth::staff::count_role(&txn, "superuser").await? <= 1 {
            return Err(AdminError::LastSuperuser);
        }
        ca_auth::staff::delete(&txn, &target.id).await?;
        audit::record(
            &txn,
            actor,
            Entry {
                action: "delete_user",
                target_type: "user",
                target_id: &target.id,
                before: Some(snapshot(&target)),
                after: None,
            },
        )
        .await?;
        txn.commit().await?;
        tracing::info!(actor = %actor.user.id, user = %target.id, "account deleted by staff");
        Ok(())
    }

    /// Creates a staff account (`admin`, or `superuser` by a superuser).
    pub async fn create_admin(
        &self,
        actor: &Actor,
        input: CreateAdminIn,
    ) -> Result<AdminUser, AdminError> {
        staff(actor)?;
        let role = match input.role.as_deref().map(str::trim).unwrap_or("admin") {
            "" | "admin" => Role::Admin,
            "superuser" if actor.is_superuser() => Role::Superuser,
            "superuser" => return Err(AdminError::SuperuserRequired),
            _ => return Err(AdminError::field("role", "Role must be admin or superuser")),
        };
        let created = self
            .auth
            .create_account(NewAccount {
                name: input.name,
                email: input.email,
                phone: input.phone,
                password: input.password,
                role,
            })
            .await?;
        audit::record(
            &self.db,
            actor,
            Entry {
                action: "create_admin",
                target_type: "user",
                target_id: &created.id,
                before: None,
                after: Some(snapshot(&created)),
            },
        )
        .await?;
        self.admin_user(created).await
    }

    /// Creates an owner account, optionally on a plan.
    pub async fn create_user(
        &self,
        actor: &Actor,
        input: CreateUserIn,
    ) -> Result<AdminUser, AdminError> {
        staff(actor)?;
        let now = Utc::now();
        let status = input
            .subscription_status
            .as_deref()
            .map(str::trim)
            .filter(|s| !s.is_empty());
        let created = self
            .auth
            .create_account(NewAccount {
                name: input.name,
                email: input.email,
                phone: input.phone,
                password: input.password,
                role: Role::User,
            })
            .await?;
        let created = match (
            status,
            input
                .plan_id
                .as_deref()
                .map(str::trim)
                .filter(|p| !p.is_empty()),
        ) {
            (None, None) => created,
            (status, plan) => {
                let status = status.unwrap_or(if plan.is_some_and(|p| p != "free") {
                    "active"
                } else {
                    "free"
                });
                match ca_billing::staff::change_plan(
                    &self.db,
                    &created.id,
                    plan.unwrap_or("free"),
                    status,
                    input.subscription_ends_at,
                    now,
                )
                .await
                {
                    Ok(u) => u,
                    Err(err) => {
                        // The account must not stay half made: undo it.
                        ca_auth::staff::delete(&self.db, &created.id).await?;
                        return Err(err.into());
                    }
                }
            }
        };
        audit::record(
            &self.db,
            actor,
            Entry {
                action: "create_user",
                target_type: "user",
                target_id: &created.id,
                before: None,
                after: Some(snapshot(&created)),
            },
        )
        .await?;
        self.admin_user(created).await
    }

    /// Sets an owner's plan, status and end date by hand.
    pub async fn change_plan(
        &self,
        actor: &Actor,
        id: &str,
        input: ChangePlanIn,
    ) -> Result<AdminUser, AdminError> {
        staff(actor)?;
        let txn = ca_core::db::begin_write(&self.db).await?;
        let before = ca_auth::staff::get(&txn, id).await?;
        Self::may_manage(actor, &before)?;
        let after = ca_billing::staff::change_plan(
            &txn,
            &before.id,
            &input.plan_id,
            input.subscription_status.trim(),
            input.subscription_ends_at,
            Utc::now(),
        )
        .await?;
        audit::record(
            &txn,
            actor,
            Entry {
                action: "change_plan",
                target_type: "user",
                target_id: &after.id,
                before: Some(snapshot(&before)),
                after: Some(snapshot(&after)),
            },
        )
        .await?;
        txn.commit().await?;
        self.admin_user(after).await
    }

    /// A superuser signs in as another account: the token names them too, so
    /// what they do is attributed to them.
    pub async fn login_as(
        &self,
        actor: &Actor,
        user_id: &str,
    ) -> Result<ca_auth::dto::AuthResponse, AdminError> {
        superuser(actor)?;
        if actor.acting_for.is_some() {
            return Err(AdminError::SuperuserRequired);
        }
        if user_id.trim() == actor.user.id {
            return Err(AdminError::SelfAction("sign in as"));
        }
        let session = self.auth.login_as(&actor.user, user_id).await?;
        audit::record(
            &self.db,
            actor,
            Entry {
                action: "login_as_user",
                target_type: "user",
                target_id: user_id.trim(),
                before: None,
                after: None,
            },
        )
        .await?;
        tracing::info!(actor = %actor.user.id, user = %user_id.trim(), "superuser signed in as a user");
        Ok(session)
    }

    /// A write made by a superuser while signed in as an account.
    pub async fn record_acting(
        &self,
        actor: &Actor,
        method: &str,
        path: &str,
    ) -> Result<(), AdminError> {
        if actor.acting_for.is_none() {
            return Ok(());
        }
        audit::record(
            &self.db,
            actor,
            Entry {
                action: "request_as_user",
                target_type: "user",
                target_id: &actor.user.id,
                before: None,
                after: Some(json!({"method": method, "path": path})),
            },
        )
        .await
    }

    /// Every plan with its subscribers.
    pub async fn plans(&self, actor: &Actor) -> Result<Vec<AdminPlanOut>, AdminError> {
        staff(actor)?;
        Ok(ca_billing::staff::plans_with_subscribers(&self.db).await?)
    }

    pub async fn create_plan(&self, actor: &Actor, input: PlanIn) -> Result<PlanOut, AdminError> {
        superuser(actor)?;
        let txn = ca_core::db::begin_write(&self.db).await?;
        let plan = ca_billing::staff::create_plan(&txn, input).await?;
        audit::record(
            &txn,
            actor,
            Entry {
                action: "create_plan",
                target_type: "plan",
                target_id: &plan.id,
                before: None,
                after: serde_json::to_value(&plan).ok(),
            },
        )
        .await?;
        txn.commit().await?;
        Ok(plan)
    }

    pub async fn update_plan(
        &self,
        actor: &Actor,
        id: &str,
        input: PlanIn,
    ) -> Result<PlanOut, AdminError> {
        superuser(actor)?;
        let txn = ca_core::db::begin_write(&self.db).await?;
        let before = ca_billing::entities::plan::Entity::find_by_id(id.trim().to_string())
            .one(&txn)
            .await?
            .map(|p| PlanOut::from(&p));
        let plan = ca_billing::staff::update_plan(&txn, id, input).await?;
        audit::record(
            &txn,
            actor,
            Entry {
                action: "update_plan",
                target_type: "plan",
                target_id: &plan.id,
                before: before.and_then(|b| serde_json::to_value(&b).ok()),
                after: serde_json::to_value(&plan).ok(),
            },
        )
        .await?;
        txn.commit().await?;
        Ok(plan)
    }

    pub async fn deactivate_plan(&self, actor: &Actor, id: &str) -> Result<PlanOut, AdminError> {
        superuser(actor)?;
        let txn = ca_core::db::begin_write(&self.db).await?;
        let plan = ca_billing::staff::deactivate_plan(&txn, id).await?;
        audit::record(
            &txn,
            actor,
            Entry {
                action: "deactivate_plan",
                target_type: "plan",
                target_id: &plan.id,
                before: None,
                after: serde_json::to_value(&plan).ok(),
            },
        )
        .await?;
        txn.commit().await?;
        Ok(plan)
    }

    pub async fn trial_settings(
        &self,
        actor: &Actor,
    ) -> Result<ca_auth::trial::TrialSettings, AdminError> {
        staff(actor)?;
        Ok(ca_auth::trial::settings(&self.db).await?)
    }

    pub async fn save_trial_settings(
        &self,
        actor: &Actor,
        input: ca_auth::trial::TrialSettings,
    ) -> Result<ca_auth::trial::TrialSettings, AdminError> {
        superuser(actor)?;
        let txn = ca_core::db::begin_write(&self.db).await?;
        let before = ca_auth::trial::settings(&txn).await?;
        let saved = ca_auth::trial::save(&txn, input).await?;
        audit::record(
            &txn,
            actor,
            Entry {
                action: "update_trial_settings",
                target_type: "settings",
                target_id: "trial",
                before: serde_json::to_value(&before).ok(),
                after: serde_json::to_value(&saved).ok(),
            },
        )
        .await?;
        txn.commit().await?;
        Ok(saved)
    }

    async fn ad_spend<C: ConnectionTrait>(conn: &C) -> Result<Option<f64>, AdminError> {
        Ok(admin_setting::Entity::find_by_id(AD_SPEND.to_string())
            .one(conn)
            .await?
            .and_then(|s| s.value.parse::<f64>().ok()))
    }

    /// Records the ad spend the acquisition cost is computed from.
    pub async fn set_ad_spend(
        &self,
        actor: &Actor,
        input: AdSpendIn,
    ) -> Result<SuperadminFigures, AdminError> {
        superuser(actor)?;
        let amount = input.ad_spend_last30_days;
        if !amount.is_finite() || !(0.0..=1e12).contains(&amount) {
            return Err(AdminError::field(
                "adSpendLast30Days",
                "Ad spend must be 0 or more rupees",
            ));
        }
        let txn = ca_core::db::begin_write(&self.db).await?;
        let before = Self::ad_spend(&txn).await?;
        admin_setting::Entity::insert(admin_setting::ActiveModel {
            key: Set(AD_SPEND.into()),
            value: Set(format!("{amount:.2}")),
            updated_at: Set(Utc::now()),
        })
        .on_conflict(
            sea_orm::sea_query::OnConflict::column(admin_setting::Column::Key)
                .update_columns([
                    admin_setting::Column::Value,
                    admin_setting::Column::UpdatedAt,
                ])
                .to_owned(),
        )
        .exec_without_returning(&txn)
        .await?;
        audit::record(
            &txn,
            actor,
            Entry {
                action: "set_ad_spend",
                target_type: "settings",
                target_id: AD_SPEND,
                before: before.map(|b| json!(b)),
                after: Some(json!(amount)),
            },
        )
        .await?;
        txn.commit().await?;
        self.superadmin(actor).await
    }

    /// The platform's business figures, measured from accounts and payments.
    pub async fn superadmin(&self, actor: &Actor) -> Result<SuperadminFigures, AdminError> {
        superuser(actor)?;
        let now = Utc::now();
        let revenue = ca_billing::staff::revenue_figures(&self.db, now).await?;
        let users = ca_auth::staff::all(&self.db).await?;
        let owners: Vec<&user::Model> = users.iter().filter(|u| u.role == "user").collect();
        let paid_owner_ids: std::collections::HashSet<String> =
            ca_billing::staff::owner_payment_totals(
                &self.db,
                &owners.iter().map(|u| u.id.clone()).collect::<Vec<_>>(),
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
                "trial" => by_status.trial += 1,
                "active" => by_status.active += 1,
                "expired" => by_status.expired += 1,
                _ => by_status.free += 1,
            }
            // A trial that has ended: its end date passed, or the owner paid.
            if u.role == "user"
                && u.trial_ends_at
                    .is_some_and(|t| t <= now || u.subscription_status != "trial")
            {
                trials_completed += 1;
                if paid_owner_ids.contains(&u.id) {
                    trials_converted += 1;
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
        let new_payers = ca_billing::staff::first_payments_since(&self.db, since).await?;
        let ad_spend = Self::ad_spend(&self.db).await?;
        let acquisition_cost = ad_spend.and_then(|spend| {
            (new_payers > 0).then(|| ca_core::figures::round(spend / new_payers as f64, 2))
        });
        let trials_active = owners
            .iter()
            .filter(|u| ca_auth::dto::effective_status(u, now).0 == "trial")
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

    /// The server's health, measured now.
    pub async fn health(&self, actor: &Actor) -> Result<SystemHealth, AdminError> {
        staff(actor)?;
        let started = Instant::now();
        let reachable = ca_core::db::ping(&self.db).await;
        let latency_ms = (started.elapsed().as_secs_f64() * 1000.0 * 100.0).round() / 100.0;
        let backend = self.db.get_database_backend();
        let (pool_size, pool_idle) = match backend {
            DbBackend::Sqlite => {
                let p = self.db.get_sqlite_connection_pool();
                (p.size(), u32::try_from(p.num_idle()).unwrap_or(u32::MAX))
            }
            DbBackend::Postgres => {
                let p = self.db.get_postgres_connection_pool();
                (p.size(), u32::try_from(p.num_idle()).unwrap_or(u32::MAX))
            }
            _ => (0, 0),
        };
        let (memory_bytes, cpu_percent, threads) = {
            let mut sys = self.system.lock().map_err(|_| {
                AdminError::Infra(ca_core::error::InfraError::Other(
                    "system probe poisoned".into(),
                ))
            })?;
            match sysinfo::get_current_pid() {
                Ok(pid) => {
                    sys.refresh_processes(sysinfo::ProcessesToUpdate::Some(&[pid]), true);
                    sys.process(pid).map_or((0, 0.0, 0), |p| {
                        (
                            p.memory(),
                            f64::from((p.cpu_usage() * 10.0).round() / 10.0),
                            p.tasks().map_or(0, |t| t.len() as u64),
                        )
                    })
                }
                Err(_) => (0, 0.0, 0),
            }
        };
        let dir = std::fs::canonicalize(&self.data_dir).unwrap_or_else(|_| self.data_dir.clone());
        let disks = sysinfo::Disks::new_with_refreshed_list();
        let disk = disks
            .list()
            .iter()
            .filter(|d| dir.starts_with(d.mount_point()))
            .max_by_key(|d| d.mount_point().as_os_str().len());
        let (queue_depth, queue_capacity) = (self.writer)();
        Ok(SystemHealth {
            status: if reachable {
                "ok".into()
            } else {
                "degraded".into()
            },
            version: env!("CARGO_PKG_VERSION").into(),
            uptime_seconds: self.started.elapsed().as_secs(),
            database: DatabaseHealth {
                backend: match backend {
                    DbBackend::Postgres => "postgres".into(),
                    _ => "sqlite".into(),
                },
                latency_ms,
                pool_size,
                pool_idle,
            },
            process: ProcessHealth {
                memory_bytes,
                cpu_percent,
                threads,
            },
            event_writer: WriterHealth {
                queue_depth,
                queue_capacity,
            },
            disk: DiskHealth {
                free_bytes: disk.map_or(0, |d| d.available_space()),
                total_bytes: disk.map_or(0, |d| d.total_space()),
                path: dir.display().to_string(),
            },
            checked_at: Utc::now(),
        })
    }

    /// The simple users calls (staff only): a page of accounts.
    pub async fn simple_users(
        &self,
        actor: &Actor,
        q: &UserListQuery,
    ) -> Result<UserList, AdminError> {
        self.users(actor, q).await
    }

    /// The simple users calls: one account.
    pub async fn simple_user(&self, actor: &Actor, id: &str) -> Result<AdminUser, AdminError> {
        staff(actor)?;
        let u = ca_auth::staff::get(&self.db, id).await?;
        self.admin_user(u).await
    }

    /// The simple users calls: an owner; without a password they are
    /// emailed a link to choose one.
    pub async fn simple_create(
        &self,
        actor: &Actor,
        input: SimpleUserIn,
    ) -> Result<AdminUser, AdminError> {
        staff(actor)?;
        let created = match input.password.filter(|p| !p.is_empty()) {
            Some(password) => {
                self.auth
                    .create_account(NewAccount {
                        name: input.name,
                        email: input.email,
                        phone: input.phone,
                        password,
                        role: Role::User,
                    })
                    .await?
            }
            None => {
                if input.name.trim().is_empty() {
                    return Err(AdminError::field("name", "Name is required"));
                }
                if input.email.trim().is_empty() {
                    return Err(AdminError::field("email", "Email is required"));
                }
                self.auth
                    .invite_owner(&input.name, &input.email, &input.phone)
                    .await?
            }
        };
        audit::record(
            &self.db,
            actor,
            Entry {
                action: "create_user",
                target_type: "user",
                target_id: &created.id,
                before: None,
                after: Some(snapshot(&created)),
            },
        )
        .await?;
        self.admin_user(created).await
    }
}
