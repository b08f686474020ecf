//! Plans as staff price them and owners buy them: each plan's currency and
//! interval hold everywhere (what staff see, what owners see, what checkout
//! charges and how long the period lasts); the limit rules are the same on
//! create and edit; staff set any subscription status with its effects; a
//! plan owners are on says so when deactivated; and account phones are
//! checked and stored in E.164.

use chrono::{DateTime, Utc};
use sea_orm::sea_query::Expr;
use sea_orm::{ColumnTrait, EntityTrait, QueryFilter};
use serde_json::{Value, json};

use crate::admin::account;
use crate::helpers::{TestApp, spawn_app};
use crate::payments::{buy, field, initialize, params_of, payment};

/// What Quick Create sends.
fn quick_plan(name: &str, price: i64, currency: &str, interval: &str) -> Value {
    json!({
        "name": name, "displayName": name, "price": price, "currency": currency, "interval": interval,
        "features": ["Everything in Basic"],
        "limits": {"campaigns": 3, "visitorsPerMonth": 20000, "aiConversations": 1000,
            "customBranding": false, "apiAccess": false, "whiteLabel": false,
            "prioritySupport": false, "phoneSupport": false},
        "popular": false, "active": true, "sortOrder": 5
    })
}

fn listed<'a>(plans: &'a Value, id: &str) -> &'a Value {
    plans["data"]
        .as_array()
        .expect("plans")
        .iter()
        .find(|p| p["id"] == id)
        .unwrap_or_else(|| panic!("{id} listed in {plans}"))
}

fn at(v: &Value) -> DateTime<Utc> {
    DateTime::parse_from_rfc3339(v.as_str().expect("date"))
        .expect("rfc3339")
        .with_timezone(&Utc)
}

async fn change_plan(
    app: &TestApp,
    staff: &str,
    owner_id: &str,
    body: Value,
) -> crate::helpers::Reply {
    app.send(
        "POST",
        &format!("/api/admin/users/{owner_id}/change-plan"),
        Some(staff),
        body,
    )
    .await
}

fn in_days(days: i64) -> String {
    (Utc::now() + chrono::Duration::days(days)).to_rfc3339()
}

#[tokio::test]
async fn a_plan_in_another_currency_shows_as_priced_and_cannot_be_bought_through_checkout() {
    let app = spawn_app().await;
    let (su, _) = account(&app, "root@example.in", "superuser").await;
    let (owner, owner_id) = account(&app, "buyer@example.in", "user").await;

    // Only ISO 4217 codes are plan currencies.
    let refused = app
        .send(
            "POST",
            "/api/plans",
            Some(&su),
            quick_plan("odd", 49, "XYZ", "monthly"),
        )
        .await;
    let message = refused.error(400, "validation_failed");
    assert!(
        message.contains("ISO 4217") && message.contains("XYZ"),
        "{message}"
    );
    assert!(
        refused.body["errors"]["currency"].is_array(),
        "{}",
        refused.body
    );
    assert_eq!(
        app.get("/api/plans/odd", None).await.status,
        404,
        "nothing saved"
    );
    let mut edit = quick_plan("basic", 999, "RUPEES", "monthly");
    edit["displayName"] = json!("Basic");
    app.send("PUT", "/api/plans/basic", Some(&su), edit)
        .await
        .error(400, "validation_failed");
    assert_eq!(
        app.get("/api/plans/basic", None).await.body["data"]["currency"],
        "INR"
    );

    // Quick Create: USD, yearly, 49; a lower-case code is read as the code.
    let created = app
        .send(
            "POST",
            "/api/plans",
            Some(&su),
            quick_plan("global", 49, "usd", "yearly"),
        )
        .await;
    assert_eq!(created.status, 200, "{}", created.body);
    let staff_view = listed(&app.get("/api/admin/plans", Some(&su)).await.body, "global").clone();
    let owner_view = listed(
        &app.get("/api/billing/plans", Some(&owner)).await.body,
        "global",
    )
    .clone();
    for p in [&created.body["data"], &staff_view, &owner_view] {
        assert_eq!(
            (&p["price"], &p["currency"], &p["interval"]),
            (&json!(49), &json!("USD"), &json!("yearly")),
            "{p}"
        );
        // Checkout charges INR only: the owner's card offers sales instead.
        assert_eq!(p["checkoutAvailable"], false, "{p}");
    }
    assert_eq!(
        listed(&app.get("/api/billing/plans", None).await.body, "basic")["checkoutAvailable"],
        true
    );

    // Neither checkout path sells it, and nothing is created.
    for body in [
        json!({"udf2": "global"}),
        json!({"udf2": "global", "udf4": "annual"}),
    ] {
        let r = initialize(&app, &owner, body).await;
        let message = r.error(422, "checkout_currency");
        assert!(
            message.contains("USD") && message.contains("contact sales"),
            "{message}"
        );
    }
    app.send(
        "POST",
        "/api/billing/checkout",
        Some(&owner),
        json!({"planId": "global"}),
    )
    .await
    .error(422, "checkout_currency");
    let history = app.get("/api/payment/history", Some(&owner)).await;
    assert_eq!(history.body["data"], json!([]), "{}", history.body);

    // Staff put the owner on it by hand; the owner sees it in its own terms.
    let set = change_plan(
        &app,
        &su,
        &owner_id,
        json!({"planId": "global", "subscriptionStatus": "active", "subscriptionEndsAt": in_days(365)}),
    )
    .await;
    assert_eq!(set.status, 200, "{}", set.body);
    let sub = app.get("/api/billing/subscription", Some(&owner)).await;
    let s = &sub.body["data"];
    assert_eq!(
        (&s["planId"], &s["price"], &s["currency"], &s["interval"]),
        (
            &json!("global"),
            &json!(49),
            &json!("USD"),
            &json!("yearly")
        ),
        "{s}"
    );
}

