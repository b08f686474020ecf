//! A/B tests of a campaign: creating (every rule checked, nothing written on
//! a refusal), listing and reading results per variant, what the widget's
//! public config carries, pausing, and promoting the winner into the campaign.

use serde_json::{Value, json};

use crate::billing::campaign;
use crate::helpers::{TestApp, spawn_app};

async fn owner_with_campaign(app: &TestApp, email: &str) -> (String, String) {
    let (token, _) = app.register(email, "secret1").await;
    let created = app
        .send("POST", "/api/campaigns", Some(&token), campaign("Diwali"))
        .await;
    assert_eq!(created.status, 201, "{}", created.body);
    let id = created.body["campaign"]["_id"]
        .as_str()
        .unwrap()
        .to_string();
    (token, id)
}

fn two_arms() -> Value {
    json!({
        "name": "Headline",
        "metric": "conversionRate",
        "variants": [
            {"name": "Control", "weight": 50, "overrides": {}},
            {"name": "Urgent", "weight": 50, "overrides": {"popup": {"title": "Only today: 10% off", "design": {"primaryColor": "#123456"}}}}
        ]
    })
}

#[tokio::test]
async fn bad_tests_are_refused_and_change_nothing() {
    let app = spawn_app().await;
    let (token, id) = owner_with_campaign(&app, "ab-bad@example.in").await;
    let t = Some(token.as_str());
    let path = format!("/api/campaigns/{id}/tests");
    let cases = [
        (
            json!({"name": "x", "metric": "conversionRate", "variants": [
                {"name": "Control", "weight": 60, "overrides": {}},
                {"name": "B", "weight": 30, "overrides": {"popup": {"title": "B"}}}]}),
            "variants",
            "add up to 100",
        ),
        (
            json!({"name": "x", "metric": "conversionRate", "variants": [
                {"name": "Control", "weight": 50.5, "overrides": {}},
                {"name": "B", "weight": 49.5, "overrides": {}}]}),
            "variants[0].weight",
            "whole percent",
        ),
        (
            json!({"name": "x", "metric": "conversionRate", "variants": [
                {"name": "Control", "weight": 100, "overrides": {}}]}),
            "variants",
            "1 to 3 variants",
        ),
        (
            json!({"name": "x", "metric": "conversionRate", "variants": [
                {"name": "A", "weight": 20, "overrides": {}},
                {"name": "B", "weight": 20, "overrides": {}},
                {"name": "C", "weight": 20, "overrides": {}},
                {"name": "D", "weight": 20, "overrides": {}},
                {"name": "E", "weight": 20, "overrides": {}}]}),
            "variants",
            "1 to 3 variants",
        ),
        (
            json!({"name": "x", "metric": "clicks", "variants": [
                {"name": "Control", "weight": 50, "overrides": {}},
                {"name": "B", "weight": 50, "overrides": {}}]}),
            "metric",
            "conversionRate or revenuePerVisitor",
        ),
        (
            json!({"name": "x", "metric": "conversionRate", "variants": [
                {"name": "Control", "weight": 50, "overrides": {}},
                {"name": "B", "weight": 50, "overrides": {"targeting": {"devices": ["mobile"]}}}]}),
            "variants[1].overrides.targeting",
            "cannot change",
        ),
        (
            json!({"name": "x", "metric": "conversionRate", "variants": [
                {"name": "Control", "weight": 50, "overrides": {}},
                {"name": "B", "weight": 50, "overrides": {"aiSettings": {"knowledgeBase": "secret"}}}]}),
            "variants[1].overrides.aiSettings.knowledgeBase",
            "cannot change",
        ),
        (
            json!({"name": "x", "metric": "conversionRate", "variants": [
                {"name": "Control", "weight": 50, "overrides": {}},
                {"name": "B", "weight": 50, "overrides": {"exitIntent": {"sensitivity": "extreme"}}}]}),
            "variants[1].overrides.exitIntent.sensitivity",
            "",
        ),
        (
            json!({"name": "x", "metric": "conversionRate", "variants": [
                {"name": "Control", "weight": 50, "overrides": {"popup": {"title": "no"}}},
                {"name": "B", "weight": 50, "overrides": {}}]}),
            "variants[0].overrides",
            "control",
        ),
    ];
    for (body, field, words) in cases {
        let r = app.send("POST", &path, t, body.clone()).await;
        assert_eq!(r.status, 400, "{body} → {}", r.body);
        assert_eq!(r.body["code"], "validation_failed");
        let msgs = r.body["errors"][field]
            .as_array()
            .unwrap_or_else(|| panic!("no error for {field}: {}", r.body));
        assert!(
            msgs.iter().any(|m| m.as_str().unwrap().contains(words)),
            "{field}: {msgs:?}"
        );
    }
    let list = app.get(&path, t).await;
    assert_eq!(list.status, 200);
    assert_eq!(list.body["data"], json!([]));
    let config = app
        .get(&format!("/api/widget/campaigns/{id}/config"), None)
        .await;
    assert!(config.body["campaign"].get("test").is_none());
}

#[tokio::test]
async fn a_test_is_created_listed_read_and_owned() {
    let app = spawn_app().await;
    let (token, id) = owner_with_campaign(&app, "ab-crud@example.in").await;
    let t = Some(token.as_str());
    let path = format!("/api/campaigns/{id}/tests");
    let r = app.send("POST", &path, t, two_arms()).await;
    assert_eq!(r.status, 201, "{}", r.body);
    assert_eq!(r.body["success"], true);
    let test = &r.body["data"];
    let test_id = test["id"].as_str().unwrap().to_string();
    assert_eq!(test["status"], "running");
    assert_eq!(test["state"], "tooEarly");
    assert_eq!(test["metric"], "conversionRate");
    assert_eq!(test["version"], 1);
    assert_eq!(test["decision"], Value::Null);
    let variants = test["variants"].as_array().unwrap();
    assert_eq!(variants.len(), 2);
    assert_eq!(variants[0]["name"], "Control");
    assert_eq!(variants[0]["weight"], 50);
    assert_eq!(variants[0]["impressions"], 0);
    // Nothing known yet: the interval is all of 0–100 %.
    assert_eq!(variants[0]["conversionRateInterval"], json!([0.0, 100.0]));
    assert_eq!(
        variants[1]["overrides"]["popup"]["title"],
        "Only today: 10% off"
    );

    // One running test per campaign.
    let again = app.send("POST", &path, t, two_arms()).await;
    assert_eq!(again.status, 422, "{}", again.body);
    assert_eq!(again.body["code"], "test_already_running");

    let list = app.get(&path, t).await;
    assert_eq!(list.body["data"].as_array().unwrap().len(), 1);
    let one = app.get(&format!("{path}/{test_id}"), t).await;
    assert_eq!(one.status, 200);
    assert_eq!(one.body["data"]["name"], "Headline");

    // Another owner sees neither the campaign's tests nor the test.
    let (other, _) = app.register("ab-other@example.in", "secret1").await;
    let o = Some(other.as_str());
    assert_eq!(app.get(&path, o).await.status, 404);
    assert_eq!(app.get(&format!("{path}/{test_id}"), o).await.status, 404);
    let stolen = app
        .send("POST", &format!("{path}/{test_id}/pause"), o, json!({}))
        .await;
    assert_eq!(stolen.status, 404);
    assert_eq!(app.send("POST", &path, o, two_arms()).await.status, 404);
}

