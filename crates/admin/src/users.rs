//! Accounts as staff manage them: the list, changes, deletion, creating
//! owners and staff, setting a plan by hand, and signing in as an owner.
//! Nobody deletes or demotes themselves, and the last superuser stays.

use chrono::{DateTime, Utc};
use sea_orm::{ColumnTrait, EntityTrait, QueryFilter};
use serde_json::json;

use ca_auth::dto::SubscriptionStatus;
use ca_auth::entities::user;
use ca_auth::staff::AccountChange;
use ca_auth::{NewAccount, Role};

use crate::AdminError;
use crate::access::{self, Permission, may_manage};
use crate::audit::Actor;
use crate::audited::{Action, Done};
use crate::dto::*;
use crate::service::AdminService;

/// An account's fields as the audit log keeps them.
pub(crate) fn snapshot(u: &user::Model) -> serde_json::Value {
    json!({
        "name": u.name, "email": u.email, "phone": u.phone, "role": u.role,
        "planId": u.plan_id, "subscriptionStatus": u.subscription_status,
        "subscriptionEndsAt": u.subscription_ends_at, "trialEndsAt": u.trial_ends_at,
    })
}

pub(crate) fn rupees(paise: i64) -> f64 {
    paise as f64 / 100.0
}

const fn user_action(name: &'static str, need: Permission) -> Action {
    Action {
        name,
        target_type: "user",
        need: Some(need),
    }
}