#[tokio::test]
async fn a_yearly_plan_is_charged_its_price_once_and_its_period_lasts_a_year() {
    let app = spawn_app().await;
    let (su, _) = account(&app, "root@example.in", "superuser").await;
    let (owner, _) = account(&app, "yearly@example.in", "user").await;
    let created = app
        .send(
            "POST",
            "/api/plans",
            Some(&su),
            quick_plan("annual-pro", 9000, "INR", "yearly"),
        )
        .await;
    assert_eq!(created.status, 200, "{}", created.body);

    // Without a cycle, or asked for a year: the price as it is, for a year.
    for body in [
        json!({"udf2": "annual-pro"}),
        json!({"udf2": "annual-pro", "udf4": "annual"}),
    ] {
        let init = initialize(&app, &owner, body).await;
        assert_eq!(init.status, 200, "{}", init.body);
        assert_eq!(init.body["data"]["amount"], 9000.0);
        let params = params_of(&init);
        assert_eq!(field(&params, "amount"), "9000.00");
        assert_eq!(field(&params, "udf4"), "annual");
        assert_eq!(field(&params, "productinfo"), "annual-pro Plan (Annual)");
        let stored = payment(&app, field(&params, "txnid")).await;
        assert_eq!(
            (stored.amount_paise, stored.cycle.as_str()),
            (900_000, "annual")
        );
    }
    // A yearly plan is not sold by the month.
    let monthly = initialize(
        &app,
        &owner,
        json!({"udf2": "annual-pro", "udf4": "monthly"}),
    )
    .await;
    assert!(
        monthly
            .error(400, "validation_failed")
            .contains("billed yearly"),
        "{}",
        monthly.body
    );
    // A monthly plan bought for a year still costs ten months.
    let basic = initialize(&app, &owner, json!({"udf2": "basic", "udf4": "annual"})).await;
    assert_eq!(basic.body["data"]["amount"], 9990.0);

    let txnid = buy(&app, &owner, "annual-pro", "annual").await;
    let paid = payment(&app, &txnid).await;
    let (start, end) = (
        paid.period_start.expect("start"),
        paid.period_end.expect("end"),
    );
    assert!(
        (365..=366).contains(&(end - start).num_days()),
        "{start} .. {end}"
    );
    let sub = app.get("/api/billing/subscription", Some(&owner)).await;
    let s = &sub.body["data"];
    assert_eq!(s["status"], "active");
    assert_eq!(s["cycle"], "annual");
    assert_eq!(
        (&s["price"], &s["interval"]),
        (&json!(9000), &json!("yearly"))
    );
    assert_eq!(s["setByStaff"], false, "bought, so billed: {s}");
    assert!(
        (at(&s["subscriptionEndsAt"]) - Utc::now()).num_days() >= 364,
        "{s}"
    );
}

