//! The admin console staff run the business from: figures that say what
//! they count, login-as with a way back, one permission table the server
//! applies to every admin route, the rules between admins and superusers
//! (every refusal on record), and an activity list without repeats.

use chrono::{Duration, Utc};
use sea_orm::sea_query::Expr;
use sea_orm::{ColumnTrait, EntityTrait, QueryFilter};
use serde_json::{Value, json};

use crate::admin::account;
use crate::billing::campaign;
use crate::helpers::{Reply, TestApp, spawn_app};

/// Moves an owner's trial end to `days` from now (negative: in the past).
async fn trial_ends_in(app: &TestApp, id: &str, days: i64) {
    ca_auth::entities::user::Entity::update_many()
        .col_expr(
            ca_auth::entities::user::Column::TrialEndsAt,
            Expr::value(Utc::now() + Duration::days(days)),
        )
        .filter(ca_auth::entities::user::Column::Id.eq(id))
        .exec(&app.db.conn)
        .await
        .expect("trial end");
}

/// Staff put an owner on the basic plan by hand, without a payment.
async fn set_active_by_hand(app: &TestApp, staff: &str, id: &str) {
    let ends = (Utc::now() + Duration::days(30)).to_rfc3339();
    let r = app
        .send(
            "POST",
            &format!("/api/admin/users/{id}/change-plan"),
            Some(staff),
            json!({"planId": "basic", "subscriptionStatus": "active", "subscriptionEndsAt": ends}),
        )
        .await;
    assert_eq!(r.status, 200, "{}", r.body);
}

/// The audit entries (actions) `actor_id` was refused, oldest first.
async fn refusals_of(app: &TestApp, actor_id: &str) -> Vec<(String, String)> {
    use sea_orm::QueryOrder;
    ca_admin::entities::audit_entry::Entity::find()
        .filter(ca_admin::entities::audit_entry::Column::ActorId.eq(actor_id))
        .order_by_asc(ca_admin::entities::audit_entry::Column::CreatedAt)
        .all(&app.db.conn)
        .await
        .expect("audit")
        .into_iter()
        .filter(|e| e.action.ends_with("_refused"))
        .map(|e| (e.action, e.target_id))
        .collect()
}

async fn login_as(app: &TestApp, staff: &str, owner_id: &str) -> Reply {
    app.send(
        "POST",
        "/api/admin/login-as-user",
        Some(staff),
        json!({"userId": owner_id}),
    )
    .await
}

/// Trial conversion counts only trials that ended (their end passed, or
/// the owner paid); an owner staff put on a paid plan by hand is neither a
/// conversion nor an unpaid trial. The two "active subscription" figures
/// are told apart: on a paid plan (set by staff included) and paying.
#[tokio::test]
async fn trial_conversion_counts_only_trials_that_ended() {
    let app = spawn_app().await;
    let (su, _) = account(&app, "root@example.in", "superuser").await;
    // Still in a trial, set active by staff by hand: left out.
    let (_, comped_early) = account(&app, "comped-early@example.in", "user").await;
    set_active_by_hand(&app, &su, &comped_early).await;
    // Trial ended, then set active by staff by hand: left out.
    let (_, comped_late) = account(&app, "comped-late@example.in", "user").await;
    trial_ends_in(&app, &comped_late, -2).await;
    set_active_by_hand(&app, &su, &comped_late).await;
    // Trial ended unpaid: completed, not converted.
    let (_, lapsed) = account(&app, "lapsed@example.in", "user").await;
    trial_ends_in(&app, &lapsed, -1).await;
    // Paid: completed and converted.
    let (payer, _) = account(&app, "payer@example.in", "user").await;
    let paid = app
        .send(
            "POST",
            "/api/billing/mock-payment-success",
            Some(&payer),
            json!({"planId": "basic"}),
        )
        .await;
    assert_eq!(paid.status, 200, "{}", paid.body);
    // Still in a trial: not completed.
    account(&app, "trialling@example.in", "user").await;

    let f = app.get("/api/admin/superadmin", Some(&su)).await;
    assert_eq!(f.status, 200, "{}", f.body);
    let f = &f.body["data"];
    assert_eq!(f["trialsCompleted"], 2, "{f}");
    assert_eq!(f["trialConversionRate"], 50.0, "{f}");
    assert_eq!(f["trialsActive"], 1, "{f}");
    // Paying subscriptions: the one payer. On a paid plan: the payer and
    // the two set by staff.
    assert_eq!(f["activeSubscriptions"], 1, "{f}");
    let stats = app.get("/api/admin/dashboard/stats", Some(&su)).await;
    assert_eq!(
        stats.body["data"]["activeSubscriptions"], 3,
        "{}",
        stats.body
    );
}

