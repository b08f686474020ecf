//! Odd input gets the API's JSON errors, never a 500: NUL characters, wrong
//! methods, query strings that don't fit, oversized bodies.

use serde_json::{Value, json};

use crate::helpers::{Reply, spawn_app};

async fn raw(
    app: &crate::helpers::TestApp,
    method: &str,
    path: &str,
    token: Option<&str>,
    content_type: &str,
    body: &str,
) -> Reply {
    let method = reqwest::Method::from_bytes(method.as_bytes()).expect("method");
    let mut req = app
        .client
        .request(method, app.url(path))
        .header("content-type", content_type)
        .header("origin", "https://kesar.example.in")
        .body(body.to_string());
    if let Some(t) = token {
        req = req.bearer_auth(t);
    }
    Reply::from(req.send().await.expect("send")).await
}

/// A NUL in any text, where PostgreSQL would refuse to store it: a 400 that
/// says so, and nothing changes.
#[tokio::test]
async fn nul_characters_are_refused_everywhere() {
    let app = spawn_app().await;
    let (token, _) = app.register("nul@example.in", "secret1").await;
    let t = Some(token.as_str());
    let created = app
        .send(
            "POST",
            "/api/campaigns",
            t,
            json!({"name": "Kesar", "websiteUrl": "https://kesar.example.in"}),
        )
        .await;
    let id = created.body["campaign"]["_id"]
        .as_str()
        .expect("id")
        .to_string();
    let json_bodies: [(&str, String, Option<&str>, Value); 8] = [
        (
            "POST",
            "/api/auth/login".into(),
            None,
            json!({"email": "a\u{0}@x.com", "password": "x"}),
        ),
        (
            "POST",
            "/api/auth/register".into(),
            None,
            json!({"name": "N\u{0}", "email": "n2@example.in", "password": "secret1", "phone": "+91 9876543210"}),
        ),
        (
            "PUT",
            "/api/auth/me".into(),
            t,
            json!({"name": "Meera\u{0}"}),
        ),
        (
            "POST",
            "/api/campaigns".into(),
            t,
            json!({"name": "X\u{0}", "websiteUrl": "https://kesar.example.in"}),
        ),
        (
            "PUT",
            format!("/api/campaigns/{id}"),
            t,
            json!({"name": "Y\u{0}", "websiteUrl": "https://kesar.example.in"}),
        ),
        (
            "POST",
            "/api/widget/conversations".into(),
            None,
            json!({"campaignId": id, "visitorId": "v_nul\u{0}_visitor"}),
        ),
        (
            "POST",
            "/api/widget/events".into(),
            None,
            json!({"campaignId": id, "visitorId": "v_nul_visitor", "type": "page\u{0}view"}),
        ),
        (
            "POST",
            "/api/auth/forgot-password".into(),
            None,
            json!({"email": "\u{0}"}),
        ),
    ];
    for (method, path, token, body) in json_bodies {
        let r = app.send(method, &path, token, body).await;
        r.error(400, "invalid_character");
    }
    // The same, sent as the widget's text/plain beacon.
    raw(
        &app,
        "POST",
        "/api/widget/events",
        None,
        "text/plain;charset=UTF-8",
        &json!({"campaignId": id, "visitorId": "v_nul_visitor\u{0}", "type": "pageview"})
            .to_string(),
    )
    .await
    .error(400, "invalid_character");
    for path in [
        "/api/plans/a%00b".to_string(),
        "/api/conversations/user?search=%00".into(),
        "/api/customers/user?search=a%00".into(),
        format!("/api/widget/campaigns/{id}%00/config"),
    ] {
        app.get(&path, t).await.error(400, "invalid_character");
    }
    // An escaped backslash before "u0000" is ordinary text.
    let fine = app
        .send("PUT", "/api/auth/me", t, json!({"name": "Meera \\u0000"}))
        .await;
    assert_eq!(fine.status, 200, "{}", fine.body);
    let me = app.get("/api/auth/me", t).await;
    assert_eq!(me.body["user"]["name"], "Meera \\u0000", "{}", me.body);
    let campaign = app.get(&format!("/api/campaigns/{id}"), t).await;
    assert_eq!(campaign.body["campaign"]["name"], "Kesar");
}