#[tokio::test]
async fn create_and_edit_apply_the_same_limit_rules() {
    let app = spawn_app().await;
    let (su, _) = account(&app, "root@example.in", "superuser").await;
    // -1 is unlimited on create as on edit.
    let mut unlimited = quick_plan("unlimited", 1999, "INR", "monthly");
    unlimited["limits"]["aiConversations"] = json!(-1);
    unlimited["limits"]["visitorsPerMonth"] = json!(-1);
    let created = app
        .send("POST", "/api/plans", Some(&su), unlimited.clone())
        .await;
    assert_eq!(created.status, 200, "{}", created.body);
    assert_eq!(created.body["data"]["limits"]["aiConversations"], -1);
    assert_eq!(created.body["data"]["limits"]["visitorsPerMonth"], -1);
    let edited = app
        .send("PUT", "/api/plans/unlimited", Some(&su), unlimited.clone())
        .await;
    assert_eq!(edited.status, 200, "{}", edited.body);
    assert_eq!(edited.body["data"]["limits"]["aiConversations"], -1);

    // Visitors go in steps of 1,000, on create and on edit.
    for visitors in [1500_i64, 999, 0, -2] {
        let mut off_step = quick_plan(&format!("step-{}", visitors.abs()), 999, "INR", "monthly");
        off_step["limits"]["visitorsPerMonth"] = json!(visitors);
        let r = app.send("POST", "/api/plans", Some(&su), off_step).await;
        r.error(400, "validation_failed");
        assert!(
            r.body["errors"]["limits.visitorsPerMonth"].is_array(),
            "{}",
            r.body
        );
        let mut edit = unlimited.clone();
        edit["limits"]["visitorsPerMonth"] = json!(visitors);
        let r = app
            .send("PUT", "/api/plans/unlimited", Some(&su), edit)
            .await;
        r.error(400, "validation_failed");
    }
    assert_eq!(
        app.get("/api/plans/unlimited", None).await.body["data"]["limits"]["visitorsPerMonth"],
        -1,
        "a refused edit changes nothing"
    );
    let mut on_step = unlimited.clone();
    on_step["limits"]["visitorsPerMonth"] = json!(25000);
    let r = app
        .send("PUT", "/api/plans/unlimited", Some(&su), on_step)
        .await;
    assert_eq!(r.status, 200, "{}", r.body);
}

#[tokio::test]
async fn staff_edits_refuse_bad_phones_and_every_phone_is_stored_in_e164() {
    let app = spawn_app().await;
    let (admin, _) = account(&app, "admin@example.in", "admin").await;
    // Registered as "+91 9876543210".
    let (owner, owner_id) = account(&app, "owner@example.in", "user").await;
    let me = app.get("/api/auth/me", Some(&owner)).await;
    assert_eq!(me.body["user"]["phone"], "+919876543210");

    let path = format!("/api/admin/users/{owner_id}");
    for bad in ["abc", "12", "+91 12345 67890", "98765+43210"] {
        let r = app
            .send("PUT", &path, Some(&admin), json!({"phone": bad}))
            .await;
        r.error(400, "validation_failed");
        assert!(r.body["errors"]["phone"].is_array(), "{bad}: {}", r.body);
    }
    for (typed, stored) in [
        ("98765 43210", "+919876543210"),
        ("098765-43210", "+919876543210"),
        ("+44 7700 900123", "+447700900123"),
    ] {
        let r = app
            .send("PUT", &path, Some(&admin), json!({"phone": typed}))
            .await;
        assert_eq!(r.status, 200, "{typed}: {}", r.body);
        assert_eq!(r.body["data"]["user"]["phone"], stored, "{typed}");
    }
    // Staff may clear it.
    let cleared = app
        .send("PUT", &path, Some(&admin), json!({"phone": ""}))
        .await;
    assert_eq!(
        cleared.body["data"]["user"]["phone"], "",
        "{}",
        cleared.body
    );

    // Accounts staff create store it the same way.
    let created = app
        .send("POST", "/api/admin/users/create-user", Some(&admin), json!({"name": "Ravi", "email": "ravi@example.in", "password": "correct horse 3", "phone": "9000000004"}))
        .await;
    assert_eq!(created.status, 200, "{}", created.body);
    assert_eq!(created.body["data"]["user"]["phone"], "+919000000004");
    app.send(
        "POST",
        "/api/users",
        Some(&admin),
        json!({"name": "Invited", "email": "invited@example.in", "phone": "abc"}),
    )
    .await
    .error(400, "validation_failed");
}