#[tokio::test]
async fn the_widget_config_carries_the_running_test_and_pausing_removes_it() {
    let app = spawn_app().await;
    let (token, id) = owner_with_campaign(&app, "ab-config@example.in").await;
    let t = Some(token.as_str());
    let config_path = format!("/api/widget/campaigns/{id}/config");
    let before = app.get(&config_path, None).await;
    assert!(before.body["campaign"].get("test").is_none());
    let r = app
        .send("POST", &format!("/api/campaigns/{id}/tests"), t, two_arms())
        .await;
    let test_id = r.body["data"]["id"].as_str().unwrap().to_string();
    let ids: Vec<String> = r.body["data"]["variants"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v["id"].as_str().unwrap().to_string())
        .collect();
    let during = app.get(&config_path, None).await;
    let test = &during.body["campaign"]["test"];
    assert_eq!(test["id"], test_id.as_str());
    assert_eq!(
        test["variants"],
        json!([
            {"id": ids[0], "weight": 50, "overrides": {}},
            {"id": ids[1], "weight": 50, "overrides": {"popup": {"title": "Only today: 10% off", "design": {"primaryColor": "#123456"}}}}
        ])
    );
    let paused = app
        .send(
            "POST",
            &format!("/api/campaigns/{id}/tests/{test_id}/pause"),
            t,
            json!({}),
        )
        .await;
    assert_eq!(paused.status, 200, "{}", paused.body);
    assert_eq!(paused.body["data"]["status"], "paused");
    let after = app.get(&config_path, None).await;
    assert!(
        after.body["campaign"].get("test").is_none(),
        "{}",
        after.body
    );
    let resumed = app
        .send(
            "POST",
            &format!("/api/campaigns/{id}/tests/{test_id}/pause"),
            t,
            json!({}),
        )
        .await;
    assert_eq!(resumed.body["data"]["status"], "running");
    let back = app.get(&config_path, None).await;
    assert_eq!(back.body["campaign"]["test"]["id"], test_id.as_str());
}

#[tokio::test]
async fn counters_are_read_per_variant() {
    let app = spawn_app().await;
    let (token, id) = owner_with_campaign(&app, "ab-count@example.in").await;
    let t = Some(token.as_str());
    let r = app
        .send("POST", &format!("/api/campaigns/{id}/tests"), t, two_arms())
        .await;
    let test_id = r.body["data"]["id"].as_str().unwrap().to_string();
    let variants = r.body["data"]["variants"].as_array().unwrap().clone();
    let a = variants[0]["id"].as_str().unwrap();
    let b = variants[1]["id"].as_str().unwrap();
    let day = chrono::Utc::now().date_naive();
    let yesterday = day.pred_opt().unwrap();
    use ca_experiments::service::{Tally, record, running_variant};
    assert_eq!(
        running_variant(&app.db.conn, &id, b).await.unwrap(),
        Some(test_id.clone())
    );
    assert_eq!(
        running_variant(&app.db.conn, "another-campaign", b)
            .await
            .unwrap(),
        None
    );
    for (variant, when, tally) in [
        (
            a,
            yesterday,
            Tally {
                visitors: 100,
                impressions: 100,
                leads: 4,
                ..Tally::default()
            },
        ),
        (
            a,
            day,
            Tally {
                visitors: 100,
                impressions: 100,
                leads: 6,
                purchases: 1,
                revenue_paise: 150_000,
                ..Tally::default()
            },
        ),
        (
            b,
            day,
            Tally {
                visitors: 200,
                impressions: 200,
                conversations: 30,
                leads: 20,
                ..Tally::default()
            },
        ),
        (
            b,
            day,
            Tally {
                purchases: 2,
                revenue_paise: 100_050,
                ..Tally::default()
            },
        ),
    ] {
        record(&app.db.conn, &test_id, variant, when, tally)
            .await
            .unwrap();
    }
    let one = app
        .get(&format!("/api/campaigns/{id}/tests/{test_id}"), t)
        .await;
    let v = &one.body["data"]["variants"];
    assert_eq!(v[0]["impressions"], 200);
    assert_eq!(v[0]["leads"], 10);
    assert_eq!(v[0]["conversionRate"], 5.0);
    assert_eq!(v[0]["revenue"], 1500.0);
    assert_eq!(v[0]["revenuePerVisitor"], 7.5);
    assert_eq!(v[1]["impressions"], 200);
    assert_eq!(v[1]["conversations"], 30);
    assert_eq!(v[1]["leads"], 20);
    assert_eq!(v[1]["purchases"], 2);
    assert_eq!(v[1]["conversionRate"], 10.0);
    assert_eq!(v[1]["revenue"], 1000.5);
    let lo = v[1]["conversionRateInterval"][0].as_f64().unwrap();
    let hi = v[1]["conversionRateInterval"][1].as_f64().unwrap();
    assert!(lo < 10.0 && 10.0 < hi, "{lo}..{hi}");
    let p0 = v[0]["probabilityToBeBest"].as_f64().unwrap();
    let p1 = v[1]["probabilityToBeBest"].as_f64().unwrap();
    assert!(p1 > 0.9 && (p0 + p1 - 1.0).abs() < 1e-3, "{p0} {p1}");
    // Day one: no call however far ahead a variant looks.
    assert_eq!(one.body["data"]["state"], "tooEarly");
    assert_eq!(one.body["data"]["decision"], Value::Null);
}