/// Login-as answers who is signed in as the owner, `/me` says so under
/// that token only, and Return ends that one token (401 after) while the
/// staff member's own session, other login-as sessions and the owner's
/// own session go on. Only owners can be signed in as; refusals are on
/// record.
#[tokio::test]
async fn return_to_admin_ends_only_the_login_as_token() {
    let app = spawn_app().await;
    let (su, su_id) = account(&app, "root@example.in", "superuser").await;
    let (_, su2_id) = account(&app, "root2@example.in", "superuser").await;
    let (_, admin_id) = account(&app, "desk@example.in", "admin").await;
    let (owner, owner_id) = account(&app, "owner@example.in", "user").await;

    let r = login_as(&app, &su, &owner_id).await;
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(
        r.body["data"]["impersonatedBy"],
        json!({"id": su_id, "email": "root@example.in"})
    );
    let as_owner = r.body["data"]["token"].as_str().expect("token").to_string();
    let other = login_as(&app, &su, &owner_id).await;
    let other = other.body["data"]["token"]
        .as_str()
        .expect("token")
        .to_string();

    let me = app.get("/api/auth/me", Some(&as_owner)).await;
    assert_eq!(me.body["user"]["id"], owner_id.as_str());
    assert_eq!(
        me.body["impersonatedBy"],
        json!({"id": su_id, "email": "root@example.in"})
    );
    let own = app.get("/api/auth/me", Some(&su)).await;
    assert!(own.body.get("impersonatedBy").is_none(), "{}", own.body);
    let owners_own = app.get("/api/auth/me", Some(&owner)).await;
    assert!(
        owners_own.body.get("impersonatedBy").is_none(),
        "{}",
        owners_own.body
    );

    // Return needs a login-as token.
    app.send("POST", "/api/admin/return", Some(&su), Value::Null)
        .await
        .error(422, "not_acting_as");
    app.send("POST", "/api/admin/return", None, Value::Null)
        .await
        .error(401, "missing_token");

    let back = app
        .send("POST", "/api/admin/return", Some(&as_owner), Value::Null)
        .await;
    assert_eq!(back.status, 200, "{}", back.body);
    app.get("/api/auth/me", Some(&as_owner))
        .await
        .error(401, "invalid_token");
    app.send("POST", "/api/admin/return", Some(&as_owner), Value::Null)
        .await
        .error(401, "invalid_token");
    // The staff session was never touched: no new sign-in.
    let stats = app.get("/api/admin/dashboard/stats", Some(&su)).await;
    assert_eq!(stats.status, 200, "{}", stats.body);
    // Nor the owner's own session, nor another login-as session.
    assert_eq!(app.get("/api/auth/me", Some(&owner)).await.status, 200);
    assert_eq!(app.get("/api/auth/me", Some(&other)).await.status, 200);

    // Nobody signs in as a superuser or an admin, and the refusal is kept.
    login_as(&app, &su, &su2_id)
        .await
        .error(403, "login_as_owners_only");
    login_as(&app, &su, &admin_id)
        .await
        .error(403, "login_as_owners_only");
    assert_eq!(
        refusals_of(&app, &su_id).await,
        vec![
            ("login_as_user_refused".to_string(), su2_id.clone()),
            ("login_as_user_refused".to_string(), admin_id.clone()),
        ]
    );
    // The return is on the owner's record, made by the superuser.
    let detail = app
        .get(&format!("/api/admin/users/{owner_id}"), Some(&su))
        .await;
    let audit = detail.body["data"]["audit"].as_array().expect("audit");
    let returned = audit
        .iter()
        .find(|a| a["action"] == "return_from_login_as")
        .expect("the return is on record");
    assert_eq!(returned["actorId"], su_id.as_str());
    assert!(
        audit.iter().all(|a| a["action"] != "request_as_user"),
        "the return is recorded once, not also as a request: {audit:?}"
    );
}

