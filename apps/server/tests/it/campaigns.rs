//! The nine campaign calls: success, validation bounds, limits and owner isolation.

use sea_orm::sea_query::Expr;
use sea_orm::{ColumnTrait, EntityTrait, QueryFilter};
use serde_json::{Value, json};

use crate::billing::campaign;
use crate::helpers::spawn_app;

#[tokio::test]
async fn create_read_update_toggle_and_delete() {
    let app = spawn_app().await;
    let (token, _) = app.register("crud@example.in", "secret1").await;
    let t = Some(token.as_str());
    let created = app
        .send(
            "POST",
            "/api/campaigns",
            t,
            json!({"name": " Diwali exit offer ", "websiteUrl": "https://shop.example.in", "settings": {"exitIntent": {"sensitivity": "high"}}}),
        )
        .await;
    assert_eq!(created.status, 201, "{}", created.body);
    let c = &created.body["campaign"];
    let id = c["_id"].as_str().expect("id").to_string();
    assert_eq!(c["name"], "Diwali exit offer");
    assert_eq!(c["isActive"], true);
    assert_eq!(
        c["analytics"],
        json!({"impressions": 0, "conversions": 0, "conversionRate": 0.0, "revenue": 0.0, "lastConversionAt": null, "firstPageViewAt": null})
    );
    let s = &c["settings"];
    assert_eq!(
        s["exitIntent"],
        json!({"enabled": true, "sensitivity": "high", "delay": 1000, "cooldown": 60})
    );
    assert_eq!(
        s["targeting"]["devices"],
        json!(["desktop", "mobile", "tablet"])
    );
    assert_eq!(s["targeting"]["minTimeOnPage"], 30);
    assert_eq!(s["targeting"]["maxDisplaysPerSession"], 3);
    assert_eq!(s["targeting"]["cooldownMinutes"], 60);
    assert_eq!(s["popup"]["title"], "Wait! Before you go...");
    assert_eq!(s["popup"]["design"]["borderRadius"], 12);
    assert_eq!(s["popup"]["design"]["primaryColor"], "#ff6b6b");
    assert_eq!(
        s["popup"]["design"]["trustBadges"][1]["text"],
        "Instant Help"
    );
    assert_eq!(
        s["forms"]["formDisplayRules"],
        json!({"minMessagesBeforeForm": 3, "maxFormsPerConversation": 2, "cooldownBetweenForms": 5})
    );

    let list = app.get("/api/campaigns", t).await;
    assert_eq!(list.body["campaigns"][0]["_id"], id.as_str());
    let one = app.get(&format!("/api/campaigns/{id}"), t).await;
    assert_eq!(one.body["campaign"]["name"], "Diwali exit offer");

    // PUT sends the whole merged campaign, including fields the server owns.
    let mut merged = one.body["campaign"].clone();
    merged["name"] = json!("Renamed");
    merged["analytics"]["impressions"] = json!(999);
    merged["settings"]["aiSettings"]["initialMessage"] = json!("Namaste! Need help choosing?");
    merged["settings"]["targeting"]["includePages"] =
        json!(["/products/*", "  ", "https://shop.example.in/sale"]);
    merged["settings"]["forms"]["conversionForms"] = json!([
        {"id": "f1", "name": "Coupon", "type": "coupon", "fields": [{"name": "email", "label": "Email", "type": "email", "required": true}], "triggerKeywords": "discount, coupon", "active": true},
        {"id": "f2", "name": "Demo", "type": "demo", "fields": [{"name": "email", "type": "email", "required": true}], "triggerKeywords": ["demo"], "active": true}
    ]);
    let saved = app
        .send("PUT", &format!("/api/campaigns/{id}"), t, merged)
        .await;
    assert_eq!(saved.status, 200, "{}", saved.body);
    let c = &saved.body["campaign"];
    assert_eq!(c["name"], "Renamed");
    assert_eq!(
        c["analytics"]["impressions"], 0,
        "counters are not client-writable"
    );
    assert_eq!(
        c["settings"]["aiSettings"]["initialMessage"],
        "Namaste! Need help choosing?"
    );
    assert_eq!(
        c["settings"]["targeting"]["includePages"],
        json!(["/products/*", "https://shop.example.in/sale"])
    );
    let forms = &c["settings"]["forms"]["conversionForms"];
    assert_eq!(
        forms[0]["isDefault"], true,
        "the first form becomes the default"
    );
    assert_eq!(forms[1]["isDefault"], false);
    assert_eq!(forms[0]["triggerKeywords"], json!(["discount", "coupon"]));

    let toggled = app
        .send(
            "PATCH",
            &format!("/api/campaigns/{id}/toggle"),
            t,
            json!({}),
        )
        .await;
    assert_eq!(toggled.body["campaign"]["isActive"], false);
    let toggled = app
        .send(
            "PATCH",
            &format!("/api/campaigns/{id}/toggle"),
            t,
            json!({}),
        )
        .await;
    assert_eq!(toggled.body["campaign"]["isActive"], true);

    let script = app
        .get(&format!("/api/campaigns/{id}/widget-script"), t)
        .await;
    assert_eq!(
        script.body["script"],
        format!(
            "<script src=\"{b}/widget/ca-widget.js\" data-campaign-id=\"{id}\" data-api-url=\"{b}\" async defer></script>",
            b = app.base
        )
    );
    let conv = app
        .get(&format!("/api/campaigns/{id}/conversion-script"), t)
        .await;
    let content = conv.body["scriptContent"].as_str().expect("scriptContent");
    assert!(content.contains("caTrack('purchase'") && content.contains(&id));

    let deleted = app
        .send("DELETE", &format!("/api/campaigns/{id}"), t, json!({}))
        .await;
    assert_eq!(deleted.status, 200);
    app.get(&format!("/api/campaigns/{id}"), t)
        .await
        .error(404, "campaign_not_found");
    let list = app.get("/api/campaigns", t).await;
    assert_eq!(list.body["campaigns"], json!([]));
    assert_eq!(list.body["usage"]["campaigns"]["current"], 0);
}