#[tokio::test]
async fn promotion_writes_the_campaign_and_closes_the_test() {
    let app = spawn_app().await;
    let (token, id) = owner_with_campaign(&app, "ab-promote@example.in").await;
    let t = Some(token.as_str());
    let r = app
        .send("POST", &format!("/api/campaigns/{id}/tests"), t, two_arms())
        .await;
    let test_id = r.body["data"]["id"].as_str().unwrap().to_string();
    let b = r.body["data"]["variants"][1]["id"]
        .as_str()
        .unwrap()
        .to_string();
    let promote = format!("/api/campaigns/{id}/tests/{test_id}/promote");
    let wrong = app
        .send("POST", &promote, t, json!({"variantId": "nope"}))
        .await;
    assert_eq!(wrong.status, 400, "{}", wrong.body);
    let still = app.get(&format!("/api/campaigns/{id}"), t).await;
    assert_eq!(
        still.body["campaign"]["settings"]["popup"]["title"],
        "Wait! Before you go..."
    );

    let done = app.send("POST", &promote, t, json!({"variantId": b})).await;
    assert_eq!(done.status, 200, "{}", done.body);
    assert_eq!(done.body["data"]["status"], "closed");
    assert_eq!(done.body["data"]["state"], "closed");
    assert_eq!(done.body["data"]["decision"]["winner"], b.as_str());
    assert!(done.body["data"]["closedAt"].is_string());
    let c = app.get(&format!("/api/campaigns/{id}"), t).await;
    let s = &c.body["campaign"]["settings"];
    assert_eq!(s["popup"]["title"], "Only today: 10% off");
    assert_eq!(s["popup"]["design"]["primaryColor"], "#123456");
    // Untouched settings keep their values.
    assert_eq!(s["popup"]["design"]["borderRadius"], 12);
    // Closed tests stay readable, can be neither paused nor promoted again,
    // and the widget no longer splits traffic.
    let read = app
        .get(&format!("/api/campaigns/{id}/tests/{test_id}"), t)
        .await;
    assert_eq!(read.body["data"]["status"], "closed");
    let again = app.send("POST", &promote, t, json!({"variantId": b})).await;
    assert_eq!(again.body["code"], "test_closed");
    let config = app
        .get(&format!("/api/widget/campaigns/{id}/config"), None)
        .await;
    assert!(config.body["campaign"].get("test").is_none());
    assert_eq!(
        config.body["campaign"]["popup"]["title"],
        "Only today: 10% off"
    );
    // A new test may start, as version 2.
    let next = app
        .send("POST", &format!("/api/campaigns/{id}/tests"), t, two_arms())
        .await;
    assert_eq!(next.status, 201, "{}", next.body);
    assert_eq!(next.body["data"]["version"], 2);
}

/// The campaign's website, where the widget's events and purchases come from.
const SITE: &str = "https://shop.example.in";

/// Sends a widget call from the campaign's website.
async fn from_site(app: &TestApp, path: &str, body: Value) -> crate::helpers::Reply {
    let res = app
        .client
        .post(app.url(path))
        .header("origin", SITE)
        .json(&body)
        .send()
        .await
        .expect("send");
    crate::helpers::Reply::from(res).await
}

/// An impression of `visitor`, stored before it returns.
async fn impression(app: &TestApp, campaign: &str, visitor: &str, variant: Value) {
    let r = from_site(
        app,
        "/api/widget/events",
        json!({"campaignId": campaign, "visitorId": visitor, "type": "impression", "variantId": variant}),
    )
    .await;
    assert_eq!(r.status, 202, "{}", r.body);
    assert_eq!(r.body["counted"], true);
    app.events.flush().await;
}

/// Starts a conversation of `visitor`; its public id and greeting.
async fn start_chat(
    app: &TestApp,
    campaign: &str,
    visitor: &str,
    variant: Value,
) -> (String, String) {
    let r = app
        .post(
            "/api/widget/conversations",
            json!({"campaignId": campaign, "visitorId": visitor, "variantId": variant}),
        )
        .await;
    assert_eq!(r.status, 201, "{}", r.body);
    (
        r.body["conversationId"].as_str().unwrap().to_string(),
        r.body["greeting"].as_str().unwrap().to_string(),
    )
}

async fn purchase(
    app: &TestApp,
    campaign: &str,
    visitor: &str,
    order: &str,
    value: f64,
    variant: Value,
) {
    let r = from_site(
        app,
        "/api/widget/purchases",
        json!({"campaignId": campaign, "visitorId": visitor, "value": value, "currency": "INR", "orderId": order, "variantId": variant}),
    )
    .await;
    assert_eq!(r.status, 200, "{}", r.body);
}

/// Starts `body` on the campaign: the test's id and its arms' ids.
async fn start_test(
    app: &TestApp,
    token: &str,
    campaign: &str,
    body: Value,
) -> (String, Vec<String>) {
    let r = app
        .send(
            "POST",
            &format!("/api/campaigns/{campaign}/tests"),
            Some(token),
            body,
        )
        .await;
    assert_eq!(r.status, 201, "{}", r.body);
    let ids = r.body["data"]["variants"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v["id"].as_str().unwrap().to_string())
        .collect();
    (r.body["data"]["id"].as_str().unwrap().to_string(), ids)
}

async fn results(app: &TestApp, token: &str, campaign: &str, test: &str) -> Value {
    let r = app
        .get(
            &format!("/api/campaigns/{campaign}/tests/{test}"),
            Some(token),
        )
        .await;
    assert_eq!(r.status, 200, "{}", r.body);
    r.body["data"].clone()
}

/// The owner of campaign `id`.
async fn owner_of(app: &TestApp, id: &str) -> String {
    use sea_orm::EntityTrait;
    ca_campaigns::entities::campaign::Entity::find_by_id(id.to_string())
        .one(&app.db.conn)
        .await
        .unwrap()
        .unwrap()
        .owner_id
}

/// An arm's counters, in the order impressions, conversations, leads,
/// purchases, revenue (rupees).
fn counts(arm: &Value) -> (i64, i64, i64, i64, f64) {
    (
        arm["impressions"].as_i64().unwrap(),
        arm["conversations"].as_i64().unwrap(),
        arm["leads"].as_i64().unwrap(),
        arm["purchases"].as_i64().unwrap(),
        arm["revenue"].as_f64().unwrap(),
    )
}

/// The stored A/B variant of a conversation.
async fn conversation_variant(app: &TestApp, conversation: &str) -> Option<String> {
    use ca_conversations::entities::conversation as c;
    use sea_orm::{ColumnTrait, EntityTrait, QueryFilter};
    c::Entity::find()
        .filter(c::Column::ConversationId.eq(conversation))
        .one(&app.db.conn)
        .await
        .unwrap()
        .unwrap()
        .variant_id
}