/// Every admin route checks the one permission table the dashboard reads
/// (`GET /api/admin/permissions`): for each route × role, the call goes
/// through exactly when the table allows that role its action. Every
/// action of the table has a route here.
#[tokio::test]
async fn every_admin_route_applies_the_permission_table() {
    let app = spawn_app().await;
    let (owner, owner_id) = account(&app, "owner@example.in", "user").await;
    let (admin, _) = account(&app, "desk@example.in", "admin").await;
    let (su, _) = account(&app, "root@example.in", "superuser").await;
    let (_, staff_a) = account(&app, "staff-a@example.in", "admin").await;
    let (_, staff_b) = account(&app, "staff-b@example.in", "admin").await;
    let (_, victim_a) = account(&app, "victim-a@example.in", "user").await;
    let (_, victim_b) = account(&app, "victim-b@example.in", "user").await;
    let (_, victim_c) = account(&app, "victim-c@example.in", "user").await;
    let roles = [("user", &owner), ("admin", &admin), ("superuser", &su)];

    let table = app.get("/api/admin/permissions", Some(&su)).await;
    assert_eq!(table.status, 200, "{}", table.body);
    let rows = table.body["data"]["table"]
        .as_array()
        .expect("table")
        .clone();
    let allows = |action: &str, role: &str| {
        rows.iter()
            .find(|r| r["action"] == action)
            .unwrap_or_else(|| panic!("{action} is not in the table"))["roles"]
            .as_array()
            .expect("roles")
            .iter()
            .any(|r| r == role)
    };
    // Each role is told what it may do, from the same table.
    for (role, token) in roles {
        let mine = app.get("/api/admin/permissions", Some(token)).await;
        assert_eq!(mine.body["data"]["role"], role);
        let allowed: Vec<&str> = mine.body["data"]["allowed"]
            .as_array()
            .expect("allowed")
            .iter()
            .map(|a| a.as_str().expect("action"))
            .collect();
        let expected: Vec<&str> = rows
            .iter()
            .map(|r| r["action"].as_str().expect("action"))
            .filter(|a| allows(a, role))
            .collect();
        assert_eq!(allowed, expected, "{role}");
    }
    assert!(allows("createAdmins", "admin"));
    assert!(!allows("grantSuperuser", "admin"));
    assert!(!allows("manageStaff", "admin"));

    let plan = |name: &str| {
        json!({
            "name": name, "displayName": "Growth", "price": 2999, "currency": "INR", "interval": "monthly",
            "features": ["5 campaigns"],
            "limits": {"campaigns": 5, "visitorsPerMonth": 25000, "aiConversations": 2500,
                "customBranding": false, "apiAccess": false, "whiteLabel": false,
                "prioritySupport": false, "phoneSupport": false},
            "popular": false, "active": true, "sortOrder": 2
        })
    };
    let person = |tag: &str, role: &str| {
        json!({"name": "New Person", "email": format!("{tag}-{role}@example.in"),
            "password": "correct horse 2", "phone": "+91 9000000001"})
    };
    // (action, method, path, body per role)
    type Body = Box<dyn Fn(&str) -> Value>;
    let none = || -> Body { Box::new(|_: &str| Value::Null) };
    let routes: Vec<(&str, &str, String, Body)> = vec![
        (
            "viewAdmin",
            "GET",
            "/api/admin/dashboard/stats".into(),
            none(),
        ),
        ("viewAdmin", "GET", "/api/admin/users".into(), none()),
        (
            "viewAdmin",
            "GET",
            format!("/api/admin/users/{owner_id}"),
            none(),
        ),
        ("viewAdmin", "GET", "/api/admin/plans".into(), none()),
        (
            "viewAdmin",
            "GET",
            "/api/admin/system/health".into(),
            none(),
        ),
        (
            "viewAdmin",
            "GET",
            "/api/admin/settings/trial".into(),
            none(),
        ),
        ("viewAdmin", "GET", "/api/admin/meta/events".into(), none()),
        ("viewAdmin", "GET", "/api/users".into(), none()),
        ("viewAdmin", "GET", format!("/api/users/{owner_id}"), none()),
        (
            "editUsers",
            "PUT",
            format!("/api/admin/users/{owner_id}"),
            Box::new(|_: &str| json!({"name": "Owner Renamed"})),
        ),
        (
            "editUsers",
            "PUT",
            format!("/api/users/{owner_id}"),
            Box::new(|_: &str| json!({"name": "Owner Renamed Again"})),
        ),
        (
            "editUsers",
            "POST",
            format!("/api/admin/users/{owner_id}/change-plan"),
            Box::new(|_: &str| json!({"planId": "free", "subscriptionStatus": "free"})),
        ),
        (
            "editUsers",
            "POST",
            "/api/admin/users/create-user".into(),
            Box::new(move |role: &str| person("owner", role)),
        ),
        (
            "editUsers",
            "POST",
            "/api/users".into(),
            Box::new(move |role: &str| person("simple", role)),
        ),
        (
            "editUsers",
            "DELETE",
            format!("/api/admin/users/{victim_a}"),
            none(),
        ),
        (
            "editUsers",
            "DELETE",
            format!("/api/users/{victim_b}"),
            none(),
        ),
        (
            "createAdmins",
            "POST",
            "/api/admin/users/create-admin".into(),
            Box::new(move |role: &str| person("admin", role)),
        ),
        (
            "grantSuperuser",
            "POST",
            "/api/admin/users/create-admin".into(),
            Box::new(move |role: &str| {
                let mut p = person("su", role);
                p["role"] = json!("superuser");
                p
            }),
        ),
        (
            "manageStaff",
            "PUT",
            format!("/api/admin/users/{staff_a}"),
            Box::new(|_: &str| json!({"role": "user"})),
        ),
        (
            "manageStaff",
            "DELETE",
            format!("/api/admin/users/{staff_b}"),
            none(),
        ),
        (
            "loginAs",
            "POST",
            "/api/admin/login-as-user".into(),
            Box::new(move |_: &str| json!({"userId": owner_id.clone()})),
        ),
        (
            "viewBusiness",
            "GET",
            "/api/admin/superadmin".into(),
            none(),
        ),
        (
            "editSettings",
            "PUT",
            "/api/admin/settings/ad-spend".into(),
            Box::new(|_: &str| json!({"adSpendLast30Days": 5000})),
        ),
        (
            "editSettings",
            "PUT",
            "/api/admin/settings/trial".into(),
            Box::new(|_: &str| {
                json!({"trialDurationDays": 7, "trialCampaignLimit": 2, "trialVisitorLimit": 2000,
                    "autoStartTrial": true, "trialFeatures": ["basic_conversations"]})
            }),
        ),
        (
            "managePlans",
            "POST",
            "/api/plans".into(),
            Box::new(move |role: &str| plan(&format!("growth-{role}"))),
        ),
        (
            "managePlans",
            "PUT",
            "/api/plans/basic".into(),
            Box::new(move |_: &str| {
                let mut p = plan("basic");
                p["displayName"] = json!("Basic");
                p
            }),
        ),
        ("managePlans", "DELETE", "/api/plans/beta".into(), none()),
        (
            "refundPayments",
            "POST",
            "/api/admin/payments/no-such-payment/refund".into(),
            Box::new(|_: &str| json!({})),
        ),
        (
            "requeueMetaEvents",
            "POST",
            "/api/admin/meta/events/requeue".into(),
            none(),
        ),
        (
            "requeueEmails",
            "POST",
            "/api/admin/system/emails/requeue".into(),
            none(),
        ),
        (
            "requeueEmails",
            "POST",
            "/api/admin/system/emails/test".into(),
            none(),
        ),
        ("viewAudit", "GET", "/api/admin/audit".into(), none()),
        (
            "suspendUsers",
            "POST",
            format!("/api/admin/users/{victim_c}/suspend"),
            Box::new(|_: &str| json!({"pauseWidget": false})),
        ),
        (
            "suspendUsers",
            "POST",
            format!("/api/admin/users/{victim_c}/unsuspend"),
            none(),
        ),
    ];
    for (action, method, path, body) in &routes {
        for (role, token) in roles {
            let r = app.send(method, path, Some(token), body(role)).await;
            let what = format!("{role} {method} {path} ({action}): {} {}", r.status, r.body);
            if allows(action, role) {
                assert!(
                    r.status != 401 && r.status != 403,
                    "allowed by the table, refused: {what}"
                );
            } else {
                let code = if role == "user" {
                    "admin_required"
                } else {
                    "superuser_required"
                };
                assert_eq!(r.status, 403, "refused by the table, let through: {what}");
                assert_eq!(r.body["code"], code, "{what}");
            }
        }
    }
    // No action of the table is left without a route tried.
    for row in &rows {
        let action = row["action"].as_str().expect("action");
        assert!(
            routes.iter().any(|(a, ..)| *a == action),
            "{action} has no route in this test"
        );
    }
}

