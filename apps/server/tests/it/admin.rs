//! The admin area: the role matrix, self and last-superuser refusals, cascade
//! delete, login-as with its audit trail, plan administration, trial
//! settings, and figures checked against the rows they count.

use chrono::{DateTime, Utc};
use sea_orm::sea_query::Expr;
use sea_orm::{ColumnTrait, EntityTrait, PaginatorTrait, QueryFilter};
use serde_json::{Value, json};

use crate::billing::campaign;
use crate::helpers::{TestApp, spawn_app};

/// Registers an account and gives it `role`; returns (token, id).
pub(crate) async fn account(app: &TestApp, email: &str, role: &str) -> (String, String) {
    let (token, user) = app.register(email, "correct horse 1").await;
    let id = user["id"].as_str().expect("id").to_string();
    if role != "user" {
        ca_auth::entities::user::Entity::update_many()
            .col_expr(ca_auth::entities::user::Column::Role, Expr::value(role))
            .filter(ca_auth::entities::user::Column::Id.eq(&id))
            .exec(&app.db.conn)
            .await
            .expect("role");
    }
    (token, id)
}

fn plan_body(name: &str) -> Value {
    json!({
        "name": name, "displayName": "Growth", "price": 2999, "currency": "INR", "interval": "monthly",
        "features": ["5 campaigns", " 25,000 visitors ", "5 campaigns", ""],
        "limits": {"campaigns": 5, "visitorsPerMonth": 25000, "aiConversations": 2500,
            "customBranding": true, "apiAccess": false, "whiteLabel": false,
            "prioritySupport": true, "phoneSupport": false},
        "popular": true, "active": true, "sortOrder": 2
    })
}

#[tokio::test]
async fn every_admin_call_checks_the_role() {
    let app = spawn_app().await;
    let (owner, owner_id) = account(&app, "owner@example.in", "user").await;
    let (admin, _) = account(&app, "admin@example.in", "admin").await;
    let (su, _) = account(&app, "root@example.in", "superuser").await;
    let staff_calls: Vec<(&str, String, Value)> = vec![
        ("GET", "/api/admin/dashboard/stats".into(), Value::Null),
        ("GET", "/api/admin/users".into(), Value::Null),
        ("GET", format!("/api/admin/users/{owner_id}"), Value::Null),
        (
            "PUT",
            format!("/api/admin/users/{owner_id}"),
            json!({"name": "Owner Renamed"}),
        ),
        (
            "POST",
            "/api/admin/users/create-admin".into(),
            json!({"name": "New Admin", "email": "na@example.in", "password": "correct horse 2", "phone": "+91 9000000001"}),
        ),
        (
            "POST",
            "/api/admin/users/create-user".into(),
            json!({"name": "New Owner", "email": "no@example.in", "password": "correct horse 2", "phone": "+91 9000000002"}),
        ),
        (
            "POST",
            format!("/api/admin/users/{owner_id}/change-plan"),
            json!({"planId": "free", "subscriptionStatus": "free"}),
        ),
        ("GET", "/api/admin/plans".into(), Value::Null),
        ("GET", "/api/admin/system/health".into(), Value::Null),
        ("GET", "/api/admin/settings/trial".into(), Value::Null),
        ("GET", "/api/users".into(), Value::Null),
        ("GET", format!("/api/users/{owner_id}"), Value::Null),
    ];
    let superuser_calls: Vec<(&str, String, Value)> = vec![
        (
            "POST",
            "/api/admin/login-as-user".into(),
            json!({"userId": owner_id}),
        ),
        ("GET", "/api/admin/superadmin".into(), Value::Null),
        (
            "PUT",
            "/api/admin/settings/ad-spend".into(),
            json!({"adSpendLast30Days": 5000}),
        ),
        (
            "PUT",
            "/api/admin/settings/trial".into(),
            json!({"trialDurationDays": 7, "trialCampaignLimit": 2, "trialVisitorLimit": 2000, "autoStartTrial": true, "trialFeatures": ["basic_conversations"]}),
        ),
        ("POST", "/api/plans".into(), plan_body("growth")),
        (
            "PUT",
            "/api/plans/basic".into(),
            json!({"name": "basic", "displayName": "Basic", "price": 999, "features": ["1 campaign"], "limits": {"campaigns": 1, "visitorsPerMonth": 10000, "aiConversations": 1000, "customBranding": false, "apiAccess": false, "whiteLabel": false, "prioritySupport": false, "phoneSupport": false}}),
        ),
        ("DELETE", "/api/plans/beta".into(), Value::Null),
    ];
    for (method, path, body) in staff_calls.iter().chain(superuser_calls.iter()) {
        let r = app.send(method, path, Some(&owner), body.clone()).await;
        r.error(403, "admin_required");
        app.send(method, path, None, body.clone())
            .await
            .error(401, "missing_token");
    }
    for (method, path, body) in &superuser_calls {
        app.send(method, path, Some(&admin), body.clone())
            .await
            .error(403, "superuser_required");
    }
    for (method, path, body) in &staff_calls {
        let r = app.send(method, path, Some(&admin), body.clone()).await;
        assert_eq!(r.status, 200, "{method} {path}: {}", r.body);
    }
    for (method, path, body) in &superuser_calls {
        let r = app.send(method, path, Some(&su), body.clone()).await;
        assert_eq!(r.status, 200, "{method} {path}: {}", r.body);
    }
    // An admin may not create or touch superusers.
    app.send("POST", "/api/admin/users/create-admin", Some(&admin),
        json!({"name": "X", "email": "x2@example.in", "password": "correct horse 2", "phone": "+91 9000000003", "role": "superuser"}))
        .await
        .error(403, "superuser_required");
}