#[tokio::test]
async fn widget_traffic_is_counted_per_variant_and_day() {
    let app = spawn_app().await;
    let (token, id) = owner_with_campaign(&app, "ab-traffic@example.in").await;
    let first_day = chrono::Utc::now().date_naive();
    let (test_id, arms) = start_test(&app, &token, &id, two_arms()).await;
    let (a, b) = (json!(arms[0]), json!(arms[1]));

    // Impressions: 4 for the control (from 3 visitors), 2 for the variant;
    // page views and
    // impressions without a variant count for no arm.
    for v in ["v_ab_imp_a1", "v_ab_imp_a2", "v_ab_imp_a3", "v_ab_imp_a1"] {
        impression(&app, &id, v, a.clone()).await;
    }
    for v in ["v_ab_imp_b1", "v_ab_imp_b2"] {
        impression(&app, &id, v, b.clone()).await;
    }
    impression(&app, &id, "v_ab_imp_none", Value::Null).await;
    let view = from_site(
        &app,
        "/api/widget/events",
        json!({"campaignId": id, "visitorId": "v_ab_imp_b1", "type": "pageview", "variantId": b}),
    )
    .await;
    assert_eq!(view.status, 202, "{}", view.body);
    app.events.flush().await;

    // Conversations: 1 for the control, 2 for the variant, 1 outside the test.
    let (chat_a, _) = start_chat(&app, &id, "v_ab_chat_a1", a.clone()).await;
    let (chat_b1, _) = start_chat(&app, &id, "v_ab_chat_b1", b.clone()).await;
    let (chat_b2, _) = start_chat(&app, &id, "v_ab_chat_b2", b.clone()).await;
    let (chat_none, _) = start_chat(&app, &id, "v_ab_chat_n1", Value::Null).await;
    assert_eq!(
        conversation_variant(&app, &chat_a).await,
        Some(arms[0].clone())
    );
    assert_eq!(
        conversation_variant(&app, &chat_b1).await,
        Some(arms[1].clone())
    );
    assert_eq!(conversation_variant(&app, &chat_none).await, None);

    // Leads count for the conversation's variant, once per conversation
    // (and once per visitor).
    for (chat, email) in [
        (&chat_a, "asha@example.in"),
        (&chat_b1, "bina@example.in"),
        (&chat_b1, "bina.second@example.in"),
        (&chat_none, "neha@example.in"),
    ] {
        let r = app
            .post(
                &format!("/api/widget/conversations/{chat}/forms"),
                json!({"values": {"email": email}}),
            )
            .await;
        assert_eq!(r.status, 200, "{}", r.body);
    }
    let _ = chat_b2;

    // Purchases and their value (rupees, counted in paise); a repeated order
    // id counts nothing again.
    purchase(&app, &id, "v_ab_chat_b1", "AB-1001", 1499.5, b.clone()).await;
    purchase(&app, &id, "v_ab_chat_b2", "AB-1002", 250.25, b.clone()).await;
    purchase(&app, &id, "v_ab_chat_b2", "AB-1002", 250.25, b.clone()).await;
    purchase(&app, &id, "v_ab_chat_a1", "AB-1003", 200.0, a.clone()).await;
    purchase(&app, &id, "v_ab_chat_n1", "AB-1004", 999.0, Value::Null).await;

    let data = results(&app, &token, &id, &test_id).await;
    let v = &data["variants"];
    assert_eq!(counts(&v[0]), (4, 1, 1, 1, 200.0), "{v}");
    assert_eq!(counts(&v[1]), (2, 2, 1, 2, 1749.75), "{v}");
    // The chats' visitors had no impression stored: a lead counts its
    // visitor then (one more per arm), so an arm's leads never outnumber
    // its visitors.
    assert_eq!(
        (&v[0]["visitors"], &v[1]["visitors"]),
        (&json!(4), &json!(3))
    );
    assert_eq!(v[1]["revenuePerVisitor"], 583.25);
    assert_eq!(v[0]["conversionRate"], 25.0);

    // Each arm's days add up to its totals, all on the days the traffic came.
    let last_day = chrono::Utc::now().date_naive();
    for (arm, (impressions, leads, revenue)) in [(&v[0], (4, 1, 200.0)), (&v[1], (2, 1, 1749.75))] {
        let days = arm["daily"].as_array().unwrap();
        assert!(!days.is_empty(), "{arm}");
        let mut sums = (0, 0, 0.0);
        for d in days {
            let day: chrono::NaiveDate = d["day"].as_str().unwrap().parse().unwrap();
            assert!(first_day <= day && day <= last_day, "{d}");
            sums.0 += d["impressions"].as_i64().unwrap();
            sums.1 += d["leads"].as_i64().unwrap();
            sums.2 += d["revenue"].as_f64().unwrap();
        }
        assert_eq!(sums.0, impressions, "{arm}");
        assert_eq!(sums.1, leads, "{arm}");
        assert!((sums.2 - revenue).abs() < 1e-9, "{arm}");
    }

    // Promotion after traffic: the winner goes into the campaign, the test
    // closes with its figures kept, and later traffic counts for no arm.
    let done = app
        .send(
            "POST",
            &format!("/api/campaigns/{id}/tests/{test_id}/promote"),
            Some(&token),
            json!({"variantId": arms[1]}),
        )
        .await;
    assert_eq!(done.status, 200, "{}", done.body);
    assert_eq!(done.body["data"]["status"], "closed");
    assert_eq!(
        counts(&done.body["data"]["variants"][1]),
        (2, 2, 1, 2, 1749.75)
    );
    let c = app.get(&format!("/api/campaigns/{id}"), Some(&token)).await;
    assert_eq!(
        c.body["campaign"]["settings"]["popup"]["title"],
        "Only today: 10% off"
    );
    impression(&app, &id, "v_ab_late_b1", b.clone()).await;
    let (late, _) = start_chat(&app, &id, "v_ab_late_b1", b.clone()).await;
    assert_eq!(conversation_variant(&app, &late).await, None);
    purchase(&app, &id, "v_ab_late_b1", "AB-2001", 500.0, b.clone()).await;
    let after = results(&app, &token, &id, &test_id).await;
    assert_eq!(counts(&after["variants"][1]), (2, 2, 1, 2, 1749.75));
}