impl AdminService {
    pub(crate) async fn admin_users(
        &self,
        users: Vec<user::Model>,
        now: DateTime<Utc>,
    ) -> Result<Vec<AdminUser>, AdminError> {
        let ids: Vec<String> = users.iter().map(|u| u.id.clone()).collect();
        let campaigns = ca_campaigns::counters::count_by_owner(&self.db, &ids).await?;
        let payments =
            ca_billing::staff::owner_payment_totals(&self.db, &ids, self.billing.counted_modes())
                .await?;
        let cancelled = ca_billing::staff::cancelled_owner_ids(&self.db).await?;
        let suspended = ca_auth::suspension::of_many(&self.db, ids).await?;
        Ok(users
            .into_iter()
            .map(|u| {
                let suspension = suspended.get(&u.id);
                let (status, _, _) = ca_auth::dto::effective_status(&u, now);
                let (count, paise, last) = payments.get(&u.id).cloned().unwrap_or((0, 0, None));
                AdminUser {
                    underscore_id: u.id.clone(),
                    campaign_count: campaigns.get(&u.id).copied().unwrap_or(0),
                    cancel_at_period_end: status == SubscriptionStatus::Active
                        && cancelled.contains(&u.id),
                    subscription_status: status,
                    total_payments: count,
                    total_revenue: rupees(paise),
                    last_payment_date: last,
                    suspended_at: suspension.map(|s| s.suspended_at),
                    widget_paused: suspension.is_some_and(|s| s.pause_widget),
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

    pub(crate) async fn admin_user(&self, u: user::Model) -> Result<AdminUser, AdminError> {
        self.admin_users(vec![u], Utc::now())
            .await?
            .pop()
            .ok_or(AdminError::Auth(ca_auth::AuthError::UserNotFound))
    }

    /// One page of accounts, filtered and sorted.
    pub async fn users(&self, actor: &Actor, q: &UserListQuery) -> Result<UserList, AdminError> {
        access::check(actor, Permission::ViewAdmin)?;
        let list = self.list_request(q, true).await?;
        let (rows, total) = ca_auth::staff::list(
            &self.db,
            &list.filter,
            &list.cancelled,
            list.sort,
            list.page,
            list.limit,
            list.now,
        )
        .await?;
        let pages = total.div_ceil(list.limit);
        Ok(UserList {
            users: self.admin_users(rows, list.now).await?,
            pagination: UserPagination {
                total_users: total,
                current_page: list.page,
                total_pages: pages,
                has_prev: list.page > 1,
                has_next: list.page < pages,
                limit: list.limit,
            },
        })
    }

    /// Changes an account's name, email, phone or role.
    pub async fn update_user(
        &self,
        actor: &Actor,
        id: &str,
        input: UserChangeIn,
    ) -> Result<AdminUser, AdminError> {
        let after = self
            .audited_on(
                actor,
                user_action("update_user", Permission::EditUsers),
                id,
                async |txn| {
                    let before = ca_auth::staff::get(txn, id).await?;
                    may_manage(actor, &before)?;
                    if let Some(role) = input.role.as_deref().map(str::trim)
                        && role != before.role
                    {
                        if before.id == actor.person_id() {
                            return Err(AdminError::SelfAction("change the role of"));
                        }
                        access::may_grant(actor, role)?;
                        if before.role == "superuser"
                            && ca_auth::staff::count_role(txn, "superuser").await? <= 1
                        {
                            return Err(AdminError::LastSuperuser);
                        }
                    }
                    let after = ca_auth::staff::update(
                        txn,
                        &before.id,
                        AccountChange {
                            name: input.name,
                            email: input.email,
                            phone: input.phone,
                            role: input.role,
                        },
                    )
                    .await?;
                    if after.email != before.email {
                        // The old address hears of it, in the same
                        // transaction: whoever holds that mailbox can tell
                        // staff if the change was not theirs. The new
                        // address is masked: the old one may be a mistyped
                        // stranger's.
                        let body = format!(
                            "Hello {name},\n\nThe email address you sign in to ConvertAssist with was changed by our staff from {old} to {new}. Sign-in emails and password reset links now go to the new address.\n\nIf you did not ask for this, reply to this email or contact ConvertAssist support at once.",
                            name = after.name,
                            old = before.email,
                            new = ca_auth::mailer::masked_addresses(&after.email),
                        );
                        self.auth
                            .mailer()
                            .send(
                                txn,
                                &before.email,
                                "Your ConvertAssist sign-in email was changed",
                                &body,
                            )
                            .await?;
                    }
                    Ok(Done::new(after.id.clone(), after.clone())
                        .before(Some(snapshot(&before)))
                        .after(Some(snapshot(&after))))
                },
            )
            .await?;
        self.admin_user(after).await
    }

    /// Deletes an account with its campaigns, conversations, customers and
    /// payments, in one transaction.
    pub async fn delete_user(&self, actor: &Actor, id: &str) -> Result<(), AdminError> {
        let deleted = self
            .audited_on(
                actor,
                user_action("delete_user", Permission::EditUsers),
                id,
                async |txn| {
                    let target = ca_auth::staff::get(txn, id).await?;
                    if target.id == actor.person_id() {
                        return Err(AdminError::SelfAction("delete"));
                    }
                    may_manage(actor, &target)?;
                    if target.role == "superuser"
                        && ca_auth::staff::count_role(txn, "superuser").await? <= 1
                    {
                        return Err(AdminError::LastSuperuser);
                    }
                    ca_auth::staff::delete(txn, &target.id).await?;
                    ca_auth::suspension::unsuspend(txn, &target.id).await?;
                    crate::entities::admin_note::Entity::delete_many()
                        .filter(crate::entities::admin_note::Column::UserId.eq(target.id.clone()))
                        .exec(txn)
                        .await?;
                    Ok(Done::new(target.id.clone(), target.id.clone())
                        .before(Some(snapshot(&target))))
                },
            )
            .await?;
        tracing::info!(actor = %actor.user.id, user = %deleted, "account deleted by staff");
        Ok(())
    }

    /// Creates a staff account (`admin`, or `superuser` by a superuser).
    pub async fn create_admin(
        &self,
        actor: &Actor,
        input: CreateAdminIn,
    ) -> Result<AdminUser, AdminError> {
        let email = input.email.clone();
        let created = self
            .audited_on(
                actor,
                user_action("create_admin", Permission::CreateAdmins),
                &email,
                async |txn| {
                    let role = match input.role.as_deref().map(str::trim).unwrap_or("admin") {
                        "" | "admin" => Role::Admin,
                        "superuser" => {
                            access::may_grant(actor, "superuser")?;
                            Role::Superuser
                        }
                        _ => {
                            return Err(AdminError::field(
                                "role",
                                "Role must be admin or superuser",
                            ));
                        }
                    };
                    let created = self
                        .auth
                        .create_account_in(
                            txn,
                            NewAccount {
                                name: input.name,
                                email: input.email,
                                phone: input.phone,
                                password: input.password,
                                role,
                            },
                        )
                        .await?;
                    Ok(Done::new(created.id.clone(), created.clone())
                        .after(Some(snapshot(&created))))
                },
            )
            .await?;
        self.admin_user(created).await
    }

    /// Creates an owner account, optionally on a plan; the account and its
    /// plan are stored together or not at all.
    pub async fn create_user(
        &self,
        actor: &Actor,
        input: CreateUserIn,
    ) -> Result<AdminUser, AdminError> {
        let created = self
            .audited(
                actor,
                user_action("create_user", Permission::EditUsers),
                async |txn| {
                    let status = input
                        .subscription_status
                        .as_deref()
                        .map(str::trim)
                        .filter(|s| !s.is_empty());
                    let plan = input
                        .plan_id
                        .as_deref()
                        .map(str::trim)
                        .filter(|p| !p.is_empty());
                    let created = self
                        .auth
                        .create_account_in(
                            txn,
                            NewAccount {
                                name: input.name.clone(),
                                email: input.email.clone(),
                                phone: input.phone.clone(),
                                password: input.password.clone(),
                                role: Role::User,
                            },
                        )
                        .await?;
                    let created = match (status, plan) {
                        (None, None) => created,
                        (status, plan) => {
                            let status = status.unwrap_or(if plan.is_some_and(|p| p != "free") {
                                "active"
                            } else {
                                "free"
                            });
                            ca_billing::staff::change_plan(
                                txn,
                                &created.id,
                                plan.unwrap_or("free"),
                                status,
                                input.subscription_ends_at,
                                Utc::now(),
                            )
                            .await?
                        }
                    };
                    Ok(Done::new(created.id.clone(), created.clone())
                        .after(Some(snapshot(&created))))
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
        let after = self
            .audited_on(
                actor,
                user_action("change_plan", Permission::EditUsers),
                id,
                async |txn| {
                    let before = ca_auth::staff::get(txn, id).await?;
                    may_manage(actor, &before)?;
                    let after = ca_billing::staff::change_plan(
                        txn,
                        &before.id,
                        &input.plan_id,
                        input.subscription_status.trim(),
                        input.subscription_ends_at,
                        Utc::now(),
                    )
                    .await?;
                    Ok(Done::new(after.id.clone(), after.clone())
                        .before(Some(snapshot(&before)))
                        .after(Some(snapshot(&after))))
                },
            )
            .await?;
        self.admin_user(after).await
    }

    /// A superuser signs in as another account: the token names them too, so
    /// what they do is attributed to them.
    pub async fn login_as(
        &self,
        actor: &Actor,
        user_id: &str,
    ) -> Result<ca_auth::dto::AuthResponse, AdminError> {
        let action = Action {
            name: "login_as_user",
            target_type: "user",
            need: Some(Permission::LoginAs),
        };
        let session = self
            .audited_on(actor, action, user_id, async |txn| {
                if actor.acting_for.is_some() {
                    return Err(AdminError::SuperuserRequired);
                }
                let target = user_id.trim();
                if target == actor.person_id() {
                    return Err(AdminError::SelfAction("sign in as"));
                }
                let session = self.auth.login_as(txn, &actor.user, target).await?;
                Ok(Done::new(target, session))
            })
            .await?;
        tracing::info!(actor = %actor.user.id, user = %user_id.trim(), "superuser signed in as a user");
        Ok(session)
    }

    /// Ends the "login as user" session of `token` (Return to admin): the
    /// token stops working, and the return is on record. The staff member's
    /// own session was never touched, so they carry on without signing in.
    pub async fn return_from_login_as(&self, actor: &Actor, token: &str) -> Result<(), AdminError> {
        if actor.acting_for.is_none() {
            return Err(AdminError::Auth(ca_auth::AuthError::NotActingAs));
        }
        let action = Action {
            name: "return_from_login_as",
            target_type: "user",
            need: None,
        };
        self.audited(actor, action, async |txn| {
            self.auth.end_login_as(txn, token).await?;
            Ok(Done::new(actor.user.id.clone(), ()))
        })
        .await
    }

    /// What the caller's role may do in the admin area, with the whole table.
    pub fn permissions(&self, actor: &Actor) -> PermissionsOut {
        PermissionsOut {
            role: actor.user.role.clone(),
            allowed: access::allowed(&actor.user.role),
            table: access::TABLE
                .iter()
                .map(|(action, roles)| PermissionRow {
                    action: *action,
                    roles: roles.iter().map(|r| (*r).to_string()).collect(),
                })
                .collect(),
        }
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
        let action = Action {
            name: crate::audit::REQUEST_AS_USER,
            target_type: "user",
            need: None,
        };
        self.audited(actor, action, async |_| {
            Ok(Done::new(actor.user.id.clone(), ())
                .after(Some(json!({"method": method, "path": path}))))
        })
        .await
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
        access::check(actor, Permission::ViewAdmin)?;
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
        let created = self
            .audited(
                actor,
                user_action("create_user", Permission::EditUsers),
                async |txn| {
                    let created = match input.password.filter(|p| !p.is_empty()) {
                        Some(password) => {
                            self.auth
                                .create_account_in(
                                    txn,
                                    NewAccount {
                                        name: input.name,
                                        email: input.email,
                                        phone: input.phone,
                                        password,
                                        role: Role::User,
                                    },
                                )
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
                                .invite_owner(txn, &input.name, &input.email, &input.phone)
                                .await?
                        }
                    };
                    Ok(Done::new(created.id.clone(), created.clone())
                        .after(Some(snapshot(&created))))
                },
            )
            .await?;
        self.admin_user(created).await
    }
}
