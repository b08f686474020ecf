//! Plans, usage, checkout and the demo upgrade path.

use chrono::{DateTime, Utc};
use sea_orm::sea_query::Expr;
use sea_orm::{ColumnTrait, EntityTrait, QueryFilter};
use serde_json::{Value, json};

use crate::helpers::{TestApp, spawn_app};

pub async fn end_trial(app: &TestApp, email: &str) {
    use ca_auth::entities::user;
    user::Entity::update_many()
        .col_expr(
            user::Column::TrialEndsAt,
            Expr::value(Utc::now() - chrono::Duration::minutes(1)),
        )
        .filter(user::Column::Email.eq(email))
        .exec(&app.db.conn)
        .await
        .expect("end trial");
}

pub fn campaign(name: &str) -> Value {
    json!({"name": name, "websiteUrl": "https://shop.example.in"})
}

#[tokio::test]
async fn plans_are_listed_without_sign_in() {
    let app = spawn_app().await;
    for path in ["/api/plans", "/api/billing/plans"] {
        let reply = app.get(path, None).await;
        assert_eq!(reply.status, 200);
        assert_eq!(reply.body["success"], true);
        let ids: Vec<&str> = reply.body["data"]
            .as_array()
            .expect("data")
            .iter()
            .map(|p| p["id"].as_str().expect("id"))
            .collect();
        assert_eq!(ids, ["free", "basic", "beta", "enterprise"]);
    }
    let basic = app.get("/api/plans/basic", None).await;
    let p = &basic.body["data"];
    assert_eq!(p["displayName"], "Basic");
    assert_eq!(p["price"], 999);
    assert_eq!(p["currency"], "INR");
    assert_eq!(p["interval"], "monthly");
    assert_eq!(p["limits"]["campaigns"], 1);
    assert_eq!(p["limits"]["visitorsPerMonth"], 10000);
    assert_eq!(p["features"][4], "Email support");
    let free = app.get("/api/plans/free", None).await;
    assert_eq!(free.body["data"]["price"], 0);
    assert_eq!(free.body["data"]["limits"]["campaigns"], 0);
    let beta = app.get("/api/plans/beta", None).await;
    assert_eq!(beta.body["data"]["price"], 5000);
    assert_eq!(beta.body["data"]["inviteOnly"], true);
    assert_eq!(beta.body["data"]["limits"]["aiConversations"], -1);
    app.get("/api/plans/gold", None)
        .await
        .error(404, "plan_not_found");
}

#[tokio::test]
async fn trial_usage_reads_from_the_real_counts() {
    let app = spawn_app().await;
    let (token, _) = app.register("usage@example.in", "secret1").await;
    let usage = app.get("/api/billing/usage", Some(&token)).await;
    assert_eq!(usage.status, 200);
    let u = &usage.body["data"];
    assert_eq!(u["plan"], json!({"planId": "free", "status": "trial"}));
    assert_eq!(u["campaigns"], json!({"current": 0, "limit": 1}));
    assert_eq!(u["visitors"]["current"], 0);
    assert_eq!(u["visitors"]["limit"], 1000);
    let reset: DateTime<Utc> = u["visitors"]["resetDate"]
        .as_str()
        .expect("date")
        .parse()
        .expect("rfc3339");
    assert!(reset > Utc::now() && reset - Utc::now() <= chrono::Duration::days(31));

    app.send(
        "POST",
        "/api/campaigns",
        Some(&token),
        campaign("Diwali sale"),
    )
    .await;
    let list = app.get("/api/campaigns", Some(&token)).await;
    assert_eq!(
        list.body["usage"]["campaigns"],
        json!({"current": 1, "limit": 1})
    );
    app.get("/api/billing/usage", None)
        .await
        .error(401, "missing_token");
}