#[tokio::test]
async fn variant_ids_that_do_not_count_are_ignored_and_never_refused() {
    let app = spawn_app().await;
    let (token, id) = owner_with_campaign(&app, "ab-ignored@example.in").await;
    let (other_token, other) = owner_with_campaign(&app, "ab-ignored-other@example.in").await;
    let greeting_arms = json!({
        "name": "Greeting",
        "metric": "conversionRate",
        "variants": [
            {"name": "Control", "weight": 50, "overrides": {}},
            {"name": "Warm", "weight": 50, "overrides": {"aiSettings": {"initialMessage": "Ruko! Aaj 10% off hai."}}}
        ]
    });
    let (test_id, arms) = start_test(&app, &token, &id, greeting_arms.clone()).await;
    let (foreign_test, foreign) = start_test(&app, &other_token, &other, two_arms()).await;

    // Unknown ids, another campaign's variant, and values of the wrong kind.
    for (n, variant) in [
        json!("no-such-variant"),
        json!(foreign[1]),
        json!(42),
        json!({"id": arms[1]}),
        json!(""),
    ]
    .into_iter()
    .enumerate()
    {
        let visitor = format!("v_ab_ignored_{n}");
        impression(&app, &id, &visitor, variant.clone()).await;
        let (chat, greeting) = start_chat(&app, &id, &visitor, variant.clone()).await;
        assert_ne!(greeting, "Ruko! Aaj 10% off hai.", "{variant}");
        assert_eq!(conversation_variant(&app, &chat).await, None, "{variant}");
        purchase(&app, &id, &visitor, &format!("IGN-{n}"), 300.0, variant).await;
    }
    let data = results(&app, &token, &id, &test_id).await;
    let foreign_data = results(&app, &other_token, &other, &foreign_test).await;
    for arm in data["variants"]
        .as_array()
        .unwrap()
        .iter()
        .chain(foreign_data["variants"].as_array().unwrap())
    {
        assert_eq!(counts(arm), (0, 0, 0, 0, 0.0), "{arm}");
        assert_eq!(arm["daily"], json!([]));
    }

    // A paused test counts nothing and greets with the campaign's greeting;
    // resumed, the same calls count again.
    let pause = format!("/api/campaigns/{id}/tests/{test_id}/pause");
    let paused = app.send("POST", &pause, Some(&token), json!({})).await;
    assert_eq!(paused.body["data"]["status"], "paused");
    let b = json!(arms[1]);
    impression(&app, &id, "v_ab_paused_1", b.clone()).await;
    let (chat, greeting) = start_chat(&app, &id, "v_ab_paused_1", b.clone()).await;
    assert_ne!(greeting, "Ruko! Aaj 10% off hai.");
    assert_eq!(conversation_variant(&app, &chat).await, None);
    purchase(&app, &id, "v_ab_paused_1", "PAUSED-1", 300.0, b.clone()).await;
    let data = results(&app, &token, &id, &test_id).await;
    assert_eq!(counts(&data["variants"][1]), (0, 0, 0, 0, 0.0));

    let resumed = app.send("POST", &pause, Some(&token), json!({})).await;
    assert_eq!(resumed.body["data"]["status"], "running");
    impression(&app, &id, "v_ab_resumed_1", b.clone()).await;
    let (_, greeting) = start_chat(&app, &id, "v_ab_resumed_1", b.clone()).await;
    assert_eq!(greeting, "Ruko! Aaj 10% off hai.");
    purchase(&app, &id, "v_ab_resumed_1", "RESUMED-1", 300.0, b.clone()).await;
    let data = results(&app, &token, &id, &test_id).await;
    assert_eq!(counts(&data["variants"][1]), (1, 1, 0, 1, 300.0));

    // A paused variant of a running test counts nothing either, and leaves
    // the widget's split; the control cannot be paused, nor a variant of
    // another test.
    let pause_arm = |arm: &str| format!("/api/campaigns/{id}/tests/{test_id}/variants/{arm}/pause");
    let refused = app
        .send(
            "POST",
            &pause_arm(arms[0].as_str()),
            Some(&token),
            json!({}),
        )
        .await;
    refused.error(422, "control_not_pausable");
    app.send(
        "POST",
        &pause_arm(foreign[1].as_str()),
        Some(&token),
        json!({}),
    )
    .await
    .error(404, "variant_not_found");
    app.send(
        "POST",
        &pause_arm(arms[1].as_str()),
        Some(&other_token),
        json!({}),
    )
    .await
    .error(404, "test_not_found");
    let config = app
        .get(&format!("/api/widget/campaigns/{id}/config"), None)
        .await;
    assert_eq!(
        config.body["campaign"]["test"]["variants"]
            .as_array()
            .map(Vec::len),
        Some(2)
    );
    let paused_arm = app
        .send(
            "POST",
            &pause_arm(arms[1].as_str()),
            Some(&token),
            json!({}),
        )
        .await;
    assert_eq!(paused_arm.status, 200, "{}", paused_arm.body);
    assert_eq!(paused_arm.body["data"]["status"], "running");
    assert_eq!(paused_arm.body["data"]["variants"][1]["paused"], true);
    assert_eq!(paused_arm.body["data"]["variants"][0]["paused"], false);
    let config = app
        .get(&format!("/api/widget/campaigns/{id}/config"), None)
        .await;
    assert_eq!(
        config.body["campaign"]["test"]["variants"],
        json!([{"id": arms[0], "weight": 50, "overrides": {}}]),
        "only the control is split while the variant is paused"
    );
    impression(&app, &id, "v_ab_varpaused_1", b.clone()).await;
    let (chat, _) = start_chat(&app, &id, "v_ab_varpaused_1", b.clone()).await;
    assert_eq!(conversation_variant(&app, &chat).await, None);
    purchase(
        &app,
        &id,
        "v_ab_varpaused_1",
        "VARPAUSED-1",
        300.0,
        b.clone(),
    )
    .await;
    let data = results(&app, &token, &id, &test_id).await;
    assert_eq!(counts(&data["variants"][1]), (1, 1, 0, 1, 300.0));

    // Resumed, it counts again.
    let resumed_arm = app
        .send(
            "POST",
            &pause_arm(arms[1].as_str()),
            Some(&token),
            json!({}),
        )
        .await;
    assert_eq!(resumed_arm.body["data"]["variants"][1]["paused"], false);
    impression(&app, &id, "v_ab_varresumed_1", b).await;
    let data = results(&app, &token, &id, &test_id).await;
    assert_eq!(counts(&data["variants"][1]).0, 2);
}

#[tokio::test]
async fn a_conversation_greets_and_checks_forms_as_its_variant() {
    let app = spawn_app().await;
    let (token, id) = owner_with_campaign(&app, "ab-greeting@example.in").await;
    let t = Some(token.as_str());
    // The campaign's own lead form asks for an email only.
    let mut current = app.get(&format!("/api/campaigns/{id}"), t).await.body["campaign"].clone();
    current["settings"]["aiSettings"]["initialMessage"] = json!("Namaste! Need help?");
    current["settings"]["forms"]["conversionForms"] = json!([{
        "id": "lead", "name": "Lead", "type": "custom", "title": "Stay in touch", "buttonText": "Send",
        "successMessage": "Thanks!", "isDefault": true, "active": true,
        "fields": [{"name": "email", "label": "Email", "type": "email", "required": true}]
    }]);
    let saved = app
        .send("PUT", &format!("/api/campaigns/{id}"), t, current)
        .await;
    assert_eq!(saved.status, 200, "{}", saved.body);
    // The variant greets differently and its lead form also needs a phone.
    let body = json!({
        "name": "Greeting and form",
        "metric": "conversionRate",
        "variants": [
            {"name": "Control", "weight": 50, "overrides": {}},
            {"name": "Phone", "weight": 50, "overrides": {
                "aiSettings": {"initialMessage": "Ruko! Aaj 10% off hai."},
                "forms": {"conversionForms": [{
                    "id": "lead", "name": "Lead", "type": "custom", "title": "Get a call back", "buttonText": "Call me",
                    "successMessage": "We will call you!", "isDefault": true, "active": true,
                    "fields": [
                        {"name": "email", "label": "Email", "type": "email", "required": true},
                        {"name": "phone", "label": "Phone", "type": "phone", "required": true}
                    ]
                }]}
            }}
        ]
    });
    let (test_id, arms) = start_test(&app, &token, &id, body).await;

    let (chat_a, greeting_a) = start_chat(&app, &id, "v_ab_greet_a", json!(arms[0])).await;
    let (chat_b, greeting_b) = start_chat(&app, &id, "v_ab_greet_b", json!(arms[1])).await;
    assert_eq!(greeting_a, "Namaste! Need help?");
    assert_eq!(greeting_b, "Ruko! Aaj 10% off hai.");

    let form = |chat: &str| format!("/api/widget/conversations/{chat}/forms");
    let email_only = json!({"formId": "lead", "values": {"email": "meera@example.in"}});
    let ok = app.post(&form(&chat_a), email_only.clone()).await;
    assert_eq!(ok.status, 200, "{}", ok.body);
    assert_eq!(ok.body["message"], "Thanks!");
    let refused = app.post(&form(&chat_b), email_only).await;
    assert_eq!(refused.status, 400, "{}", refused.body);
    assert!(
        refused.body["errors"]["phone"].is_array(),
        "{}",
        refused.body
    );
    let data = results(&app, &token, &id, &test_id).await;
    assert_eq!(data["variants"][1]["leads"], 0);
    let ok = app
        .post(
            &form(&chat_b),
            json!({"formId": "lead", "values": {"email": "ravi@example.in", "phone": "+91 98765 43210"}}),
        )
        .await;
    assert_eq!(ok.status, 200, "{}", ok.body);
    assert_eq!(ok.body["message"], "We will call you!");
    let data = results(&app, &token, &id, &test_id).await;
    assert_eq!(data["variants"][0]["leads"], 1);
    assert_eq!(data["variants"][1]["leads"], 1);
    assert_eq!(data["variants"][1]["conversations"], 1);
}

