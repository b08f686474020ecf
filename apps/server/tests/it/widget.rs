//! The public widget conversation calls over HTTP: greeting, replies as JSON
//! and as server-sent events, form offers and submissions, limits, CORS.

use std::time::Duration;

use ca_conversations::entities::{conversation, message};
use ca_conversations::testing::{Script, fake_server};
use chrono::Utc;
use sea_orm::sea_query::Expr;
use sea_orm::{ColumnTrait, ConnectionTrait, EntityTrait, PaginatorTrait, QueryFilter, QueryOrder};
use serde_json::{Value, json};

use crate::helpers::{Reply, TestApp, spawn_app, spawn_app_with};

const KNOWLEDGE_BASE: &str = "\
Shipping: We ship across India. Delivery takes 3-5 business days to metro cities and 5-8 days elsewhere. Shipping is free on orders above ₹999; below that a flat ₹79 applies.

Cash on delivery (COD) is available on orders up to ₹10,000 for a ₹49 handling fee.

Returns: You can return unused products within 7 days of delivery. Refunds reach your original payment method within 5-7 working days after we receive the item.

Prices: Cotton sarees start at ₹1,299. Silk sarees cost ₹4,999 to ₹18,000. Dupattas start at ₹599.";

const BUSINESS_INFO: &str =
    "Kesar Handlooms, Jaipur. Handwoven sarees since 1998.\n\nEmail care@kesarhandlooms.in.";

fn shop_campaign(initial_message: &str) -> Value {
    json!({
        "name": "Kesar exit offer",
        "websiteUrl": "https://kesar.example.in",
        "settings": {
            "aiSettings": {
                "initialMessage": initial_message,
                "knowledgeBase": KNOWLEDGE_BASE,
                "businessInfo": BUSINESS_INFO,
            },
            "forms": {
                "conversionForms": [
                    {
                        "id": "newsletter", "name": "Saree lookbook", "type": "lead_magnet",
                        "title": "Get our lookbook", "buttonText": "Send it",
                        "successMessage": "The lookbook is on its way!",
                        "followUpMessage": "Anything else I can help with?",
                        "isDefault": true, "active": true,
                        "fields": [
                            {"name": "name", "label": "Name", "type": "text", "required": false},
                            {"name": "email", "label": "Email", "type": "email", "required": true},
                            {"name": "phone", "label": "Phone", "type": "phone", "required": false}
                        ]
                    },
                    {
                        "id": "coupon", "name": "10% coupon", "type": "coupon",
                        "title": "Unlock 10% off", "buttonText": "Get my code",
                        "successMessage": "Your code is KESAR10",
                        "triggerKeywords": ["discount", "coupon"], "active": true,
                        "fields": [{"name": "email", "label": "Email", "type": "email", "required": true}]
                    }
                ],
                "formDisplayRules": {"minMessagesBeforeForm": 3, "maxFormsPerConversation": 2, "cooldownBetweenForms": 2}
            }
        }
    })
}

/// Registers an owner with one shop campaign; returns `(token, campaign id)`.
async fn owner_with_campaign(app: &TestApp, email: &str, initial: &str) -> (String, String) {
    let (token, _) = app.register(email, "secret1").await;
    let created = app
        .send(
            "POST",
            "/api/campaigns",
            Some(&token),
            shop_campaign(initial),
        )
        .await;
    assert_eq!(created.status, 201, "{}", created.body);
    let id = created.body["campaign"]["_id"]
        .as_str()
        .expect("id")
        .to_string();
    (token, id)
}

async fn start(app: &TestApp, campaign: &str) -> Reply {
    app.post(
        "/api/widget/conversations",
        json!({
            "campaignId": campaign,
            "visitorId": "v_0123456789abcdef",
            "sessionId": "s_0123456789",
            "userContext": {"deviceType": "desktop", "currentUrl": "https://kesar.example.in/sarees/silk"}
        }),
    )
    .await
}

async fn started(app: &TestApp, campaign: &str) -> String {
    let reply = start(app, campaign).await;
    assert_eq!(reply.status, 201, "{}", reply.body);
    reply.body["conversationId"]
        .as_str()
        .expect("id")
        .to_string()
}

async fn say(app: &TestApp, conversation: &str, text: &str) -> Reply {
    app.post(
        &format!("/api/widget/conversations/{conversation}/messages"),
        json!({"message": text}),
    )
    .await
}