#[tokio::test]
async fn defaults_are_what_a_new_campaign_gets() {
    let app = spawn_app().await;
    let (token, _) = app.register("defaults@example.in", "secret1").await;
    let defaults = app.get("/api/campaigns/defaults", Some(&token)).await;
    assert_eq!(defaults.status, 200);
    let created = app
        .send("POST", "/api/campaigns", Some(&token), campaign("Plain"))
        .await;
    assert_eq!(
        defaults.body["settings"],
        created.body["campaign"]["settings"]
    );
    app.get("/api/campaigns/defaults", None)
        .await
        .error(401, "missing_token");
}

#[tokio::test]
async fn analytics_are_real_sums_with_rounding() {
    use ca_campaigns::entities::campaign as c;
    let app = spawn_app().await;
    let (token, _) = app.register("numbers@example.in", "secret1").await;
    let created = app
        .send("POST", "/api/campaigns", Some(&token), campaign("Counted"))
        .await;
    let id = created.body["campaign"]["_id"]
        .as_str()
        .expect("id")
        .to_string();
    c::Entity::update_many()
        .col_expr(c::Column::Impressions, Expr::value(3i64))
        .col_expr(c::Column::Conversions, Expr::value(1i64))
        .col_expr(c::Column::RevenuePaise, Expr::value(149_950i64))
        .filter(c::Column::Id.eq(&id))
        .exec(&app.db.conn)
        .await
        .expect("seed counters");
    let a = app
        .get(&format!("/api/campaigns/{id}/analytics"), Some(&token))
        .await;
    assert_eq!(
        a.body["analytics"],
        json!({"impressions": 3, "conversions": 1, "conversionRate": 33.33, "revenue": 1499.5, "lastConversionAt": null, "firstPageViewAt": null})
    );
}