#[tokio::test]
async fn a_batch_of_impressions_is_counted_per_variant_and_day() {
    use ca_tracking::event::{Arm, Event, Kind};
    let app = spawn_app().await;
    let (token, id) = owner_with_campaign(&app, "ab-batch@example.in").await;
    let (test_id, arms) = start_test(&app, &token, &id, two_arms()).await;
    let owner = owner_of(&app, &id).await;
    let today = chrono::Utc::now();
    let yesterday = today - chrono::Duration::days(1);
    let arm = |i: usize| Arm {
        test_id: test_id.clone(),
        variant_id: arms[i].clone(),
    };
    let ev = |n: usize, i: Option<usize>, at| Event {
        kind: Kind::Impression,
        owner_id: owner.clone(),
        campaign_id: id.clone(),
        visitor_id: format!("v_ab_batch_{n}"),
        at,
        counts_visitor: true,
        arm: i.map(arm),
    };
    // One batch: the variant 4 times today and twice yesterday (visitor 0
    // both days), the control twice today by one visitor, one impression
    // outside the test.
    let mut batch: Vec<Event> = (0..4).map(|n| ev(n, Some(1), today)).collect();
    batch.push(ev(4, Some(1), yesterday));
    batch.push(ev(0, Some(1), yesterday));
    batch.push(ev(5, Some(0), today));
    batch.push(ev(5, Some(0), today));
    batch.push(ev(7, None, today));
    ca_tracking::writer::write(&app.db.conn, &batch)
        .await
        .unwrap();
    let data = results(&app, &token, &id, &test_id).await;
    let v = &data["variants"];
    assert_eq!(
        (&v[0]["visitors"], &v[0]["impressions"]),
        (&json!(1), &json!(2))
    );
    assert_eq!(
        (&v[1]["visitors"], &v[1]["impressions"]),
        (&json!(5), &json!(6))
    );
    // (day, visitors first seen that day, impressions)
    let days = |v: &Value| -> Vec<(String, i64, i64)> {
        v["daily"]
            .as_array()
            .unwrap()
            .iter()
            .map(|d| {
                (
                    d["day"].as_str().unwrap().to_string(),
                    d["visitors"].as_i64().unwrap(),
                    d["impressions"].as_i64().unwrap(),
                )
            })
            .collect()
    };
    let (y, t) = (
        yesterday.date_naive().to_string(),
        today.date_naive().to_string(),
    );
    assert_eq!(days(&v[1]), [(y.clone(), 2, 2), (t.clone(), 3, 4)]);

    // A later batch: visitors already counted add impressions only; one new
    // visitor counts.
    let mut later: Vec<Event> = (0..3).map(|n| ev(n, Some(1), today)).collect();
    later.push(ev(8, Some(1), today));
    ca_tracking::writer::write(&app.db.conn, &later)
        .await
        .unwrap();
    let data = results(&app, &token, &id, &test_id).await;
    let v = &data["variants"];
    assert_eq!(
        (&v[1]["visitors"], &v[1]["impressions"]),
        (&json!(6), &json!(10))
    );
    assert_eq!(days(&v[1]), [(y, 2, 2), (t, 4, 8)]);
}