async fn stored(app: &TestApp, conversation: &str) -> conversation::Model {
    conversation::Entity::find()
        .filter(conversation::Column::ConversationId.eq(conversation))
        .one(&app.db.conn)
        .await
        .expect("query")
        .expect("stored conversation")
}

#[tokio::test]
async fn start_greets_stores_context_and_checks_its_input() {
    let app = spawn_app().await;
    let (_, custom) =
        owner_with_campaign(&app, "greet@example.in", "Namaste! Looking for a saree?").await;
    let reply = start(&app, &custom).await;
    assert_eq!(reply.status, 201, "{}", reply.body);
    assert_eq!(reply.body["success"], true);
    assert_eq!(reply.body["greeting"], "Namaste! Looking for a saree?");
    assert_eq!(reply.body["aiAvailable"], true);
    assert!(reply.body.get("form").is_none());
    let id = reply.body["conversationId"].as_str().expect("id");
    assert!(id.starts_with("conv_") && id.len() == 29, "{id}");
    let conv = stored(&app, id).await;
    assert_eq!(conv.status, "active");
    assert_eq!(conv.outcome, "none");
    assert_eq!(conv.total_messages, 1);
    assert_eq!(conv.visitor_id, "v_0123456789abcdef");
    let ctx: Value = serde_json::from_str(&conv.user_context).expect("json");
    assert_eq!(
        ctx,
        json!({"deviceType": "desktop", "currentUrl": "https://kesar.example.in/sarees/silk"})
    );
    let greeting = message::Entity::find()
        .filter(message::Column::ConversationId.eq(&conv.id))
        .one(&app.db.conn)
        .await
        .expect("query")
        .expect("greeting stored");
    assert_eq!(
        (greeting.role.as_str(), greeting.content.as_str()),
        ("assistant", "Namaste! Looking for a saree?")
    );

    // An empty initial message means the default greeting.
    let (_, plain) = owner_with_campaign(&app, "plain@example.in", "").await;
    assert_eq!(
        start(&app, &plain).await.body["greeting"],
        "Hi! I noticed you're about to leave. What can I help you with?"
    );

    let bad = app
        .post(
            "/api/widget/conversations",
            json!({"campaignId": custom, "visitorId": "x", "userContext": {"deviceType": "fridge", "currentUrl": "javascript:alert(1)"}}),
        )
        .await;
    bad.error(400, "validation_failed");
    let errors = &bad.body["errors"];
    assert!(errors["visitorId"].is_array(), "{errors}");
    assert!(errors["userContext.deviceType"].is_array(), "{errors}");
    assert!(errors["userContext.currentUrl"].is_array(), "{errors}");

    let unknown = start(&app, "0190f0f0-0000-7000-8000-000000000000").await;
    assert_eq!(
        unknown.error(404, "campaign_not_found"),
        "This campaign does not exist"
    );
    let count = conversation::Entity::find()
        .count(&app.db.conn)
        .await
        .expect("count");
    assert_eq!(count, 2, "refused starts store nothing");
}

#[tokio::test]
async fn an_inactive_campaign_gets_a_clear_answer() {
    let app = spawn_app().await;
    let (token, id) = owner_with_campaign(&app, "inactive@example.in", "").await;
    let conversation = started(&app, &id).await;
    let toggled = app
        .send(
            "PATCH",
            &format!("/api/campaigns/{id}/toggle"),
            Some(&token),
            json!({}),
        )
        .await;
    assert_eq!(toggled.status, 200);
    let refused = start(&app, &id).await;
    assert_eq!(
        refused.error(403, "campaign_inactive"),
        "This campaign is not active right now"
    );
    // A conversation already under way may finish.
    assert_eq!(
        say(&app, &conversation, "Do you have COD?").await.status,
        200
    );
}