#[tokio::test]
async fn every_bound_is_checked_and_a_refused_save_changes_nothing() {
    let app = spawn_app().await;
    let (token, _) = app.register("bounds@example.in", "secret1").await;
    let t = Some(token.as_str());
    let created = app
        .send("POST", "/api/campaigns", t, campaign("Bounds"))
        .await;
    let id = created.body["campaign"]["_id"]
        .as_str()
        .expect("id")
        .to_string();
    let long = |n: usize| json!("x".repeat(n));
    let cases: Vec<(&str, Value, &str, &str)> = vec![
        ("/name", json!(""), "name", "Campaign name is required"),
        (
            "/websiteUrl",
            json!(""),
            "websiteUrl",
            "Website URL is required",
        ),
        (
            "/websiteUrl",
            json!("shop dot com"),
            "websiteUrl",
            "valid website URL",
        ),
        (
            "/websiteUrl",
            json!("javascript:alert(1)"),
            "websiteUrl",
            "valid website URL",
        ),
        (
            "/settings/exitIntent/delay",
            json!(-1),
            "settings.exitIntent.delay",
            "at least 0",
        ),
        (
            "/settings/exitIntent/cooldown",
            json!(0),
            "settings.exitIntent.cooldown",
            "at least 1",
        ),
        (
            "/settings/exitIntent/sensitivity",
            json!("extreme"),
            "settings.exitIntent.sensitivity",
            "low, medium, high",
        ),
        (
            "/settings/targeting/minTimeOnPage",
            json!(-5),
            "settings.targeting.minTimeOnPage",
            "at least 0",
        ),
        (
            "/settings/targeting/maxDisplaysPerSession",
            json!(0),
            "settings.targeting.maxDisplaysPerSession",
            "at least 1",
        ),
        (
            "/settings/targeting/cooldownMinutes",
            json!(0),
            "settings.targeting.cooldownMinutes",
            "at least 1",
        ),
        (
            "/settings/targeting/devices",
            json!([]),
            "settings.targeting.devices",
            "at least one device",
        ),
        (
            "/settings/targeting/devices",
            json!(["watch"]),
            "settings.targeting.devices",
            "Unknown device",
        ),
        (
            "/settings/targeting/excludePages",
            json!(["not a url"]),
            "settings.targeting.excludePages",
            "not a page URL",
        ),
        (
            "/settings/forms/formDisplayRules/minMessagesBeforeForm",
            json!(-1),
            "settings.forms.formDisplayRules.minMessagesBeforeForm",
            "at least 0",
        ),
        (
            "/settings/forms/formDisplayRules/maxFormsPerConversation",
            json!(0),
            "settings.forms.formDisplayRules.maxFormsPerConversation",
            "at least 1",
        ),
        (
            "/settings/forms/formDisplayRules/cooldownBetweenForms",
            json!(-1),
            "settings.forms.formDisplayRules.cooldownBetweenForms",
            "at least 0",
        ),
        (
            "/settings/aiSettings/initialMessage",
            long(1001),
            "settings.aiSettings.initialMessage",
            "at most 1000",
        ),
        (
            "/settings/aiSettings/knowledgeBase",
            long(10_001),
            "settings.aiSettings.knowledgeBase",
            "at most 10000",
        ),
        (
            "/settings/aiSettings/businessInfo",
            long(2001),
            "settings.aiSettings.businessInfo",
            "at most 2000",
        ),
        (
            "/settings/aiSettings/customInstructions",
            long(1001),
            "settings.aiSettings.customInstructions",
            "at most 1000",
        ),
        (
            "/settings/popup/design/borderRadius",
            json!(33),
            "settings.popup.design.borderRadius",
            "at most 32",
        ),
        (
            "/settings/popup/design/popupSize",
            json!("huge"),
            "settings.popup.design.popupSize",
            "small, medium, large",
        ),
        (
            "/settings/popup/design/fontFamily",
            json!("Comic Sans"),
            "settings.popup.design.fontFamily",
            "Inter",
        ),
        (
            "/settings/popup/design/primaryColor",
            json!("red"),
            "settings.popup.design.primaryColor",
            "hex colour",
        ),
        (
            "/settings/forms/conversionForms",
            json!([
                {"name": "A", "isDefault": true, "fields": [{"name": "email", "type": "email"}]},
                {"name": "B", "isDefault": true, "fields": [{"name": "email", "type": "email"}]}
            ]),
            "settings.forms.conversionForms",
            "Only one conversion form can be the default",
        ),
        (
            "/settings/forms/conversionForms",
            json!([{"name": "A", "fields": [{"name": "email", "type": "fax"}]}]),
            "settings.forms.conversionForms.0.fields.0.type",
            "email, text, phone",
        ),
    ];
    // The exact limits themselves are accepted.
    let mut edge = app.get(&format!("/api/campaigns/{id}"), t).await.body["campaign"].clone();
    edge["settings"]["aiSettings"]["knowledgeBase"] = long(10_000);
    edge["settings"]["exitIntent"]["delay"] = json!(0);
    edge["settings"]["popup"]["design"]["borderRadius"] = json!(32);
    let ok = app
        .send("PUT", &format!("/api/campaigns/{id}"), t, edge)
        .await;
    assert_eq!(ok.status, 200, "{}", ok.body);
    let before = app.get(&format!("/api/campaigns/{id}"), t).await.body["campaign"].clone();

    for (pointer, value, field, message) in cases {
        let mut body = before.clone();
        *body.pointer_mut(pointer).expect(pointer) = value;
        let put = app
            .send("PUT", &format!("/api/campaigns/{id}"), t, body.clone())
            .await;
        put.error(400, "validation_failed");
        let msgs = put.body["errors"][field].to_string();
        assert!(msgs.contains(message), "{pointer}: {msgs} / {}", put.body);
        let post = app.send("POST", "/api/campaigns", t, body).await;
        assert_eq!(post.status, 400, "{pointer}: {}", post.body);
    }
    let after = app.get(&format!("/api/campaigns/{id}"), t).await.body["campaign"].clone();
    assert_eq!(before, after);
}