/// A test counts visitors, not impressions: one visitor's many impressions
/// count once (also when two servers store them at the same moment), the
/// rates are per visitor, and the test's next version counts the same
/// visitor again.
#[tokio::test]
async fn a_visitor_counts_once_however_often_they_see_the_popup() {
    use ca_tracking::event::{Arm, Event, Kind};
    let app = spawn_app().await;
    let (token, id) = owner_with_campaign(&app, "ab-once@example.in").await;
    let (test_id, arms) = start_test(&app, &token, &id, two_arms()).await;
    let (a, b) = (json!(arms[0]), json!(arms[1]));
    // Through the widget: one control visitor sees the popup on 4 pages and
    // leaves a lead; another sees it once. One variant visitor, twice.
    for _ in 0..4 {
        impression(&app, &id, "v_ab_once_a1", a.clone()).await;
    }
    impression(&app, &id, "v_ab_once_a2", a.clone()).await;
    impression(&app, &id, "v_ab_once_b1", b.clone()).await;
    impression(&app, &id, "v_ab_once_b1", b.clone()).await;
    app.events.flush().await;
    let (chat, _) = start_chat(&app, &id, "v_ab_once_a1", a.clone()).await;
    let r = app
        .post(
            &format!("/api/widget/conversations/{chat}/forms"),
            json!({"values": {"email": "once@example.in"}}),
        )
        .await;
    assert_eq!(r.status, 200, "{}", r.body);
    let data = results(&app, &token, &id, &test_id).await;
    let v = &data["variants"];
    assert_eq!(
        (&v[0]["visitors"], &v[0]["impressions"]),
        (&json!(2), &json!(5))
    );
    assert_eq!(
        (&v[1]["visitors"], &v[1]["impressions"]),
        (&json!(1), &json!(2))
    );
    // One lead from two visitors: 50 %, not one in five impressions.
    assert_eq!(v[0]["conversionRate"], 50.0, "{v}");

    // Two servers store impressions of the same new visitors at once: each
    // visitor still counts once.
    let owner = owner_of(&app, &id).await;
    let batch: Vec<Event> = (0..20)
        .map(|n| Event {
            kind: Kind::Impression,
            owner_id: owner.clone(),
            campaign_id: id.clone(),
            visitor_id: format!("v_ab_once_race_{n}"),
            at: chrono::Utc::now(),
            counts_visitor: true,
            arm: Some(Arm {
                test_id: test_id.clone(),
                variant_id: arms[1].clone(),
            }),
        })
        .collect();
    let (one, two) = tokio::join!(
        ca_tracking::writer::write(&app.db.conn, &batch),
        ca_tracking::writer::write(&app.db.conn, &batch)
    );
    one.unwrap();
    two.unwrap();
    let data = results(&app, &token, &id, &test_id).await;
    let v = &data["variants"];
    assert_eq!(
        (&v[1]["visitors"], &v[1]["impressions"]),
        (&json!(21), &json!(42))
    );

    // The next version of the test counts its visitors afresh.
    let mut second = two_arms();
    second["name"] = json!("Second look");
    let next = app
        .send(
            "POST",
            &format!("/api/campaigns/{id}/tests/{test_id}/versions"),
            Some(&token),
            second,
        )
        .await;
    assert_eq!(next.status, 201, "{}", next.body);
    let next_id = next.body["data"]["id"].as_str().unwrap().to_string();
    assert_ne!(next_id, test_id);
    let next_arm = next.body["data"]["variants"][0]["id"].clone();
    impression(&app, &id, "v_ab_once_a1", next_arm).await;
    app.events.flush().await;
    let data = results(&app, &token, &id, &next_id).await;
    assert_eq!(data["variants"][0]["visitors"], 1, "{data}");

    // A day after the first version closed, its visitor list is forgotten;
    // its figures stay, and the running version keeps its list.
    let exposures = |test: String| {
        use ca_experiments::entities::exposure as e;
        use sea_orm::{ColumnTrait, EntityTrait, PaginatorTrait, QueryFilter};
        let conn = app.db.conn.clone();
        async move {
            e::Entity::find()
                .filter(e::Column::TestId.eq(test))
                .count(&conn)
                .await
                .unwrap()
        }
    };
    let now = chrono::Utc::now();
    assert_eq!(
        ca_experiments::retention::forget_closed(&app.db.conn, now)
            .await
            .unwrap(),
        0
    );
    assert_eq!(exposures(test_id.clone()).await, 23);
    let forgotten =
        ca_experiments::retention::forget_closed(&app.db.conn, now + chrono::Duration::days(2))
            .await
            .unwrap();
    assert_eq!(forgotten, 23);
    assert_eq!(exposures(test_id.clone()).await, 0);
    assert_eq!(exposures(next_id.clone()).await, 1);
    let data = results(&app, &token, &id, &test_id).await;
    assert_eq!(data["variants"][1]["visitors"], 21, "{data}");
}

/// A test counts leads and revenue per visitor, as it counts visitors: a
/// visitor who leaves their email in two chats is one lead of one visitor;
/// a visitor whose lead comes before their impression is stored counts as a
/// visitor then, and not again; a visitor's two orders make one visitor's
/// revenue, so its spread is taken over that total.
#[tokio::test]
async fn a_visitor_leads_and_buys_once_as_far_as_the_test_counts() {
    use ca_experiments::entities::count;
    use sea_orm::{ColumnTrait, EntityTrait, QueryFilter};
    let app = spawn_app().await;
    let (token, id) = owner_with_campaign(&app, "ab-per-visitor@example.in").await;
    let (test_id, arms) = start_test(&app, &token, &id, two_arms()).await;
    let a = json!(arms[0]);
    impression(&app, &id, "v_ab_pv_a1", a.clone()).await;
    impression(&app, &id, "v_ab_pv_a2", a.clone()).await;
    for (n, email) in ["first@example.in", "second@example.in"].iter().enumerate() {
        let (chat, _) = start_chat(&app, &id, "v_ab_pv_a1", a.clone()).await;
        let r = app
            .post(
                &format!("/api/widget/conversations/{chat}/forms"),
                json!({"values": {"email": email}}),
            )
            .await;
        assert_eq!(r.status, 200, "chat {n}: {}", r.body);
    }
    let data = results(&app, &token, &id, &test_id).await;
    let v = &data["variants"][0];
    assert_eq!((&v["visitors"], &v["leads"]), (&json!(2), &json!(1)), "{v}");
    assert_eq!(v["conversionRate"], 50.0, "{v}");

    // A lead whose impression is not stored yet: the visitor counts now,
    // and their impression later adds an impression only.
    let (chat, _) = start_chat(&app, &id, "v_ab_pv_a3", a.clone()).await;
    let r = app
        .post(
            &format!("/api/widget/conversations/{chat}/forms"),
            json!({"values": {"email": "early@example.in"}}),
        )
        .await;
    assert_eq!(r.status, 200, "{}", r.body);
    impression(&app, &id, "v_ab_pv_a3", a.clone()).await;
    let data = results(&app, &token, &id, &test_id).await;
    let v = &data["variants"][0];
    assert_eq!(
        (&v["visitors"], &v["impressions"], &v["leads"]),
        (&json!(3), &json!(3), &json!(2)),
        "{v}"
    );

    // Two orders of ₹100 by one visitor and one of ₹100 by another: the
    // sum of squares is over visitors' totals, 200² + 100².
    purchase(&app, &id, "v_ab_pv_a1", "PV-1", 100.0, a.clone()).await;
    purchase(&app, &id, "v_ab_pv_a1", "PV-2", 100.0, a.clone()).await;
    purchase(&app, &id, "v_ab_pv_a2", "PV-3", 100.0, a.clone()).await;
    let squares: f64 = count::Entity::find()
        .filter(count::Column::VariantId.eq(&arms[0]))
        .all(&app.db.conn)
        .await
        .unwrap()
        .iter()
        .map(|c| c.revenue_squares)
        .sum();
    assert!((squares - 50_000.0).abs() < 1e-6, "{squares}");
    let data = results(&app, &token, &id, &test_id).await;
    let v = &data["variants"][0];
    assert_eq!(
        (&v["purchases"], &v["revenue"]),
        (&json!(3), &json!(300.0)),
        "{v}"
    );
}