#[tokio::test]
async fn nobody_removes_themselves_or_the_last_superuser() {
    let app = spawn_app().await;
    let (su, su_id) = account(&app, "root@example.in", "superuser").await;
    let (admin, admin_id) = account(&app, "admin@example.in", "admin").await;
    app.send(
        "DELETE",
        &format!("/api/admin/users/{su_id}"),
        Some(&su),
        Value::Null,
    )
    .await
    .error(422, "self_action");
    app.send(
        "PUT",
        &format!("/api/admin/users/{su_id}"),
        Some(&su),
        json!({"role": "user"}),
    )
    .await
    .error(422, "self_action");
    app.send(
        "DELETE",
        &format!("/api/admin/users/{admin_id}"),
        Some(&admin),
        Value::Null,
    )
    .await
    .error(422, "self_action");
    // An admin cannot touch the superuser at all.
    app.send(
        "DELETE",
        &format!("/api/admin/users/{su_id}"),
        Some(&admin),
        Value::Null,
    )
    .await
    .error(403, "superuser_required");
    // A second superuser cannot remove the last other one either.
    let (su2, su2_id) = account(&app, "root2@example.in", "superuser").await;
    let r = app
        .send(
            "PUT",
            &format!("/api/admin/users/{su2_id}"),
            Some(&su),
            json!({"role": "admin"}),
        )
        .await;
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(r.body["data"]["user"]["role"], "admin");
    // The demoted account's sessions are revoked.
    app.get("/api/auth/me", Some(&su2))
        .await
        .error(401, "invalid_token");
    // su is now the last superuser: su2 (now admin, new session) cannot demote it,
    // and su cannot be removed.
    assert_eq!(
        ca_auth::staff::count_role(&app.db.conn, "superuser")
            .await
            .expect("count"),
        1
    );
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

#[tokio::test]
async fn deleting_an_owner_removes_everything_of_theirs() {
    let app = spawn_app().await;
    let (su, _) = account(&app, "root@example.in", "superuser").await;
    let (owner, owner_id) = account(&app, "gone@example.in", "user").await;
    let (other, other_id) = account(&app, "stays@example.in", "user").await;
    for token in [&owner, &other] {
        let c = app
            .send("POST", "/api/campaigns", Some(token), campaign("Sale"))
            .await;
        assert_eq!(c.status, 201, "{}", c.body);
        let campaign_id = c.body["campaign"]["_id"].as_str().expect("id").to_string();
        let started = app
            .post(
                "/api/widget/conversations",
                json!({"campaignId": campaign_id, "visitorId": "visitor-0001"}),
            )
            .await;
        assert_eq!(started.status, 201, "{}", started.body);
        let conversation = started.body["conversationId"]
            .as_str()
            .expect("conv")
            .to_string();
        let lead = app
            .post(
                &format!("/api/widget/conversations/{conversation}/forms"),
                json!({"values": {"email": "lead@example.in"}}),
            )
            .await;
        assert_eq!(lead.status, 200, "{}", lead.body);
    }
    let paid = app
        .send(
            "POST",
            "/api/billing/mock-payment-success",
            Some(&owner),
            json!({"planId": "basic"}),
        )
        .await;
    assert_eq!(paid.status, 200, "{}", paid.body);
    let count = |owner: String| {
        let conn = app.db.conn.clone();
        async move {
            (
                ca_campaigns::entities::campaign::Entity::find()
                    .filter(ca_campaigns::entities::campaign::Column::OwnerId.eq(&owner))
                    .count(&conn)
                    .await
                    .expect("campaigns"),
                ca_conversations::entities::conversation::Entity::find()
                    .filter(ca_conversations::entities::conversation::Column::OwnerId.eq(&owner))
                    .count(&conn)
                    .await
                    .expect("conversations"),
                ca_customers::entities::customer::Entity::find()
                    .filter(ca_customers::entities::customer::Column::OwnerId.eq(&owner))
                    .count(&conn)
                    .await
                    .expect("customers"),
                ca_billing::entities::payment::Entity::find()
                    .filter(ca_billing::entities::payment::Column::OwnerId.eq(&owner))
                    .count(&conn)
                    .await
                    .expect("payments"),
            )
        }
    };
    assert_eq!(count(owner_id.clone()).await, (1, 1, 1, 1));
    let r = app
        .send(
            "DELETE",
            &format!("/api/admin/users/{owner_id}"),
            Some(&su),
            Value::Null,
        )
        .await;
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(count(owner_id.clone()).await, (0, 0, 0, 0));
    assert_eq!(count(other_id).await, (1, 1, 1, 0));
    app.get("/api/auth/me", Some(&owner))
        .await
        .error(401, "invalid_token");
    app.get(&format!("/api/admin/users/{owner_id}"), Some(&su))
        .await
        .error(404, "user_not_found");
    // The overview's kept counts followed.
    assert_eq!(
        ca_customers::count_all(&app.db.conn).await.expect("count"),
        1
    );
}

#[tokio::test]
async fn login_as_is_audited_with_what_was_done() {
    let app = spawn_app().await;
    let (su, su_id) = account(&app, "root@example.in", "superuser").await;
    let (_, owner_id) = account(&app, "owner@example.in", "user").await;
    app.send(
        "POST",
        "/api/admin/login-as-user",
        Some(&su),
        json!({"userId": su_id}),
    )
    .await
    .error(422, "self_action");
    app.send(
        "POST",
        "/api/admin/login-as-user",
        Some(&su),
        json!({"userId": "nope"}),
    )
    .await
    .error(404, "user_not_found");
    let r = app
        .send(
            "POST",
            "/api/admin/login-as-user",
            Some(&su),
            json!({"userId": owner_id}),
        )
        .await;
    assert_eq!(r.status, 200, "{}", r.body);
    let token = r.body["data"]["token"].as_str().expect("token").to_string();
    assert_eq!(r.body["data"]["user"]["email"], "owner@example.in");
    let me = app.get("/api/auth/me", Some(&token)).await;
    assert_eq!(me.body["user"]["id"], owner_id.as_str());
    // The impersonated session cannot use the admin area.
    app.get("/api/admin/dashboard/stats", Some(&token))
        .await
        .error(403, "admin_required");
    let created = app
        .send(
            "POST",
            "/api/campaigns",
            Some(&token),
            campaign("Made by staff"),
        )
        .await;
    assert_eq!(created.status, 201, "{}", created.body);
    let detail = app
        .get(&format!("/api/admin/users/{owner_id}"), Some(&su))
        .await;
    assert_eq!(detail.status, 200, "{}", detail.body);
    let audit = detail.body["data"]["audit"].as_array().expect("audit");
    let actions: Vec<&str> = audit
        .iter()
        .map(|a| a["action"].as_str().expect("action"))
        .collect();
    assert!(actions.contains(&"login_as_user"), "{actions:?}");
    let acting = audit
        .iter()
        .find(|a| a["action"] == "request_as_user")
        .expect("the impersonated write is on record");
    assert_eq!(acting["actorId"], su_id.as_str());
    assert_eq!(acting["actingAsId"], owner_id.as_str());
    // The request is shown as a request, not as a change of fields.
    assert_eq!(acting["request"]["method"], "POST");
    assert_eq!(acting["request"]["path"], "/api/campaigns");
    assert_eq!(acting["after"], Value::Null);
    // Staff actions are listed once, as audit entries, not again in the timeline.
    assert!(
        !detail.body["data"]["activityTimeline"]
            .as_array()
            .expect("timeline")
            .iter()
            .any(|i| i["type"] == "admin")
    );
}

#[tokio::test]
async fn plans_are_created_edited_and_deactivated_with_their_rules() {
    let app = spawn_app().await;
    let (su, _) = account(&app, "root@example.in", "superuser").await;
    let mut bad = plan_body("x");
    bad["name"] = json!(" ");
    let r = app.send("POST", "/api/plans", Some(&su), bad).await;
    assert_eq!(
        r.error(400, "validation_failed"),
        "Plan name and display name are required"
    );
    let mut no_features = plan_body("x");
    no_features["features"] = json!(["  ", ""]);
    let r = app.send("POST", "/api/plans", Some(&su), no_features).await;
    assert_eq!(
        r.error(400, "validation_failed"),
        "At least one feature is required"
    );
    let mut low = plan_body("x");
    low["limits"]["campaigns"] = json!(0);
    low["price"] = json!(-1);
    let r = app.send("POST", "/api/plans", Some(&su), low).await;
    r.error(400, "validation_failed");
    assert!(
        r.body["errors"]["limits.campaigns"].is_array() && r.body["errors"]["price"].is_array(),
        "{}",
        r.body
    );

    let created = app
        .send("POST", "/api/plans", Some(&su), plan_body("Growth Plan"))
        .await;
    assert_eq!(created.status, 200, "{}", created.body);
    let p = &created.body["data"];
    assert_eq!(p["id"], "growth-plan");
    assert_eq!(p["name"], "growth-plan");
    assert_eq!(p["features"], json!(["5 campaigns", "25,000 visitors"]));
    assert_eq!(p["limits"]["campaigns"], 5);
    app.send("POST", "/api/plans", Some(&su), plan_body("growth plan"))
        .await
        .error(409, "plan_exists");
    let listed = app.get("/api/plans", None).await;
    assert!(
        listed.body["data"]
            .as_array()
            .expect("plans")
            .iter()
            .any(|p| p["id"] == "growth-plan")
    );

    let mut edit = plan_body("growth-plan");
    edit["price"] = json!(3499);
    edit["displayName"] = json!("Growth+");
    let edited = app
        .send("PUT", "/api/plans/growth-plan", Some(&su), edit)
        .await;
    assert_eq!(edited.status, 200, "{}", edited.body);
    assert_eq!(
        app.get("/api/plans/growth-plan", None).await.body["data"]["price"],
        3499
    );
    app.send("PUT", "/api/plans/gold", Some(&su), plan_body("gold"))
        .await
        .error(404, "plan_not_found");

    let gone = app
        .send("DELETE", "/api/plans/growth-plan", Some(&su), Value::Null)
        .await;
    assert_eq!(gone.status, 200, "{}", gone.body);
    assert_eq!(gone.body["data"]["active"], false);
    let listed = app.get("/api/plans", None).await;
    assert!(
        !listed.body["data"]
            .as_array()
            .expect("plans")
            .iter()
            .any(|p| p["id"] == "growth-plan")
    );
    let admin_list = app.get("/api/admin/plans", Some(&su)).await;
    let kept = admin_list.body["data"]
        .as_array()
        .expect("plans")
        .iter()
        .find(|p| p["id"] == "growth-plan")
        .expect("still there");
    assert_eq!(kept["active"], false);
    app.send("DELETE", "/api/plans/free", Some(&su), Value::Null)
        .await
        .error(422, "free_plan_fixed");
    // A deactivated plan can't be bought.
    let (owner, _) = account(&app, "buyer@example.in", "user").await;
    app.send(
        "POST",
        "/api/payment/initialize",
        Some(&owner),
        json!({"udf2": "growth-plan"}),
    )
    .await
    .error(404, "plan_not_found");
}

#[tokio::test]
async fn change_plan_and_create_user_set_the_subscription() {
    let app = spawn_app().await;
    let (admin, _) = account(&app, "admin@example.in", "admin").await;
    let (owner, owner_id) = account(&app, "owner@example.in", "user").await;
    let path = format!("/api/admin/users/{owner_id}/change-plan");
    app.send(
        "POST",
        &path,
        Some(&admin),
        json!({"planId": "basic", "subscriptionStatus": "active"}),
    )
    .await
    .error(400, "validation_failed");
    app.send("POST", &path, Some(&admin), json!({"planId": "basic", "subscriptionStatus": "active", "subscriptionEndsAt": "2020-01-01T00:00:00Z"}))
        .await
        .error(400, "validation_failed");
    app.send(
        "POST",
        &path,
        Some(&admin),
        json!({"planId": "gold", "subscriptionStatus": "free"}),
    )
    .await
    .error(404, "plan_not_found");
    let ends = (Utc::now() + chrono::Duration::days(60)).to_rfc3339();
    let r = app
        .send(
            "POST",
            &path,
            Some(&admin),
            json!({"planId": "basic", "subscriptionStatus": "active", "subscriptionEndsAt": ends}),
        )
        .await;
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(r.body["data"]["user"]["planId"], "basic");
    assert_eq!(r.body["data"]["user"]["subscriptionStatus"], "active");
    let me = app.get("/api/auth/me", Some(&owner)).await;
    assert_eq!(me.body["user"]["planId"], "basic");
    let usage = app.get("/api/billing/usage", Some(&owner)).await;
    assert_eq!(usage.body["data"]["campaigns"]["limit"], 1);

    let created = app
        .send("POST", "/api/admin/users/create-user", Some(&admin), json!({"name": "Ravi", "email": "ravi@example.in", "password": "correct horse 3", "phone": "+91 9000000004", "planId": "basic", "subscriptionStatus": "active", "subscriptionEndsAt": ends}))
        .await;
    assert_eq!(created.status, 200, "{}", created.body);
    assert_eq!(created.body["data"]["user"]["subscriptionStatus"], "active");
    app.send("POST", "/api/admin/users/create-user", Some(&admin), json!({"name": "Ravi", "email": "ravi@example.in", "password": "correct horse 3", "phone": "+91 9000000004"}))
        .await
        .error(409, "email_taken");
    // Staff may leave the phone out.
    let no_phone = app
        .send(
            "POST",
            "/api/admin/users/create-admin",
            Some(&admin),
            json!({"name": "Desk", "email": "desk@example.in", "password": "correct horse 3"}),
        )
        .await;
    assert_eq!(no_phone.status, 200, "{}", no_phone.body);
    assert_eq!(no_phone.body["data"]["user"]["phone"], "");
    // A bad plan leaves no half-made account behind.
    app.send("POST", "/api/admin/users/create-user", Some(&admin), json!({"name": "Half", "email": "half@example.in", "password": "correct horse 3", "phone": "+91 9000000005", "planId": "basic", "subscriptionStatus": "active"}))
        .await
        .error(400, "validation_failed");
    assert!(app.login("half@example.in", "correct horse 3").await.status == 401);
    // The simple call without a password emails a link to choose one.
    let simple = app
        .send(
            "POST",
            "/api/users",
            Some(&admin),
            json!({"name": "Invited", "email": "invited@example.in"}),
        )
        .await;
    assert_eq!(simple.status, 200, "{}", simple.body);
    assert_eq!(app.outbox_count("invited@example.in").await, 1);
    let detail = app
        .get(&format!("/api/admin/users/{owner_id}"), Some(&admin))
        .await;
    assert!(
        detail.body["data"]["audit"]
            .as_array()
            .expect("audit")
            .iter()
            .any(|a| a["action"] == "change_plan")
    );
}

#[tokio::test]
async fn trial_settings_apply_to_new_sign_ups() {
    let app = spawn_app().await;
    let (su, _) = account(&app, "root@example.in", "superuser").await;
    let put = |body: Value| app.send("PUT", "/api/admin/settings/trial", Some(&su), body);
    let r = put(json!({"trialDurationDays": 31, "trialCampaignLimit": 6, "trialVisitorLimit": 150, "autoStartTrial": true, "trialFeatures": ["teleport"]})).await;
    r.error(400, "validation_failed");
    for f in [
        "trialDurationDays",
        "trialCampaignLimit",
        "trialVisitorLimit",
        "trialFeatures",
    ] {
        assert!(r.body["errors"][f].is_array(), "{f}: {}", r.body);
    }
    let r = put(json!({"trialDurationDays": 14, "trialCampaignLimit": 3, "trialVisitorLimit": 2500 - 500, "autoStartTrial": true, "trialFeatures": ["basic_conversations", "email_support"]})).await;
    assert_eq!(r.status, 200, "{}", r.body);
    let (owner, user) = app.register("new@example.in", "correct horse 1").await;
    let ends: DateTime<Utc> = user["trialEndsAt"]
        .as_str()
        .expect("trial end")
        .parse()
        .expect("time");
    assert!((13..=14).contains(&(ends - Utc::now()).num_days()));
    let usage = app.get("/api/billing/usage", Some(&owner)).await;
    assert_eq!(usage.body["data"]["campaigns"]["limit"], 3);
    assert_eq!(usage.body["data"]["visitors"]["limit"], 2000);
    let r = put(json!({"trialDurationDays": 3, "trialCampaignLimit": 1, "trialVisitorLimit": 1000, "autoStartTrial": false, "trialFeatures": []})).await;
    assert_eq!(r.status, 200);
    let (_, user) = app.register("later@example.in", "correct horse 1").await;
    assert_eq!(user["subscriptionStatus"], "free");
}

#[tokio::test]
async fn figures_are_counted_from_the_rows() {
    let app = spawn_app().await;
    let (su, _) = account(&app, "root@example.in", "superuser").await;
    let (admin, _) = account(&app, "admin@example.in", "admin").await;
    let mut owners = Vec::new();
    for i in 0..3 {
        owners.push(account(&app, &format!("o{i}@example.in"), "user").await);
    }
    for (token, _) in owners.iter().take(2) {
        let paid = app
            .send(
                "POST",
                "/api/billing/mock-payment-success",
                Some(token),
                json!({"planId": "basic"}),
            )
            .await;
        assert_eq!(paid.status, 200, "{}", paid.body);
        let c = app
            .send("POST", "/api/campaigns", Some(token), campaign("Live"))
            .await;
        assert_eq!(c.status, 201, "{}", c.body);
    }
    let stats = app.get("/api/admin/dashboard/stats", Some(&admin)).await;
    let s = &stats.body["data"];
    let users = ca_auth::entities::user::Entity::find()
        .count(&app.db.conn)
        .await
        .expect("users");
    assert_eq!(s["totalUsers"], users);
    assert_eq!(s["totalUsers"], 5);
    assert_eq!(s["totalAdmins"], 2);
    assert_eq!(s["totalCampaigns"], 2);
    assert_eq!(s["activeSubscriptions"], 2);
    // Only owners count as trials (the two staff accounts signed up too).
    assert_eq!(s["trialUsers"], 1);
    assert_eq!(s["revenueThisMonth"], 1998.0);
    assert_eq!(s["newUsersLast30Days"], 5);

    let list = app
        .get(
            "/api/admin/users?role=user&subscriptionStatus=active",
            Some(&admin),
        )
        .await;
    assert_eq!(list.body["data"]["pagination"]["totalUsers"], 2);
    let u = &list.body["data"]["users"][0];
    assert_eq!(
        (
            u["campaignCount"].clone(),
            u["totalPayments"].clone(),
            u["totalRevenue"].clone()
        ),
        (json!(1), json!(1), json!(999.0))
    );
    let page = app
        .get("/api/admin/users?limit=2&page=2", Some(&admin))
        .await;
    let p = &page.body["data"]["pagination"];
    assert_eq!(
        (
            p["totalPages"].clone(),
            p["hasPrev"].clone(),
            p["hasNext"].clone()
        ),
        (json!(3), json!(true), json!(true))
    );
    let found = app
        .get("/api/admin/users?search=O2%40EXAMPLE", Some(&admin))
        .await;
    assert_eq!(found.body["data"]["users"][0]["email"], "o2@example.in");
    app.get("/api/admin/users?role=king", Some(&admin))
        .await
        .error(400, "validation_failed");

    let fig = app.get("/api/admin/superadmin", Some(&su)).await;
    let f = &fig.body["data"];
    assert_eq!(f["mrr"], 1998.0);
    assert_eq!(f["activeSubscriptions"], 2);
    assert_eq!(f["arpu"], 999.0);
    assert_eq!(f["revenueByMonth"].as_array().expect("months").len(), 12);
    assert_eq!(f["revenueByMonth"][11]["revenue"], 1998.0);
    assert_eq!(f["revenueByMonth"][11]["payments"], 2);
    assert_eq!(f["trialsActive"], 1);
    assert_eq!(
        f["usersByRole"],
        json!({"user": 3, "admin": 1, "superuser": 1})
    );
    assert_eq!(
        f["churnRate"],
        Value::Null,
        "no subscription ran 30 days ago"
    );
    assert_eq!(f["acquisitionCost"], Value::Null, "no ad spend entered");
    let with_spend = app
        .send(
            "PUT",
            "/api/admin/settings/ad-spend",
            Some(&su),
            json!({"adSpendLast30Days": 5000}),
        )
        .await;
    assert_eq!(with_spend.body["data"]["adSpendLast30Days"], 5000.0);
    assert_eq!(with_spend.body["data"]["acquisitionCost"], 2500.0);
    app.send(
        "PUT",
        "/api/admin/settings/ad-spend",
        Some(&su),
        json!({"adSpendLast30Days": -1}),
    )
    .await
    .error(400, "validation_failed");

    let health = app.get("/api/admin/system/health", Some(&admin)).await;
    let h = &health.body["data"];
    assert_eq!(h["status"], "ok");
    assert!(h["database"]["latencyMs"].as_f64().expect("latency") >= 0.0);
    assert!(h["database"]["poolSize"].as_u64().expect("pool") >= 1);
    assert!(h["process"]["memoryBytes"].as_u64().expect("memory") > 0);
    // The queue, plus the events journalled and not yet stored (the test
    // server keeps a journal on either database).
    assert_eq!(h["eventWriter"]["queueCapacity"], 50_000 + 200_000);
    assert!(h["disk"]["totalBytes"].as_u64().expect("disk") > 0);
    // No mail server in the test app: emails are kept, nothing waits.
    assert_eq!(h["email"]["mailServer"], false);
    assert_eq!(h["email"]["waiting"], 0);
    assert_eq!(h["email"]["failedLast7Days"], 0);
}

/// Staff find an account by part of a name in any script, whatever its case,
/// on both databases.
#[tokio::test]
async fn the_user_search_ignores_the_case_of_non_ascii_letters() {
    let app = spawn_app().await;
    let (admin, _) = account(&app, "admin@example.in", "admin").await;
    for (name, email) in [
        ("ÉLODIE Ñúñez", "elodie@example.in"),
        ("Zoë Das", "zoe@example.in"),
    ] {
        let r = app
            .post(
                "/api/auth/register",
                json!({"name": name, "email": email, "password": "secret1", "phone": "+91 9876543210"}),
            )
            .await;
        assert_eq!(r.status, 201, "{}", r.body);
    }
    for (term, email) in [
        ("%C3%A9lodie", "elodie@example.in"),
        ("%C3%B1%C3%9A", "elodie@example.in"),
        ("%C3%A9", "elodie@example.in"),
        ("ZO%C3%8B", "zoe@example.in"),
    ] {
        let found = app
            .get(&format!("/api/admin/users?search={term}"), Some(&admin))
            .await;
        assert_eq!(found.status, 200, "{}", found.body);
        let users = found.body["data"]["users"].as_array().expect("users");
        assert_eq!(users.len(), 1, "{term}: {}", found.body);
        assert_eq!(users[0]["email"], email, "{term}");
    }
}