#[tokio::test]
async fn a_trial_owner_gets_one_campaign() {
    let app = spawn_app().await;
    let (token, _) = app.register("trial-limit@example.in", "secret1").await;
    let first = app
        .send("POST", "/api/campaigns", Some(&token), campaign("One"))
        .await;
    assert_eq!(first.status, 201);
    let second = app
        .send("POST", "/api/campaigns", Some(&token), campaign("Two"))
        .await;
    assert_eq!(
        second.error(403, "plan_limit_reached"),
        "You've reached your free plan limit. Upgrade to create more campaigns."
    );
    assert_eq!(second.body["isFreePlan"], true);
    assert_eq!(second.body["limit"], 1);
}

#[tokio::test]
async fn another_owners_campaign_is_a_404_on_every_route() {
    let app = spawn_app().await;
    let (a, _) = app.register("owner-a@example.in", "secret1").await;
    let (b, _) = app.register("owner-b@example.in", "secret1").await;
    let created = app
        .send("POST", "/api/campaigns", Some(&a), campaign("A's"))
        .await;
    let id = created.body["campaign"]["_id"]
        .as_str()
        .expect("id")
        .to_string();
    let original = app
        .get(&format!("/api/campaigns/{id}"), Some(&a))
        .await
        .body["campaign"]
        .clone();
    let routes = [
        ("GET", format!("/api/campaigns/{id}")),
        ("PUT", format!("/api/campaigns/{id}")),
        ("DELETE", format!("/api/campaigns/{id}")),
        ("PATCH", format!("/api/campaigns/{id}/toggle")),
        ("GET", format!("/api/campaigns/{id}/analytics")),
        ("GET", format!("/api/campaigns/{id}/widget-script")),
        ("GET", format!("/api/campaigns/{id}/conversion-script")),
    ];
    for (method, path) in &routes {
        let reply = app.send(method, path, Some(&b), campaign("Hijacked")).await;
        assert_eq!(
            reply.error(404, "campaign_not_found"),
            "Campaign not found",
            "{method} {path}"
        );
        let unauth = app.send(method, path, None, campaign("Hijacked")).await;
        unauth.error(401, "missing_token");
    }
    let missing = "00000000-0000-7000-8000-000000000000";
    app.get(&format!("/api/campaigns/{missing}"), Some(&a))
        .await
        .error(404, "campaign_not_found");
    let after = app
        .get(&format!("/api/campaigns/{id}"), Some(&a))
        .await
        .body["campaign"]
        .clone();
    assert_eq!(original, after);
    let b_list = app.get("/api/campaigns", Some(&b)).await;
    assert_eq!(b_list.body["campaigns"], json!([]));
}

/// Twenty campaigns created at once by one owner: each gets an answer (a new
/// campaign, or the plan limit), never a server error, and the limit holds.
#[tokio::test]
async fn concurrent_creations_keep_the_plan_limit_without_errors() {
    let app = crate::helpers::spawn_app().await;
    let (token, _) = app.register("parallel@example.in", "secret1").await;
    let usage = app.get("/api/billing/usage", Some(&token)).await;
    let limit = usage.body["data"]["campaigns"]["limit"]
        .as_i64()
        .unwrap_or_else(|| panic!("a campaign limit: {}", usage.body));
    let mut tasks = Vec::new();
    for i in 0..20 {
        let (client, url, token) = (app.client.clone(), app.url("/api/campaigns"), token.clone());
        tasks.push(tokio::spawn(async move {
            let r = client
                .post(url)
                .bearer_auth(token)
                .json(&json!({"name": format!("Parallel {i}"), "websiteUrl": "https://kesar.example.in"}))
                .send()
                .await
                .expect("send");
            let status = r.status().as_u16();
            let body: Value = r.json().await.unwrap_or(Value::Null);
            (status, body)
        }));
    }
    let mut created = 0;
    for t in tasks {
        let (status, body) = t.await.expect("join");
        match status {
            201 => created += 1,
            403 => assert_eq!(body["code"], "plan_limit_reached", "{body}"),
            other => panic!("{other}: {body}"),
        }
    }
    assert_eq!(created, limit);
    let listed = app.get("/api/campaigns", Some(&token)).await;
    assert_eq!(
        listed.body["campaigns"].as_array().map(Vec::len),
        Some(usize::try_from(limit).expect("limit"))
    );
}