/// Editing the variants of an open test starts its next version in one
/// step: the edited test closes with no decision and keeps its own counts,
/// the new version counts from zero under a new id (the widget assigns
/// every visitor again, and the old version's variant ids count for
/// nothing), a refused edit changes nothing, and a closed test cannot be
/// edited.
#[tokio::test]
async fn editing_variants_starts_a_new_version_and_never_mixes_results() {
    let app = spawn_app().await;
    let (token, id) = owner_with_campaign(&app, "ab-versions@example.in").await;
    let (other_token, _) = owner_with_campaign(&app, "ab-versions-other@example.in").await;
    let t = Some(token.as_str());
    let (v1, arms1) = start_test(&app, &token, &id, two_arms()).await;
    for n in 0..3 {
        impression(&app, &id, &format!("v_ver_a_{n}"), json!(arms1[0])).await;
    }
    for n in 0..2 {
        impression(&app, &id, &format!("v_ver_b_{n}"), json!(arms1[1])).await;
    }
    start_chat(&app, &id, "v_ver_b_0", json!(arms1[1])).await;
    let versions = format!("/api/campaigns/{id}/tests/{v1}/versions");
    let edited = json!({
        "name": "Headline, calmer",
        "metric": "revenuePerVisitor",
        "maxDays": 21,
        "variants": [
            {"name": "Control", "weight": 40, "overrides": {}},
            {"name": "Calm", "weight": 30, "overrides": {"popup": {"title": "Before you go: 10% off"}}},
            {"name": "Green", "weight": 30, "overrides": {"popup": {"design": {"primaryColor": "#1a7f37"}}}}
        ]
    });

    // Refused edits change nothing: weights that do not add up, a setting a
    // test cannot change, another owner's test, a test that does not exist.
    let mut bad = edited.clone();
    bad["variants"][0]["weight"] = json!(50);
    let r = app.send("POST", &versions, t, bad).await;
    assert_eq!(r.status, 400, "{}", r.body);
    let mut bad = edited.clone();
    bad["variants"][1]["overrides"] = json!({"websiteUrl": "https://elsewhere.example.in"});
    let r = app.send("POST", &versions, t, bad).await;
    assert_eq!(r.status, 400, "{}", r.body);
    let r = app
        .send("POST", &versions, Some(&other_token), edited.clone())
        .await;
    assert_eq!(r.status, 404, "{}", r.body);
    let r = app
        .send(
            "POST",
            &format!("/api/campaigns/{id}/tests/no-such-test/versions"),
            t,
            edited.clone(),
        )
        .await;
    assert_eq!(r.status, 404, "{}", r.body);
    let list = app.get(&format!("/api/campaigns/{id}/tests"), t).await;
    assert_eq!(list.body["data"].as_array().unwrap().len(), 1);
    let old = results(&app, &token, &id, &v1).await;
    assert_eq!(old["status"], "running");
    assert!(old["replacedBy"].is_null());

    // The edit: version 2 runs from zero with the edited arms.
    let r = app.send("POST", &versions, t, edited.clone()).await;
    assert_eq!(r.status, 201, "{}", r.body);
    let v2 = r.body["data"]["id"].as_str().unwrap().to_string();
    assert_ne!(v2, v1);
    let new = &r.body["data"];
    assert_eq!(new["version"], 2);
    assert_eq!(new["status"], "running");
    assert_eq!(new["name"], "Headline, calmer");
    assert_eq!(new["metric"], "revenuePerVisitor");
    assert_eq!(new["maxDays"], 21);
    assert!(new["decision"].is_null());
    let names: Vec<&str> = new["variants"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["Control", "Calm", "Green"]);
    let arms2: Vec<String> = new["variants"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v["id"].as_str().unwrap().to_string())
        .collect();
    assert!(arms2.iter().all(|a| !arms1.contains(a)));
    for arm in new["variants"].as_array().unwrap() {
        assert_eq!(counts(arm), (0, 0, 0, 0, 0.0), "{arm}");
    }

    // Version 1 is closed with no decision, names its successor and keeps
    // its own counts.
    let old = results(&app, &token, &id, &v1).await;
    assert_eq!(old["status"], "closed");
    assert_eq!(old["state"], "closed");
    assert_eq!(old["replacedBy"], v2.as_str());
    assert!(old["decision"].is_null(), "{}", old["decision"]);
    assert!(old["closedAt"].is_string());
    assert_eq!(counts(&old["variants"][0]).0, 3);
    assert_eq!(counts(&old["variants"][1]).0, 2);
    assert_eq!(counts(&old["variants"][1]).1, 1);

    // The widget carries version 2 and its arms; the campaign is unchanged.
    let config = app
        .get(&format!("/api/widget/campaigns/{id}/config"), None)
        .await;
    let test = &config.body["campaign"]["test"];
    assert_eq!(test["id"], v2.as_str());
    assert_eq!(test["variants"][1]["id"], arms2[1].as_str());
    assert_eq!(test["variants"][1]["weight"], 30);
    assert_eq!(
        test["variants"][1]["overrides"],
        json!({"popup": {"title": "Before you go: 10% off"}})
    );
    assert_eq!(
        config.body["campaign"]["popup"]["title"],
        "Wait! Before you go..."
    );

    // A visitor still reporting a version-1 variant counts for neither
    // version; version 2's arms count on version 2 only.
    impression(&app, &id, "v_ver_late", json!(arms1[1])).await;
    impression(&app, &id, "v_ver_new", json!(arms2[2])).await;
    let old = results(&app, &token, &id, &v1).await;
    assert_eq!(counts(&old["variants"][1]).0, 2);
    let new = results(&app, &token, &id, &v2).await;
    assert_eq!(counts(&new["variants"][1]).0, 0);
    assert_eq!(counts(&new["variants"][2]).0, 1);

    // The closed version can be neither edited again nor promoted.
    let again = app.send("POST", &versions, t, edited.clone()).await;
    assert_eq!(again.status, 422, "{}", again.body);
    assert_eq!(again.body["code"], "test_closed");
    let promote = app
        .send(
            "POST",
            &format!("/api/campaigns/{id}/tests/{v1}/promote"),
            t,
            json!({"variantId": arms1[1]}),
        )
        .await;
    assert_eq!(promote.body["code"], "test_closed");

    // A paused test is edited the same way; its next version runs.
    let paused = app
        .send(
            "POST",
            &format!("/api/campaigns/{id}/tests/{v2}/pause"),
            t,
            json!({}),
        )
        .await;
    assert_eq!(paused.body["data"]["status"], "paused");
    let r = app
        .send(
            "POST",
            &format!("/api/campaigns/{id}/tests/{v2}/versions"),
            t,
            two_arms(),
        )
        .await;
    assert_eq!(r.status, 201, "{}", r.body);
    let v3 = r.body["data"]["id"].as_str().unwrap().to_string();
    assert_eq!(r.body["data"]["version"], 3);
    assert_eq!(r.body["data"]["status"], "running");
    let list = app.get(&format!("/api/campaigns/{id}/tests"), t).await;
    let listed: Vec<(String, i64, String)> = list.body["data"]
        .as_array()
        .unwrap()
        .iter()
        .map(|x| {
            (
                x["id"].as_str().unwrap().to_string(),
                x["version"].as_i64().unwrap(),
                x["status"].as_str().unwrap().to_string(),
            )
        })
        .collect();
    assert_eq!(
        listed,
        [
            (v3.clone(), 3, "running".to_string()),
            (v2.clone(), 2, "closed".to_string()),
            (v1.clone(), 1, "closed".to_string()),
        ]
    );
    let second = results(&app, &token, &id, &v2).await;
    assert_eq!(second["replacedBy"], v3.as_str());
    assert_eq!(counts(&second["variants"][2]).0, 1);
}