/// Admins create admin accounts (and make owners admins), but cannot
/// create or promote superusers, demote, change or delete another admin,
/// or change a superuser at all; a superuser can. Every refusal is on the
/// audit log with what was tried on whom.
#[tokio::test]
async fn admins_and_superusers_have_their_own_rules_and_refusals_are_kept() {
    let app = spawn_app().await;
    let (su, su_id) = account(&app, "root@example.in", "superuser").await;
    let (admin, admin_id) = account(&app, "desk@example.in", "admin").await;
    let (_, peer_id) = account(&app, "peer@example.in", "admin").await;
    let (_, owner_id) = account(&app, "owner@example.in", "user").await;
    let (_, owner2_id) = account(&app, "owner2@example.in", "user").await;

    let made = app
        .send(
            "POST",
            "/api/admin/users/create-admin",
            Some(&admin),
            json!({"name": "Second Desk", "email": "desk2@example.in", "password": "correct horse 2", "phone": "+91 9000000001"}),
        )
        .await;
    assert_eq!(made.status, 200, "{}", made.body);
    assert_eq!(made.body["data"]["user"]["role"], "admin");
    let promoted = app
        .send(
            "PUT",
            &format!("/api/admin/users/{owner_id}"),
            Some(&admin),
            json!({"role": "admin"}),
        )
        .await;
    assert_eq!(promoted.status, 200, "{}", promoted.body);
    // The admin may still change their own name.
    let own = app
        .send(
            "PUT",
            &format!("/api/admin/users/{admin_id}"),
            Some(&admin),
            json!({"name": "Desk Renamed"}),
        )
        .await;
    assert_eq!(own.status, 200, "{}", own.body);

    let refused: Vec<(&str, String, Value, &str)> = vec![
        (
            "POST",
            "/api/admin/users/create-admin".into(),
            json!({"name": "X", "email": "x@example.in", "password": "correct horse 2", "phone": "+91 9000000003", "role": "superuser"}),
            "",
        ),
        (
            "PUT",
            format!("/api/admin/users/{owner2_id}"),
            json!({"role": "superuser"}),
            owner2_id.as_str(),
        ),
        (
            "PUT",
            format!("/api/admin/users/{peer_id}"),
            json!({"role": "user"}),
            peer_id.as_str(),
        ),
        (
            "PUT",
            format!("/api/admin/users/{peer_id}"),
            json!({"name": "Renamed Peer"}),
            peer_id.as_str(),
        ),
        (
            "DELETE",
            format!("/api/admin/users/{peer_id}"),
            Value::Null,
            peer_id.as_str(),
        ),
        (
            "PUT",
            format!("/api/admin/users/{su_id}"),
            json!({"name": "Renamed Root"}),
            su_id.as_str(),
        ),
        (
            "POST",
            format!("/api/admin/users/{su_id}/change-plan"),
            json!({"planId": "free", "subscriptionStatus": "free"}),
            su_id.as_str(),
        ),
        (
            "DELETE",
            format!("/api/users/{su_id}"),
            Value::Null,
            su_id.as_str(),
        ),
    ];
    for (method, path, body, _) in &refused {
        app.send(method, path, Some(&admin), body.clone())
            .await
            .error(403, "superuser_required");
    }
    let peer = ca_auth::staff::get(&app.db.conn, &peer_id)
        .await
        .expect("peer");
    assert_eq!(
        (peer.role.as_str(), peer.name.as_str()),
        ("admin", "Asha Verma")
    );
    let kept = refusals_of(&app, &admin_id).await;
    assert_eq!(kept.len(), refused.len(), "{kept:?}");
    for ((action, target), (method, _, _, expected)) in kept.iter().zip(&refused) {
        assert!(action.ends_with("_refused"), "{method}: {action}");
        if !expected.is_empty() {
            assert_eq!(target, expected, "{method} {action}");
        }
    }
    assert_eq!(kept[0].0, "create_admin_refused");
    assert_eq!(kept[0].1, "x@example.in");
    assert_eq!(kept[4].0, "delete_user_refused");

    // A superuser may do each of these.
    let r = app
        .send(
            "PUT",
            &format!("/api/admin/users/{peer_id}"),
            Some(&su),
            json!({"role": "user"}),
        )
        .await;
    assert_eq!(r.status, 200, "{}", r.body);
    let r = app
        .send(
            "PUT",
            &format!("/api/admin/users/{owner2_id}"),
            Some(&su),
            json!({"role": "superuser"}),
        )
        .await;
    assert_eq!(r.status, 200, "{}", r.body);
    let r = app
        .send(
            "DELETE",
            &format!("/api/admin/users/{admin_id}"),
            Some(&su),
            Value::Null,
        )
        .await;
    assert_eq!(r.status, 200, "{}", r.body);
}

