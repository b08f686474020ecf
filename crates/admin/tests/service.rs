#![allow(clippy::expect_used, clippy::unwrap_used)]
//! The admin service against a real database (SQLite, or PostgreSQL when
//! CA_TEST_POSTGRES_URL is set): role checks, every change stored together
//! with its audit entry or not at all, login-as attribution, and the ad
//! spend kept as a platform setting.

use std::sync::Arc;

use sea_orm::{
    ActiveModelTrait, ColumnTrait, EntityTrait, IntoActiveModel, QueryFilter, QueryOrder, Set,
};

use ca_admin::dto::{AdSpendIn, CreateUserIn, UserChangeIn};
use ca_admin::entities::audit_entry;
use ca_admin::{Actor, AdminError, AdminService};
use ca_auth::entities::user;
use ca_auth::{AuthService, JwtKeys, Mailer, NewAccount, Role};
use ca_billing::dto::PlanLimits;
use ca_billing::staff::PlanIn;
use ca_core::rate_limit::RateLimiter;
use ca_migrations::testing::TestDb;

struct Setup {
    db: TestDb,
    auth: AuthService,
    admin: AdminService,
}

async fn setup() -> Setup {
    let db = TestDb::new().await.expect("db");
    let auth = AuthService::new(
        db.conn.clone(),
        JwtKeys::new("admin-test-secret-admin-test-secret", 1),
        Mailer::new(None, "ConvertAssist <no-reply@example.in>").expect("mailer"),
        Arc::new(RateLimiter::memory()),
        "http://localhost",
    );
    let billing = ca_billing::BillingService::new(
        db.conn.clone(),
        ca_billing::BillingConfig {
            public_url: "http://localhost".into(),
            gateway: ca_billing::Gateway::Simulator,
            simulator: ca_billing::payu::Credentials {
                key: "sim".into(),
                salt: "sim-salt".into(),
            },
            demo_enabled: true,
            seller: ca_billing::dto::Seller {
                name: "ConvertAssist".into(),
                address: String::new(),
                gstin: None,
                state_code: None,
            },
            tax: Default::default(),
        },
        Arc::new(ca_campaigns::counters::Meter(db.conn.clone())),
    );
    let admin = AdminService::new(
        db.conn.clone(),
        auth.clone(),
        billing,
        std::env::temp_dir(),
        Arc::new(|| (0, 0)),
    );
    Setup { db, auth, admin }
}

impl Setup {
    /// An account with `role`, acting as itself.
    async fn actor(&self, name: &str, email: &str, role: Role) -> Actor {
        let user = self
            .auth
            .create_account(NewAccount {
                name: name.into(),
                email: email.into(),
                phone: "+91 9000000001".into(),
                password: "staff-pass".into(),
                role,
            })
            .await
            .expect("account");
        Actor {
            user,
            acting_for: None,
        }
    }

    /// Every audit entry, oldest first.
    /// The entries of changes made (refusals are listed by [`Self::refusals`]).
    async fn entries(&self) -> Vec<audit_entry::Model> {
        audit_entry::Entity::find()
            .order_by_asc(audit_entry::Column::CreatedAt)
            .all(&self.db.conn)
            .await
            .expect("audit log")
            .into_iter()
            .filter(|e| !e.action.ends_with("_refused"))
            .collect()
    }

    /// The actions of the refusals on record, oldest first.
    async fn refusals(&self) -> Vec<String> {
        audit_entry::Entity::find()
            .order_by_asc(audit_entry::Column::CreatedAt)
            .all(&self.db.conn)
            .await
            .expect("audit log")
            .into_iter()
            .filter(|e| e.action.ends_with("_refused"))
            .map(|e| e.action)
            .collect()
    }

    /// The one entry recorded as `action`.
    async fn entry(&self, action: &str) -> audit_entry::Model {
        let mut found: Vec<_> = self
            .entries()
            .await
            .into_iter()
            .filter(|e| e.action == action)
            .collect();
        assert_eq!(found.len(), 1, "one {action} entry: {found:?}");
        found.pop().expect("entry")
    }

    async fn role_of(&self, id: &str) -> String {
        user::Entity::find_by_id(id.to_string())
            .one(&self.db.conn)
            .await
            .expect("q")
            .expect("account")
            .role
    }
}

fn json(text: Option<&str>) -> serde_json::Value {
    serde_json::from_str(text.expect("a recorded value")).expect("json")
}