#[tokio::test]
async fn deactivating_a_plan_counts_its_owners_and_staff_cannot_choose_it_afterwards() {
    let app = spawn_app().await;
    let (su, _) = account(&app, "root@example.in", "superuser").await;
    let created = app
        .send(
            "POST",
            "/api/plans",
            Some(&su),
            quick_plan("team", 2999, "INR", "monthly"),
        )
        .await;
    assert_eq!(created.status, 200, "{}", created.body);
    let mut on_team = Vec::new();
    for i in 0..3 {
        let (token, id) = account(&app, &format!("team{i}@example.in"), "user").await;
        let r = change_plan(
            &app,
            &su,
            &id,
            json!({"planId": "team", "subscriptionStatus": "active", "subscriptionEndsAt": in_days(30)}),
        )
        .await;
        assert_eq!(r.status, 200, "{}", r.body);
        on_team.push((token, id));
    }
    // Not counted: an owner on another plan, and one whose time on it ended.
    let (_, other) = account(&app, "other@example.in", "user").await;
    change_plan(&app, &su, &other, json!({"planId": "basic", "subscriptionStatus": "active", "subscriptionEndsAt": in_days(30)})).await;
    let (_, ended) = account(&app, "ended@example.in", "user").await;
    change_plan(
        &app,
        &su,
        &ended,
        json!({"planId": "team", "subscriptionStatus": "past_due"}),
    )
    .await;

    let gone = app
        .send("DELETE", "/api/plans/team", Some(&su), Value::Null)
        .await;
    assert_eq!(gone.status, 200, "{}", gone.body);
    assert_eq!(gone.body["ownersOnPlan"], 3);
    let message = gone.body["message"].as_str().expect("message");
    assert!(
        message.contains("3 owners are on this plan; they keep it until their period ends"),
        "{message}"
    );
    let empty = app
        .send(
            "POST",
            "/api/plans",
            Some(&su),
            quick_plan("nobody", 10, "INR", "monthly"),
        )
        .await;
    assert_eq!(empty.status, 200);
    let gone = app
        .send("DELETE", "/api/plans/nobody", Some(&su), Value::Null)
        .await;
    assert_eq!(gone.body["ownersOnPlan"], 0, "{}", gone.body);

    // Owners on it keep it; staff cannot put anyone new on it.
    let (token, id) = &on_team[0];
    let usage = app.get("/api/billing/usage", Some(token)).await;
    assert_eq!(usage.body["data"]["campaigns"]["limit"], 3);
    let r = change_plan(&app, &su, &other, json!({"planId": "team", "subscriptionStatus": "active", "subscriptionEndsAt": in_days(30)})).await;
    let message = r.error(400, "validation_failed");
    assert!(message.contains("inactive"), "{message}");
    assert_eq!(
        app.get(&format!("/api/admin/users/{other}"), Some(&su))
            .await
            .body["data"]["user"]["planId"],
        "basic"
    );
    // The plan the owner is on can still be kept (here: extended).
    let kept = change_plan(&app, &su, id, json!({"planId": "team", "subscriptionStatus": "active", "subscriptionEndsAt": in_days(60)})).await;
    assert_eq!(kept.status, 200, "{}", kept.body);

    // A plan staff set without a payment has no next billing date and
    // nothing to cancel.
    let sub = app.get("/api/billing/subscription", Some(token)).await;
    assert_eq!(sub.body["data"]["setByStaff"], true, "{}", sub.body);
    assert_eq!(sub.body["data"]["cycle"], Value::Null);
    app.send("POST", "/api/billing/cancel", Some(token), json!({}))
        .await
        .error(422, "nothing_to_cancel");
}