#[tokio::test]
async fn replies_come_from_the_knowledge_base_and_forms_follow_the_rules() {
    let app = spawn_app().await;
    let (token, campaign) = owner_with_campaign(&app, "rules@example.in", "").await;
    let c = started(&app, &campaign).await;

    // 1: no keyword, below the minimum: no form.
    let r1 = say(&app, &c, "Do you have cash on delivery?").await;
    assert_eq!(r1.status, 200, "{}", r1.body);
    assert!(
        r1.body["reply"]
            .as_str()
            .expect("reply")
            .starts_with("Cash on delivery (COD) is available")
    );
    assert_eq!(r1.body["source"], "builtin");
    assert_eq!(r1.body["form"], Value::Null);
    assert_eq!(r1.body["totalMessages"], 3);
    // 2: a trigger keyword brings its form at once, before the minimum.
    let r2 = say(&app, &c, "Is there any discount on silk sarees?").await;
    assert_eq!(r2.body["form"]["id"], "coupon", "{}", r2.body);
    assert_eq!(r2.body["form"]["title"], "Unlock 10% off");
    assert!(
        r2.body["reply"]
            .as_str()
            .expect("reply")
            .contains("Silk sarees cost ₹4,999")
    );
    assert_eq!(r2.body["form"]["fields"][0]["type"], "email");
    // 3: minimum reached, but within the cooldown (2 messages) of the last form.
    let r3 = say(&app, &c, "How many days does delivery take?").await;
    assert!(
        r3.body["reply"]
            .as_str()
            .expect("reply")
            .contains("3-5 business days")
    );
    assert_eq!(r3.body["form"], Value::Null);
    // 4: cooldown over: the default form, which was not offered yet.
    let r4 = say(&app, &c, "Can I return a saree?").await;
    assert_eq!(r4.body["form"]["id"], "newsletter", "{}", r4.body);
    // 5, 6: the cap of two forms is reached, keywords or not.
    for text in ["Any coupon left?", "What about a discount on dupattas?"] {
        let r = say(&app, &c, text).await;
        assert_eq!(r.body["form"], Value::Null, "{text}: {}", r.body);
    }

    let conv = stored(&app, &c).await;
    assert_eq!(conv.visitor_messages, 6);
    assert_eq!(conv.total_messages, 13);
    assert_eq!(conv.forms_offered, r#"["coupon","newsletter"]"#);
    let replies: Vec<message::Model> = message::Entity::find()
        .filter(message::Column::ConversationId.eq(&conv.id))
        .filter(message::Column::Role.eq("assistant"))
        .filter(message::Column::TotalMs.is_not_null())
        .order_by_asc(message::Column::Id)
        .all(&app.db.conn)
        .await
        .expect("messages");
    assert_eq!(replies.len(), 6);
    assert!(
        replies
            .iter()
            .all(|m| m.source.as_deref() == Some("builtin") && m.first_token_ms.is_some())
    );
    assert_eq!(replies[1].form_id.as_deref(), Some("coupon"));

    // The owner's analytics carry the reply timing.
    let analytics = app
        .get(
            &format!("/api/campaigns/{campaign}/analytics"),
            Some(&token),
        )
        .await;
    assert_eq!(
        analytics.body["assistant"]["replies"], 6,
        "{}",
        analytics.body
    );
    assert!(
        analytics.body["assistant"]["avgFirstTokenMs"]
            .as_f64()
            .expect("avg")
            >= 0.0
    );
}

#[tokio::test]
async fn the_builtin_assistant_offers_the_lead_form_when_it_does_not_know() {
    let app = spawn_app().await;
    let (_, campaign) = owner_with_campaign(&app, "unknown@example.in", "").await;
    let c = started(&app, &campaign).await;
    let r = say(&app, &c, "Do you sell refrigerators and washing machines?").await;
    assert_eq!(r.status, 200, "{}", r.body);
    assert!(
        r.body["reply"]
            .as_str()
            .expect("reply")
            .to_lowercase()
            .contains("email"),
        "{}",
        r.body
    );
    assert_eq!(r.body["form"]["id"], "newsletter", "{}", r.body);
}

/// Splits an SSE body into `(event, data)` pairs and counts heartbeats.
fn parse_sse(body: &str) -> (Vec<(String, Value)>, usize) {
    let mut events = Vec::new();
    let mut pings = 0;
    for frame in body.split("\n\n").filter(|f| !f.is_empty()) {
        if frame == ": ping" {
            pings += 1;
            continue;
        }
        let mut event = String::new();
        let mut data = String::new();
        for line in frame.lines() {
            if let Some(e) = line.strip_prefix("event: ") {
                event = e.to_string();
            } else if let Some(d) = line.strip_prefix("data: ") {
                data.push_str(d);
            } else {
                panic!("unexpected SSE line {line:?} in {body:?}");
            }
        }
        events.push((event, serde_json::from_str(&data).expect("data is JSON")));
    }
    (events, pings)
}

async fn stream(
    app: &TestApp,
    conversation: &str,
    text: &str,
) -> (reqwest::header::HeaderMap, String) {
    let res = app
        .client
        .post(app.url(&format!(
            "/api/widget/conversations/{conversation}/messages"
        )))
        .header("accept", "text/event-stream")
        .header("origin", "https://kesar.example.in")
        .json(&json!({"message": text}))
        .send()
        .await
        .expect("send");
    assert_eq!(res.status(), 200);
    let headers = res.headers().clone();
    (headers, res.text().await.expect("body"))
}

#[tokio::test]
async fn replies_stream_as_server_sent_events() {
    let app = spawn_app().await;
    let (_, campaign) = owner_with_campaign(&app, "sse@example.in", "").await;
    let c = started(&app, &campaign).await;
    let (headers, body) = stream(&app, &c, "Is there a discount?").await;
    assert_eq!(headers["content-type"], "text/event-stream");
    assert_eq!(headers["cache-control"], "no-cache");
    assert_eq!(headers["x-accel-buffering"], "no");
    assert_eq!(headers["access-control-allow-origin"], "*");
    let (events, _) = parse_sse(&body);
    let names: Vec<&str> = events.iter().map(|(e, _)| e.as_str()).collect();
    assert_eq!(names.last(), Some(&"done"), "{body}");
    assert!(
        names[..names.len() - 1].iter().all(|n| *n == "token"),
        "{names:?}"
    );
    let text: String = events
        .iter()
        .filter(|(e, _)| e == "token")
        .map(|(_, d)| d["text"].as_str().expect("text"))
        .collect();
    let done = &events.last().expect("done").1;
    assert_eq!(done["reply"], text.as_str());
    assert_eq!(done["form"]["id"], "coupon");
    assert_eq!(done["success"], true);
}

#[tokio::test]
async fn a_model_server_streams_tokens_with_heartbeats_and_timing_is_kept() {
    let (model, mut requests) = fake_server(Script::Tokens(
        vec!["Namaste! ", "COD is ", "available ", "up to ₹10,000."],
        Duration::from_millis(120),
    ))
    .await;
    let app = spawn_app_with(|c| {
        c.llm_base_url = Some(model.clone());
        c.llm_model = "test-model".into();
        c.sse_heartbeat_ms = 100;
    })
    .await;
    let (token, campaign) = owner_with_campaign(&app, "llm@example.in", "").await;
    let c = started(&app, &campaign).await;
    let (_, body) = stream(&app, &c, "Do you have cash on delivery?").await;
    let (events, pings) = parse_sse(&body);
    assert!(
        pings >= 2,
        "expected heartbeats during a 480 ms reply: {body}"
    );
    let tokens: Vec<&str> = events
        .iter()
        .filter(|(e, _)| e == "token")
        .map(|(_, d)| d["text"].as_str().expect("text"))
        .collect();
    assert_eq!(
        tokens,
        ["Namaste! ", "COD is ", "available ", "up to ₹10,000."]
    );
    let done = &events.last().expect("done").1;
    assert_eq!(done["source"], "provider");
    assert_eq!(done["reply"], "Namaste! COD is available up to ₹10,000.");
    let first = done["timing"]["firstTokenMs"].as_i64().expect("first");
    let total = done["timing"]["totalMs"].as_i64().expect("total");
    assert!(
        first >= 100 && total >= first + 300,
        "first {first} total {total}"
    );

    // The model got the system prompt from the campaign and the visitor's message.
    let request = requests.recv().await.expect("request");
    let json_start = request.find("\r\n\r\n").expect("body") + 4;
    let sent: Value = serde_json::from_str(&request[json_start..]).expect("json");
    assert_eq!(sent["model"], "test-model");
    assert_eq!(sent["stream"], true);
    let system = sent["messages"][0]["content"].as_str().expect("system");
    assert!(system.contains("Kesar Handlooms") && system.contains("Cash on delivery (COD)"));
    assert_eq!(
        sent["messages"]
            .as_array()
            .expect("messages")
            .last()
            .expect("last")["content"],
        "Do you have cash on delivery?"
    );

    let stats = app
        .get(
            &format!("/api/campaigns/{campaign}/analytics"),
            Some(&token),
        )
        .await;
    assert_eq!(stats.body["assistant"]["replies"], 1);
    assert!(
        stats.body["assistant"]["avgFirstTokenMs"]
            .as_f64()
            .expect("avg")
            >= 100.0,
        "{}",
        stats.body
    );
}

#[tokio::test]
async fn an_unreachable_model_server_falls_back_to_the_builtin_assistant() {
    let closed = std::net::TcpListener::bind("127.0.0.1:0").expect("bind");
    let base = format!("http://{}", closed.local_addr().expect("addr"));
    drop(closed);
    let app = spawn_app_with(|c| {
        c.llm_base_url = Some(base.clone());
        c.llm_timeout_secs = 1;
    })
    .await;
    let (_, campaign) = owner_with_campaign(&app, "fallback@example.in", "").await;
    let c = started(&app, &campaign).await;
    let r = say(&app, &c, "Can I return a saree?").await;
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(r.body["source"], "builtin");
    assert!(
        r.body["reply"]
            .as_str()
            .expect("reply")
            .starts_with("Returns: You can return unused products")
    );
}

#[tokio::test]
async fn submitted_forms_are_checked_against_their_fields() {
    let app = spawn_app().await;
    let (_, campaign) = owner_with_campaign(&app, "forms@example.in", "").await;
    let c = started(&app, &campaign).await;
    let path = format!("/api/widget/conversations/{c}/forms");

    let bad = app
        .post(
            &path,
            json!({"formId": "newsletter", "values": {"email": "not-an-email", "phone": "12"}}),
        )
        .await;
    bad.error(400, "validation_failed");
    assert_eq!(
        bad.body["errors"]["email"][0],
        "Please enter a valid email address"
    );
    assert_eq!(
        bad.body["errors"]["phone"][0],
        "Please enter a valid phone number"
    );
    let missing = app
        .post(&path, json!({"formId": "coupon", "values": {}}))
        .await;
    missing.error(400, "validation_failed");
    assert_eq!(missing.body["errors"]["email"][0], "Email is required");
    app.post(
        &path,
        json!({"formId": "nope", "values": {"email": "a@b.in"}}),
    )
    .await
    .error(404, "form_not_found");
    assert_eq!(
        stored(&app, &c).await.collected_data,
        "{}",
        "refused forms store nothing"
    );

    let ok = app
        .post(&path, json!({"formId": "newsletter", "values": {"name": " Meera Iyer ", "email": "Meera@Example.IN", "phone": "+91 98765 43210"}}))
        .await;
    assert_eq!(ok.status, 200, "{}", ok.body);
    assert_eq!(ok.body["message"], "The lookbook is on its way!");
    assert_eq!(ok.body["followUpMessage"], "Anything else I can help with?");
    assert_eq!(
        ok.body["collectedData"],
        json!({"name": "Meera Iyer", "email": "meera@example.in", "phone": "+91 98765 43210"})
    );
    // The popup's own email field, merged over what was collected.
    let capture = app
        .post(&path, json!({"values": {"email": "meera.iyer@example.in"}}))
        .await;
    assert_eq!(capture.status, 200, "{}", capture.body);
    let data: Value = serde_json::from_str(&stored(&app, &c).await.collected_data).expect("json");
    assert_eq!(
        data,
        json!({"name": "Meera Iyer", "email": "meera.iyer@example.in", "phone": "+91 98765 43210"})
    );

    // A filled honeypot gets the usual answer and changes nothing.
    let c2 = started(&app, &campaign).await;
    let bot = app
        .post(
            &format!("/api/widget/conversations/{c2}/forms"),
            json!({"values": {"email": "bot@spam.example"}, "website": "http://spam.example"}),
        )
        .await;
    assert_eq!(bot.status, 200);
    assert_eq!(stored(&app, &c2).await.collected_data, "{}");
}

#[tokio::test]
async fn past_the_plans_ai_conversations_the_visitor_gets_the_lead_form() {
    let app = spawn_app().await;
    let (_, campaign) = owner_with_campaign(&app, "limit@example.in", "").await;
    let first = started(&app, &campaign).await;
    let owner = stored(&app, &first).await;
    // The trial allows 100 AI conversations a month: use up the rest.
    let now = Utc::now();
    for _ in 0..99 {
        assert!(
            ca_conversations::allowance::claim(&app.db.conn, &owner.owner_id, 100, now)
                .await
                .expect("claim")
        );
    }
    assert_eq!(
        ca_conversations::allowance::used(&app.db.conn, &owner.owner_id, now)
            .await
            .expect("used"),
        100
    );

    let over = start(&app, &campaign).await;
    assert_eq!(over.status, 201, "{}", over.body);
    assert_eq!(over.body["aiAvailable"], false);
    assert!(
        over.body["notice"]
            .as_str()
            .expect("notice")
            .contains("Leave your email")
    );
    assert_eq!(over.body["form"]["id"], "newsletter");
    let c = over.body["conversationId"].as_str().expect("id");
    let r = say(&app, c, "Do you have cash on delivery?").await;
    assert_eq!(r.status, 200);
    assert_eq!(r.body["source"], "limit");
    assert!(
        r.body["reply"]
            .as_str()
            .expect("reply")
            .contains("Leave your email")
    );
    assert_eq!(r.body["form"]["id"], "newsletter");
    // The lead form still works.
    let sent = app
        .post(
            &format!("/api/widget/conversations/{c}/forms"),
            json!({"formId": "newsletter", "values": {"email": "late@example.in"}}),
        )
        .await;
    assert_eq!(sent.status, 200);
    // Conversations started without the assistant do not count towards the
    // limit, and last month's do not either.
    assert_eq!(
        ca_conversations::allowance::used(&app.db.conn, &owner.owner_id, now)
            .await
            .expect("used"),
        100
    );
    app.db
        .conn
        .execute_unprepared(&format!(
            "UPDATE ai_conversation_usage SET period = '{}' WHERE owner_id = '{}'",
            ca_conversations::allowance::period_of(now - chrono::Duration::days(40)),
            owner.owner_id
        ))
        .await
        .expect("age");
    assert_eq!(start(&app, &campaign).await.body["aiAvailable"], true);
}

#[tokio::test]
async fn a_burst_of_chat_starts_cannot_take_more_ai_conversations_than_the_plan_allows() {
    let app = spawn_app().await;
    let (_, campaign) = owner_with_campaign(&app, "lastone@example.in", "").await;
    let first = started(&app, &campaign).await;
    let owner = stored(&app, &first).await;
    // The trial allows 100 AI conversations a month; 97 more are taken,
    // then 20 visitors open the chat at once: two get the assistant.
    let now = Utc::now();
    for _ in 0..97 {
        ca_conversations::allowance::claim(&app.db.conn, &owner.owner_id, 100, now)
            .await
            .expect("claim");
    }
    let burst = futures_util::future::join_all((0..20).map(|_| start(&app, &campaign))).await;
    let mut with_ai = 0;
    for r in &burst {
        assert_eq!(r.status, 201, "{}", r.body);
        if r.body["aiAvailable"] == true {
            with_ai += 1;
        }
    }
    assert_eq!(with_ai, 2);
    assert_eq!(
        ca_conversations::allowance::used(&app.db.conn, &owner.owner_id, now)
            .await
            .expect("used"),
        100
    );
    // Every start stored its conversation with its greeting.
    let stored_ai = conversation::Entity::find()
        .filter(conversation::Column::OwnerId.eq(&owner.owner_id))
        .filter(conversation::Column::AiEnabled.eq(true))
        .count(&app.db.conn)
        .await
        .expect("count");
    assert_eq!(stored_ai, 3);
    let greetings = message::Entity::find()
        .filter(message::Column::Source.eq("greeting"))
        .count(&app.db.conn)
        .await
        .expect("count");
    assert_eq!(greetings, 21);
}

#[tokio::test]
async fn chat_starts_written_together_take_each_owners_allowance_exactly() {
    let app = spawn_app_with(|c| c.widget_ip_per_minute = 10_000).await;
    let (token_a, campaign_a) = owner_with_campaign(&app, "batch-a@example.in", "").await;
    let (token_b, campaign_b) = owner_with_campaign(&app, "batch-b@example.in", "").await;
    let mut owners = Vec::new();
    for token in [&token_a, &token_b] {
        owners.push(
            app.get("/api/auth/me", Some(token)).await.body["user"]["id"]
                .as_str()
                .expect("owner id")
                .to_string(),
        );
    }
    let (owner_a, owner_b) = (owners[0].clone(), owners[1].clone());
    // The trial allows 100 AI conversations a month: the first owner has
    // 50 left, the second 30.
    let now = Utc::now();
    for (owner, taken) in [(&owner_a, 50), (&owner_b, 70)] {
        let txn = ca_core::db::begin_write(&app.db.conn).await.expect("begin");
        assert_eq!(
            ca_conversations::allowance::claim_many(&txn, owner, 100, taken, now)
                .await
                .expect("claim"),
            taken
        );
        txn.commit().await.expect("commit");
    }
    // 300 visitors open the chat at once, two in three on the first owner's
    // campaign: their starts are written in batches holding both owners.
    let replies = futures_util::future::join_all((0..300).map(|i| {
        let campaign = if i % 3 == 2 { &campaign_b } else { &campaign_a };
        app.post(
            "/api/widget/conversations",
            json!({
                "campaignId": campaign,
                "visitorId": format!("v_batch_{i:08}"),
                "userContext": {"deviceType": "mobile"}
            }),
        )
    }))
    .await;
    let (mut ai_a, mut ai_b, mut notices) = (0, 0, 0);
    for (i, r) in replies.iter().enumerate() {
        assert_eq!(r.status, 201, "{}", r.body);
        if r.body["aiAvailable"] == true {
            assert!(!r.body["greeting"].as_str().expect("greeting").is_empty());
            assert!(r.body["notice"].is_null(), "{}", r.body);
            if i % 3 == 2 {
                ai_b += 1;
            } else {
                ai_a += 1;
            }
        } else {
            assert_eq!(r.body["greeting"], "");
            assert_eq!(r.body["notice"], ca_conversations::visitor::AI_LIMIT_NOTICE);
            assert_eq!(r.body["form"]["id"], "newsletter");
            notices += 1;
        }
    }
    assert_eq!((ai_a, ai_b, notices), (50, 30, 220));
    for (owner, all, with_ai) in [(&owner_a, 200, 50), (&owner_b, 100, 30)] {
        let stored = conversation::Entity::find()
            .filter(conversation::Column::OwnerId.eq(owner))
            .count(&app.db.conn)
            .await
            .expect("count");
        assert_eq!(stored, all);
        let stored_ai = conversation::Entity::find()
            .filter(conversation::Column::OwnerId.eq(owner))
            .filter(conversation::Column::AiEnabled.eq(true))
            .count(&app.db.conn)
            .await
            .expect("count");
        assert_eq!(stored_ai, with_ai);
        assert_eq!(
            ca_conversations::allowance::used(&app.db.conn, owner, now)
                .await
                .expect("used"),
            100
        );
    }
    // Every conversation has its greeting: the assistant's, or the notice.
    let greetings = message::Entity::find()
        .filter(message::Column::Source.eq("greeting"))
        .count(&app.db.conn)
        .await
        .expect("count");
    assert_eq!(greetings, 300);
    let notices_stored = message::Entity::find()
        .filter(message::Column::Content.eq(ca_conversations::visitor::AI_LIMIT_NOTICE))
        .count(&app.db.conn)
        .await
        .expect("count");
    assert_eq!(notices_stored, 220);
}

#[tokio::test]
async fn message_length_and_count_are_limited() {
    let app = spawn_app_with(|c| c.widget_messages_per_conversation = 2).await;
    let (_, campaign) = owner_with_campaign(&app, "length@example.in", "").await;
    let c = started(&app, &campaign).await;
    say(&app, &c, "   ").await.error(400, "validation_failed");
    let long = "a".repeat(1001);
    let too_long = say(&app, &c, &long).await;
    too_long.error(400, "validation_failed");
    assert_eq!(
        too_long.body["errors"]["message"][0],
        "Messages can be at most 1000 characters"
    );
    assert_eq!(
        stored(&app, &c).await.total_messages,
        1,
        "refused messages are not stored"
    );
    assert_eq!(say(&app, &c, "Hi").await.status, 200);
    assert_eq!(say(&app, &c, "COD?").await.status, 200);
    let capped = say(&app, &c, "One more?").await;
    capped.error(422, "message_limit_reached");
    assert_eq!(capped.body["form"]["id"], "newsletter", "{}", capped.body);
    say(&app, "conv_doesnotexist000000000000", "hello")
        .await
        .error(404, "conversation_not_found");
}

#[tokio::test]
async fn calls_are_limited_per_ip_and_per_campaign() {
    let app = spawn_app_with(|c| {
        c.widget_ip_per_minute = 3;
        c.widget_campaign_per_minute = 5;
        c.trust_proxy = true;
    })
    .await;
    let (_, campaign) = owner_with_campaign(&app, "flood@example.in", "").await;
    let from = |ip: &'static str| {
        let app = &app;
        let campaign = campaign.clone();
        async move {
            let res = app
                .client
                .post(app.url("/api/widget/conversations"))
                .header("x-forwarded-for", ip)
                .json(&json!({"campaignId": campaign, "visitorId": "v_0123456789abcdef"}))
                .send()
                .await
                .expect("send");
            Reply::from(res).await
        }
    };
    for _ in 0..3 {
        assert_eq!(from("203.0.113.1").await.status, 201);
    }
    let limited = from("203.0.113.1").await;
    limited.error(429, "rate_limited");
    assert!(limited.headers.contains_key("retry-after"));
    // Another IP may go on until the campaign's own limit (5 a minute) is used up.
    assert_eq!(from("203.0.113.2").await.status, 201);
    assert_eq!(from("203.0.113.2").await.status, 201);
    from("203.0.113.3").await.error(429, "rate_limited");
}