fn plan(name: &str) -> PlanIn {
    PlanIn {
        id: None,
        name: name.into(),
        display_name: "Growth".into(),
        price: 2999,
        currency: Some("INR".into()),
        interval: Some("monthly".into()),
        features: vec!["5 campaigns".into()],
        limits: PlanLimits {
            campaigns: 5,
            visitors_per_month: 25_000,
            ai_conversations: 2500,
            custom_branding: true,
            api_access: false,
            white_label: false,
            priority_support: true,
            phone_support: false,
        },
        popular: false,
        active: Some(true),
        sort_order: 2,
    }
}

/// An `admin` may not create plans: the call is refused before anything is
/// written; the same call by a superuser stores the plan with one entry.
#[tokio::test]
async fn only_a_superuser_creates_plans_and_a_refusal_writes_nothing() {
    let s = setup().await;
    let admin = s.actor("Desk", "desk@example.in", Role::Admin).await;
    let root = s.actor("Root", "root@example.in", Role::Superuser).await;

    let refused = s.admin.create_plan(&admin, plan("Growth Plan")).await;
    assert!(
        matches!(refused, Err(AdminError::SuperuserRequired)),
        "{refused:?}"
    );
    let stored = ca_billing::entities::plan::Entity::find_by_id("growth-plan".to_string())
        .one(&s.db.conn)
        .await
        .expect("q");
    assert!(stored.is_none(), "a refused plan is not stored");
    assert!(s.entries().await.is_empty(), "nor is a change entry");
    assert_eq!(
        s.refusals().await,
        ["create_plan_refused"],
        "the refusal is"
    );

    let created = s
        .admin
        .create_plan(&root, plan("Growth Plan"))
        .await
        .expect("a superuser creates it");
    assert_eq!(created.id, "growth-plan");
    let entries = s.entries().await;
    assert_eq!(entries.len(), 1, "{entries:?}");
    let e = &entries[0];
    assert_eq!(
        (
            e.action.as_str(),
            e.target_type.as_str(),
            e.target_id.as_str()
        ),
        ("create_plan", "plan", "growth-plan")
    );
    assert_eq!(e.actor_id, root.user.id);
    assert_eq!(json(e.after.as_deref())["price"], 2999);
}

/// A change of an account is recorded with the values before and after, and
/// a change that fails leaves neither the change nor an entry.
#[tokio::test]
async fn a_user_change_is_stored_with_its_audit_entry_or_not_at_all() {
    let s = setup().await;
    let root = s.actor("Root", "root@example.in", Role::Superuser).await;
    let owner = s.actor("Meera", "meera@example.in", Role::User).await;

    s.admin
        .update_user(
            &root,
            &owner.user.id,
            UserChangeIn {
                name: Some("Meera Iyer".into()),
                ..UserChangeIn::default()
            },
        )
        .await
        .expect("rename");
    let entries = s.entries().await;
    assert_eq!(entries.len(), 1, "{entries:?}");
    let e = &entries[0];
    assert_eq!(e.action, "update_user");
    assert_eq!(e.target_id, owner.user.id);
    assert_eq!(e.actor_id, root.user.id);
    assert_eq!(e.acting_as_id, None);
    assert_eq!(json(e.before.as_deref())["name"], "Meera");
    assert_eq!(json(e.after.as_deref())["name"], "Meera Iyer");

    // An owner on a plan that does not exist: the account made in the same
    // transaction is undone, and nothing is recorded.
    let refused = s
        .admin
        .create_user(
            &root,
            CreateUserIn {
                name: "Half".into(),
                email: "half@example.in".into(),
                password: "correct horse 3".into(),
                phone: "+91 9000000005".into(),
                plan_id: Some("gold".into()),
                subscription_status: Some("free".into()),
                subscription_ends_at: None,
            },
        )
        .await;
    assert!(
        matches!(
            refused,
            Err(AdminError::Billing(ca_billing::BillingError::PlanNotFound))
        ),
        "{refused:?}"
    );
    let half = user::Entity::find()
        .filter(user::Column::Email.eq("half@example.in"))
        .one(&s.db.conn)
        .await
        .expect("q");
    assert!(half.is_none(), "no half-made account: {half:?}");
    assert_eq!(s.entries().await.len(), 1, "no entry for the refused call");

    // The same owner on a plan that exists is created with one entry.
    let made = s
        .admin
        .create_user(
            &root,
            CreateUserIn {
                name: "Whole".into(),
                email: "whole@example.in".into(),
                password: "correct horse 3".into(),
                phone: "+91 9000000006".into(),
                plan_id: Some("basic".into()),
                subscription_status: Some("active".into()),
                subscription_ends_at: Some(chrono::Utc::now() + chrono::Duration::days(30)),
            },
        )
        .await
        .expect("create");
    assert_eq!(made.plan_id, "basic");
    let entries = s.entries().await;
    assert_eq!(entries.len(), 2, "{entries:?}");
    let e = s.entry("create_user").await;
    assert_eq!(e.target_id, made.id);
}

