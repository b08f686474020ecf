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
                impressions: 100,
                leads: 4,
                ..Tally::default()
            },
        ),
        (
            a,
            day,
            Tally {
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