/// The Activity tab's sources list each staff action once: the audit
/// entries carry the fields a change really changed, a write made while
/// signed in as the owner is shown as its request, and the timeline does
/// not repeat them.
#[tokio::test]
async fn each_staff_action_is_listed_once_with_its_real_fields() {
    let app = spawn_app().await;
    let (su, _) = account(&app, "root@example.in", "superuser").await;
    let (_, owner_id) = account(&app, "owner@example.in", "user").await;
    let r = app
        .send(
            "PUT",
            &format!("/api/admin/users/{owner_id}"),
            Some(&su),
            json!({"name": "Meera Iyer"}),
        )
        .await;
    assert_eq!(r.status, 200, "{}", r.body);
    let token = login_as(&app, &su, &owner_id).await.body["data"]["token"]
        .as_str()
        .expect("token")
        .to_string();
    let c = app
        .send("POST", "/api/campaigns", Some(&token), campaign("By staff"))
        .await;
    assert_eq!(c.status, 201, "{}", c.body);

    let detail = app
        .get(&format!("/api/admin/users/{owner_id}"), Some(&su))
        .await;
    let d = &detail.body["data"];
    let audit = d["audit"].as_array().expect("audit");
    let actions: Vec<&str> = audit
        .iter()
        .map(|a| a["action"].as_str().expect("action"))
        .collect();
    assert_eq!(
        actions,
        ["request_as_user", "login_as_user", "update_user"],
        "each once, newest first"
    );
    let update = &audit[2];
    assert_eq!(update["before"]["name"], "Asha Verma");
    assert_eq!(update["after"]["name"], "Meera Iyer");
    assert_eq!(update["request"], Value::Null);
    let request = &audit[0];
    assert_eq!(request["after"], Value::Null, "a request is no field");
    assert_eq!(request["before"], Value::Null);
    assert_eq!(
        request["request"],
        json!({"method": "POST", "path": "/api/campaigns"})
    );
    let timeline = d["activityTimeline"].as_array().expect("timeline");
    assert!(
        timeline.iter().all(|i| i["type"] != "admin"),
        "staff actions are not repeated in the timeline: {timeline:?}"
    );
}