/// Every error is JSON: a known path with a method it doesn't take is a 405
/// naming the methods it does, a query that doesn't fit is a 400, an
/// oversized body a 413.
#[tokio::test]
async fn wrong_methods_queries_and_sizes_get_json_errors() {
    let app = spawn_app().await;
    let (token, _) = app.register("methods@example.in", "secret1").await;
    let t = Some(token.as_str());
    for (method, path, allow) in [
        ("DELETE", "/api/auth/login", "POST"),
        ("POST", "/api/auth/me", "GET, PUT"),
        ("PUT", "/api/campaigns", "GET, POST"),
        ("GET", "/api/widget/events", "POST"),
        ("TRACE", "/healthz", "GET"),
        ("DELETE", "/readyz", "GET"),
        ("PATCH", "/api/conversations/user", "GET"),
        (
            "POST",
            "/api/campaigns/0193a0b4-0000-7000-8000-000000000000",
            "DELETE, GET, PUT",
        ),
    ] {
        let r = app.send(method, path, t, json!({})).await;
        r.error(405, "method_not_allowed");
        assert_eq!(
            r.headers.get("allow").and_then(|v| v.to_str().ok()),
            Some(allow),
            "{method} {path}"
        );
    }
    // Unknown paths stay a JSON 404.
    app.get("/api/nothing-here", t)
        .await
        .error(404, "not_found");

    let bad_query = app.get("/api/customers/user?page=abc", t).await;
    assert_eq!(bad_query.status, 400, "{}", bad_query.body);
    assert_eq!(bad_query.body["success"], false);

    let huge = "x".repeat(2 * 1024 * 1024);
    for (path, content_type) in [
        ("/api/widget/events", "text/plain;charset=UTF-8"),
        ("/api/auth/login", "application/json"),
    ] {
        let body = json!({"pad": huge}).to_string();
        raw(&app, "POST", path, None, content_type, &body)
            .await
            .error(413, "payload_too_large");
    }
}

/// JSON has one kind of number: a whole number written `5.0` or `5e0` is
/// accepted where the API takes whole numbers; `5.5` is still refused.
#[tokio::test]
async fn whole_numbers_written_as_decimals_are_whole_numbers() {
    let app = spawn_app().await;
    let (token, _) = app.register("whole@example.in", "secret1").await;
    let t = Some(token.as_str());
    let created = app
        .send(
            "POST",
            "/api/campaigns",
            t,
            json!({"name": "Kesar", "websiteUrl": "https://kesar.example.in",
                   "settings": {"exitIntent": {"delay": 5.0, "cooldown": 3e1}}}),
        )
        .await;
    assert_eq!(created.status, 201, "{}", created.body);
    let exit = &created.body["campaign"]["settings"]["exitIntent"];
    assert_eq!(exit["delay"], 5, "{}", created.body);
    assert_eq!(exit["cooldown"], 30, "{}", created.body);
    let fraction = app
        .send(
            "POST",
            "/api/campaigns",
            t,
            json!({"name": "Kesar 2", "websiteUrl": "https://kesar.example.in",
                   "settings": {"exitIntent": {"delay": 5.5}}}),
        )
        .await;
    assert_eq!(fraction.status, 400, "{}", fraction.body);
}

/// A phone number longer than its column (32 characters, punctuation
/// included) is a 400 on sign-up and in the profile, not a 500 on PostgreSQL.
#[tokio::test]
async fn overlong_phone_numbers_are_refused() {
    let app = spawn_app().await;
    let long = "+91 98765 43210 - - - - - - - - - -";
    let reply = app
        .post(
            "/api/auth/register",
            json!({"name": "Asha", "email": "long-phone@example.in", "password": "secret1", "phone": long}),
        )
        .await;
    assert_eq!(
        reply.error(400, "validation_failed"),
        "Please enter a valid phone number"
    );
    let (token, _) = app.register("phone@example.in", "secret1").await;
    let reply = app
        .send("PUT", "/api/auth/me", Some(&token), json!({"phone": long}))
        .await;
    assert_eq!(reply.status, 400, "{}", reply.body);
}