#[tokio::test]
async fn any_origin_may_call_without_credentials() {
    let app = spawn_app().await;
    let preflight = app
        .client
        .request(
            reqwest::Method::OPTIONS,
            app.url("/api/widget/conversations"),
        )
        .header("origin", "https://some-shop.example.com")
        .header("access-control-request-method", "POST")
        .header("access-control-request-headers", "content-type")
        .send()
        .await
        .expect("send");
    assert!(preflight.status().is_success(), "{}", preflight.status());
    let h = preflight.headers();
    assert_eq!(h["access-control-allow-origin"], "*");
    assert!(h.get("access-control-allow-credentials").is_none());
    assert!(
        h["access-control-allow-methods"]
            .to_str()
            .expect("methods")
            .contains("POST")
    );
    // The dashboard API still refuses other origins.
    let dashboard = app
        .client
        .request(reqwest::Method::OPTIONS, app.url("/api/campaigns"))
        .header("origin", "https://some-shop.example.com")
        .header("access-control-request-method", "GET")
        .send()
        .await
        .expect("send");
    assert!(
        dashboard
            .headers()
            .get("access-control-allow-origin")
            .is_none()
    );
}

#[tokio::test]
async fn dismissal_and_inactivity_complete_conversations() {
    let app = spawn_app().await;
    let (token, campaign) = owner_with_campaign(&app, "dismiss@example.in", "").await;
    let c = started(&app, &campaign).await;
    let d = app
        .post(&format!("/api/widget/conversations/{c}/dismiss"), json!({}))
        .await;
    assert_eq!(d.status, 200, "{}", d.body);
    let conv = stored(&app, &c).await;
    assert_eq!(
        (conv.status.as_str(), conv.outcome.as_str()),
        ("completed", "dismissal")
    );
    assert!(conv.completed_at.is_some());
    say(&app, &c, "wait, one question")
        .await
        .error(409, "conversation_ended");

    // Idle for longer than 30 minutes: the next message finds it ended.
    let idle = started(&app, &campaign).await;
    conversation::Entity::update_many()
        .col_expr(
            conversation::Column::LastActivityAt,
            Expr::value(Utc::now() - chrono::Duration::minutes(31)),
        )
        .filter(conversation::Column::ConversationId.eq(&idle))
        .exec(&app.db.conn)
        .await
        .expect("age");
    say(&app, &idle, "hello?")
        .await
        .error(409, "conversation_ended");
    let conv = stored(&app, &idle).await;
    assert_eq!(
        (conv.status.as_str(), conv.outcome.as_str()),
        ("completed", "none")
    );

    // The sweep completes idle conversations nobody writes to again.
    let swept = started(&app, &campaign).await;
    let fresh = started(&app, &campaign).await;
    conversation::Entity::update_many()
        .col_expr(
            conversation::Column::LastActivityAt,
            Expr::value(Utc::now() - chrono::Duration::hours(2)),
        )
        .filter(conversation::Column::ConversationId.eq(&swept))
        .exec(&app.db.conn)
        .await
        .expect("age");
    let service = ca_conversations::ConversationService::new(
        app.db.conn.clone(),
        std::sync::Arc::new(ca_conversations::assistant::Builtin),
        std::sync::Arc::new(ca_core::rate_limit::RateLimiter::memory()),
        ca_conversations::Limits::default(),
    );
    // The server's own once-a-minute sweep may have got there first (a slow
    // run), so this sweep completes the idle one or finds it done.
    let completed = service.complete_idle(Utc::now()).await.expect("sweep");
    assert!(completed <= 1, "{completed}");
    assert_eq!(stored(&app, &swept).await.status, "completed");
    assert_eq!(stored(&app, &fresh).await.status, "active");

    // Deleting the campaign deletes its conversations and their messages.
    let deleted = app
        .send(
            "DELETE",
            &format!("/api/campaigns/{campaign}"),
            Some(&token),
            json!({}),
        )
        .await;
    assert_eq!(deleted.status, 200);
    assert_eq!(
        conversation::Entity::find()
            .count(&app.db.conn)
            .await
            .expect("count"),
        0
    );
    assert_eq!(
        message::Entity::find()
            .count(&app.db.conn)
            .await
            .expect("count"),
        0
    );
}