#[tokio::test]
async fn free_user_upgrades_through_the_demo_payment_and_can_create() {
    let app = spawn_app().await;
    let (token, _) = app.register("upgrade@example.in", "secret1").await;
    end_trial(&app, "upgrade@example.in").await;

    let refused = app
        .send("POST", "/api/campaigns", Some(&token), campaign("First"))
        .await;
    assert_eq!(
        refused.error(403, "plan_limit_reached"),
        "You've reached your free plan limit. Upgrade to create more campaigns."
    );
    assert_eq!(refused.body["upgradeRequired"], true);
    assert_eq!(refused.body["isFreePlan"], true);

    let checkout = app
        .send(
            "POST",
            "/api/billing/checkout",
            Some(&token),
            json!({"planId": "basic"}),
        )
        .await;
    assert_eq!(checkout.status, 200, "{}", checkout.body);
    assert_eq!(
        checkout.body["data"]["checkoutUrl"],
        "/mock-payment?planId=basic&planName=Basic&price=999"
    );

    let paid = app
        .send(
            "POST",
            "/api/billing/mock-payment-success",
            Some(&token),
            json!({"planId": "basic"}),
        )
        .await;
    assert_eq!(paid.status, 200, "{}", paid.body);
    let user = &paid.body["data"]["user"];
    assert_eq!(user["planId"], "basic");
    assert_eq!(user["subscriptionStatus"], "active");
    let ends: DateTime<Utc> = user["subscriptionEndsAt"]
        .as_str()
        .expect("ends")
        .parse()
        .expect("rfc3339");
    let days = (ends - Utc::now()).num_days();
    assert!((27..=31).contains(&days), "{days}");
    let me = app.get("/api/auth/me", Some(&token)).await;
    assert_eq!(me.body["user"]["subscriptionStatus"], "active");

    let created = app
        .send("POST", "/api/campaigns", Some(&token), campaign("First"))
        .await;
    assert_eq!(created.status, 201, "{}", created.body);
    let usage = app.get("/api/billing/usage", Some(&token)).await;
    assert_eq!(
        usage.body["data"]["plan"],
        json!({"planId": "basic", "status": "active"})
    );
    assert_eq!(usage.body["data"]["visitors"]["limit"], 10000);

    let at_limit = app
        .send("POST", "/api/campaigns", Some(&token), campaign("Second"))
        .await;
    assert_eq!(
        at_limit.error(403, "plan_limit_reached"),
        "Campaign limit exceeded. Please upgrade your plan."
    );
    assert_eq!(at_limit.body["isFreePlan"], false);
    assert_eq!(at_limit.body["upgradeRequired"], true);

    // The current plan cannot be bought again.
    app.send(
        "POST",
        "/api/billing/checkout",
        Some(&token),
        json!({"planId": "basic"}),
    )
    .await
    .error(409, "already_subscribed");
}

#[tokio::test]
async fn plans_that_cannot_be_bought_are_refused_and_change_nothing() {
    let app = spawn_app().await;
    let (token, _) = app.register("refused@example.in", "secret1").await;
    let pay = |plan: &str| {
        app.send(
            "POST",
            "/api/billing/mock-payment-success",
            Some(&token),
            json!({"planId": plan}),
        )
    };
    pay("free").await.error(422, "free_plan");
    let contact = pay("enterprise").await;
    assert!(
        contact
            .error(422, "contact_sales")
            .contains("contact sales")
    );
    let invite = pay("beta").await;
    assert!(invite.error(403, "invite_only").contains("invite-only"));
    pay("gold").await.error(404, "plan_not_found");
    pay("").await.error(400, "validation_failed");
    app.send(
        "POST",
        "/api/billing/checkout",
        Some(&token),
        json!({"planId": "beta"}),
    )
    .await
    .error(403, "invite_only");
    let me = app.get("/api/auth/me", Some(&token)).await;
    assert_eq!(me.body["user"]["subscriptionStatus"], "trial");
    assert_eq!(me.body["user"]["planId"], "free");

    // With an invitation the invite-only plan can be bought.
    ca_billing::plans::invite(&app.db.conn, "beta", "Refused@example.in")
        .await
        .expect("invite");
    let ok = pay("beta").await;
    assert_eq!(ok.status, 200, "{}", ok.body);
    assert_eq!(ok.body["data"]["user"]["planId"], "beta");
}

/// The subscription names the invite-only plans the owner was invited to:
/// the billing screen offers to buy those, and to request an invite for the rest.
#[tokio::test]
async fn the_subscription_names_the_invite_only_plans_the_owner_may_buy() {
    let app = spawn_app().await;
    let (token, _) = app.register("Invitee@example.in", "secret1").await;
    let (other, _) = app.register("other@example.in", "secret1").await;
    let invited = |t: String| {
        let app = &app;
        async move {
            let sub = app.get("/api/billing/subscription", Some(&t)).await;
            assert_eq!(sub.status, 200, "{}", sub.body);
            sub.body["data"]["invitedPlans"].clone()
        }
    };
    assert_eq!(invited(token.clone()).await, json!([]));
    ca_billing::plans::invite(&app.db.conn, "beta", "invitee@example.in")
        .await
        .expect("invite");
    // An invitation to a plan that is not invite-only opens nothing new.
    ca_billing::plans::invite(&app.db.conn, "basic", "invitee@example.in")
        .await
        .expect("invite");
    assert_eq!(invited(token.clone()).await, json!(["beta"]));
    assert_eq!(invited(other).await, json!([]));
}