/// Two superusers demoting each other at the same moment: the first wins,
/// the second (whose request still sees its own role as superuser) is
/// refused, so one superuser always remains, and only the change made is
/// on record.
#[tokio::test]
async fn the_last_superuser_is_never_demoted() {
    let s = setup().await;
    let first = s.actor("Root", "root@example.in", Role::Superuser).await;
    let second = s
        .actor("Root Two", "root2@example.in", Role::Superuser)
        .await;
    let demote = || UserChangeIn {
        role: Some("admin".into()),
        ..UserChangeIn::default()
    };

    // Nobody changes their own role.
    let own = s.admin.update_user(&first, &first.user.id, demote()).await;
    assert!(matches!(own, Err(AdminError::SelfAction(_))), "{own:?}");
    assert!(s.entries().await.is_empty());

    s.admin
        .update_user(&first, &second.user.id, demote())
        .await
        .expect("a second superuser may be demoted");
    assert_eq!(s.role_of(&second.user.id).await, "admin");

    let last = s.admin.update_user(&second, &first.user.id, demote()).await;
    assert!(matches!(last, Err(AdminError::LastSuperuser)), "{last:?}");
    assert_eq!(s.role_of(&first.user.id).await, "superuser");
    assert_eq!(
        ca_auth::staff::count_role(&s.db.conn, "superuser")
            .await
            .expect("count"),
        1
    );
    let entries = s.entries().await;
    assert_eq!(entries.len(), 1, "{entries:?}");
    assert_eq!(entries[0].target_id, second.user.id);
    assert_eq!(json(entries[0].before.as_deref())["role"], "superuser");
    assert_eq!(json(entries[0].after.as_deref())["role"], "admin");
}

/// Only a superuser signs in as an owner; the session names them, and what
/// they then write is recorded as theirs, done as the owner.
#[tokio::test]
async fn login_as_is_for_superusers_and_what_they_do_is_attributed_to_them() {
    let s = setup().await;
    let admin = s.actor("Desk", "desk@example.in", Role::Admin).await;
    let root = s.actor("Root", "root@example.in", Role::Superuser).await;
    let owner = s.actor("Meera", "meera@example.in", Role::User).await;

    let refused = s.admin.login_as(&admin, &owner.user.id).await;
    assert!(
        matches!(refused, Err(AdminError::SuperuserRequired)),
        "{refused:?}"
    );
    assert!(s.entries().await.is_empty());
    assert_eq!(s.refusals().await, ["login_as_user_refused"]);

    let session = s
        .admin
        .login_as(&root, &owner.user.id)
        .await
        .expect("login as");
    let (as_user, acting_for) = s
        .auth
        .authenticate_session(&session.token)
        .await
        .expect("a valid session");
    assert_eq!(as_user.id, owner.user.id);
    assert_eq!(acting_for.as_deref(), Some(root.user.id.as_str()));
    let entries = s.entries().await;
    assert_eq!(entries.len(), 1, "{entries:?}");
    assert_eq!(
        (
            entries[0].action.as_str(),
            entries[0].actor_id.as_str(),
            entries[0].target_id.as_str()
        ),
        (
            "login_as_user",
            root.user.id.as_str(),
            owner.user.id.as_str()
        )
    );

    // The owner's own writes are not staff actions; the superuser's are.
    s.admin
        .record_acting(&owner, "POST", "/api/campaigns")
        .await
        .expect("own write");
    assert_eq!(s.entries().await.len(), 1);
    let acting = Actor {
        user: as_user,
        acting_for,
    };
    s.admin
        .record_acting(&acting, "POST", "/api/campaigns")
        .await
        .expect("record");
    let entries = s.entries().await;
    assert_eq!(entries.len(), 2, "{entries:?}");
    let e = s.entry("request_as_user").await;
    assert_eq!(e.actor_id, root.user.id);
    assert_eq!(e.actor_name, "Root");
    assert_eq!(e.acting_as_id.as_deref(), Some(owner.user.id.as_str()));
    let after = json(e.after.as_deref());
    assert_eq!(
        (&after["method"], &after["path"]),
        (
            &serde_json::json!("POST"),
            &serde_json::json!("/api/campaigns")
        )
    );
    let about = ca_admin::audit::about(&s.db.conn, &owner.user.id, 10)
        .await
        .expect("about");
    assert_eq!(
        about.len(),
        3,
        "the admin's refused attempt and both entries are listed on the owner's page"
    );
}