#[tokio::test]
async fn staff_set_every_status_with_its_effects() {
    let app = spawn_app().await;
    let (admin, _) = account(&app, "admin@example.in", "admin").await;
    let (owner, owner_id) = account(&app, "owner@example.in", "user").await;
    let campaign_limit =
        |reply: &crate::helpers::Reply| reply.body["data"]["campaigns"]["limit"].clone();

    // Past due: the plan stays named, the free plan's limits apply until a payment.
    let r = change_plan(
        &app,
        &admin,
        &owner_id,
        json!({"planId": "basic", "subscriptionStatus": "past_due"}),
    )
    .await;
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(r.body["data"]["user"]["subscriptionStatus"], "past_due");
    assert_eq!(r.body["data"]["user"]["planId"], "basic");
    assert_eq!(
        campaign_limit(&app.get("/api/billing/usage", Some(&owner)).await),
        0
    );
    let sub = app.get("/api/billing/subscription", Some(&owner)).await;
    assert_eq!(
        (&sub.body["data"]["status"], &sub.body["data"]["planName"]),
        (&json!("past_due"), &json!("Basic")),
        "{}",
        sub.body
    );
    // The owner can pay for it.
    let init = initialize(&app, &owner, json!({"udf2": "basic"})).await;
    assert_eq!(init.status, 200, "{}", init.body);

    // Cancelled: the plan until its end date, then the free plan.
    change_plan(
        &app,
        &admin,
        &owner_id,
        json!({"planId": "basic", "subscriptionStatus": "cancelled"}),
    )
    .await
    .error(400, "validation_failed");
    let r = change_plan(
        &app,
        &admin,
        &owner_id,
        json!({"planId": "basic", "subscriptionStatus": "cancelled", "subscriptionEndsAt": in_days(20)}),
    )
    .await;
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(r.body["data"]["user"]["subscriptionStatus"], "cancelled");
    assert_eq!(
        campaign_limit(&app.get("/api/billing/usage", Some(&owner)).await),
        1
    );
    let sub = app.get("/api/billing/subscription", Some(&owner)).await;
    let s = &sub.body["data"];
    assert_eq!(
        (&s["status"], &s["planId"]),
        (&json!("cancelled"), &json!("basic")),
        "{s}"
    );
    assert_eq!(s["cancelAtPeriodEnd"], true);
    assert!(
        (at(&s["subscriptionEndsAt"]) - Utc::now()).num_days() >= 19,
        "{s}"
    );
    app.send("POST", "/api/billing/cancel", Some(&owner), json!({}))
        .await
        .error(422, "already_cancelled");
    let filtered = app
        .get(
            "/api/admin/users?subscriptionStatus=cancelled",
            Some(&admin),
        )
        .await;
    assert_eq!(filtered.status, 200, "{}", filtered.body);
    assert!(
        filtered.body["data"]["users"]
            .as_array()
            .expect("users")
            .iter()
            .any(|u| u["id"] == owner_id.as_str()),
        "{}",
        filtered.body
    );
    // Cancelling from active keeps the period the owner is in.
    let end = in_days(45);
    change_plan(
        &app,
        &admin,
        &owner_id,
        json!({"planId": "basic", "subscriptionStatus": "active", "subscriptionEndsAt": end}),
    )
    .await;
    let r = change_plan(
        &app,
        &admin,
        &owner_id,
        json!({"planId": "basic", "subscriptionStatus": "cancelled"}),
    )
    .await;
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(
        at(&r.body["data"]["user"]["subscriptionEndsAt"]).timestamp(),
        at(&json!(end)).timestamp()
    );
    // The end date passes: the free plan.
    ca_auth::entities::user::Entity::update_many()
        .col_expr(
            ca_auth::entities::user::Column::SubscriptionEndsAt,
            Expr::value(Utc::now() - chrono::Duration::minutes(1)),
        )
        .filter(ca_auth::entities::user::Column::Id.eq(&owner_id))
        .exec(&app.db.conn)
        .await
        .expect("end");
    assert_eq!(
        campaign_limit(&app.get("/api/billing/usage", Some(&owner)).await),
        0
    );
    let campaigns = ca_campaigns::CampaignService::new(app.db.conn.clone());
    assert_eq!(
        campaigns
            .expire_subscriptions(Utc::now())
            .await
            .expect("sweep"),
        1
    );
    let me = app.get("/api/auth/me", Some(&owner)).await;
    assert_eq!(
        (
            &me.body["user"]["subscriptionStatus"],
            &me.body["user"]["planId"]
        ),
        (&json!("free"), &json!("free"))
    );

    // Expired: the free plan's limits until the owner buys a plan.
    let r = change_plan(
        &app,
        &admin,
        &owner_id,
        json!({"planId": "basic", "subscriptionStatus": "expired"}),
    )
    .await;
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(r.body["data"]["user"]["subscriptionStatus"], "expired");
    assert_eq!(
        campaign_limit(&app.get("/api/billing/usage", Some(&owner)).await),
        0
    );

    // Anything else is refused and changes nothing.
    let r = change_plan(
        &app,
        &admin,
        &owner_id,
        json!({"planId": "basic", "subscriptionStatus": "paused"}),
    )
    .await;
    let message = r.error(400, "validation_failed");
    assert!(
        message.contains("past_due") && message.contains("cancelled"),
        "{message}"
    );
    let me = app.get("/api/auth/me", Some(&owner)).await;
    assert_eq!(me.body["user"]["subscriptionStatus"], "expired");
}