/// The ad spend is a platform setting only a superuser sets, 0 or more.
#[tokio::test]
async fn the_ad_spend_is_a_platform_setting_of_zero_or_more() {
    let s = setup().await;
    let admin = s.actor("Desk", "desk@example.in", Role::Admin).await;
    let root = s.actor("Root", "root@example.in", Role::Superuser).await;
    let stored = async || {
        ca_auth::settings::get(&s.db.conn, "ad_spend_last30_days")
            .await
            .expect("setting")
    };

    let by_admin = s
        .admin
        .set_ad_spend(
            &admin,
            AdSpendIn {
                ad_spend_last30_days: 5000.0,
            },
        )
        .await;
    assert!(
        matches!(by_admin, Err(AdminError::SuperuserRequired)),
        "{by_admin:?}"
    );
    for bad in [-1.0, f64::NAN] {
        let negative = s
            .admin
            .set_ad_spend(
                &root,
                AdSpendIn {
                    ad_spend_last30_days: bad,
                },
            )
            .await;
        match negative {
            Err(AdminError::Validation { errors, .. }) => {
                assert!(errors.contains_key("adSpendLast30Days"), "{errors:?}");
            }
            other => panic!("{bad} must be refused: {other:?}"),
        }
    }
    assert_eq!(stored().await, None);
    assert!(s.entries().await.is_empty());
    assert_eq!(
        s.admin
            .superadmin(&root)
            .await
            .expect("figures")
            .ad_spend_last30_days,
        None
    );

    let figures = s
        .admin
        .set_ad_spend(
            &root,
            AdSpendIn {
                ad_spend_last30_days: 5000.0,
            },
        )
        .await
        .expect("set");
    assert_eq!(figures.ad_spend_last30_days, Some(5000.0));
    assert_eq!(
        s.admin
            .superadmin(&root)
            .await
            .expect("figures")
            .ad_spend_last30_days,
        Some(5000.0)
    );
    let kept: f64 = stored().await.expect("stored").parse().expect("a number");
    assert!((kept - 5000.0).abs() < f64::EPSILON, "{kept}");
    let entries = s.entries().await;
    assert_eq!(entries.len(), 1, "{entries:?}");
    assert_eq!(
        (entries[0].action.as_str(), entries[0].target_type.as_str()),
        ("set_ad_spend", "settings")
    );
    assert_eq!(json(entries[0].after.as_deref()), serde_json::json!(5000.0));
}

#[tokio::test]
async fn active_subscriptions_count_paying_owners_not_staff() {
    let s = setup().await;
    let root = s.actor("Root", "root@example.in", Role::Superuser).await;
    let desk = s.actor("Desk", "desk@example.in", Role::Admin).await;
    let paying = s.actor("Asha", "asha@example.in", Role::User).await;
    let lapsed = s.actor("Ravi", "ravi@example.in", Role::User).await;
    let _trial = s.actor("Meena", "meena@example.in", Role::User).await;
    let now = chrono::Utc::now();
    // A staff account can carry a running subscription (an owner promoted
    // to staff keeps theirs), and an owner's can have run out.
    for (actor, ends) in [
        (&paying, now + chrono::Duration::days(20)),
        (&desk, now + chrono::Duration::days(20)),
        (&root, now + chrono::Duration::days(20)),
        (&lapsed, now - chrono::Duration::days(1)),
    ] {
        let mut row = actor.user.clone().into_active_model();
        row.subscription_status = Set("active".into());
        row.subscription_ends_at = Set(Some(ends));
        row.update(&s.db.conn).await.expect("subscription");
    }
    let stats = s.admin.stats(&root).await.expect("stats");
    assert_eq!(stats.active_subscriptions, 1, "{stats:?}");
    assert_eq!(stats.total_admins, 2);
}
