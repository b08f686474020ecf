//! The owner's assistant tools over HTTP: "Try your assistant" and the list
//! of visitors' questions it could not answer; owner-scoped, checked input.

use ca_conversations::entities::conversation;
use ca_conversations::testing::{Script, fake_server};
use sea_orm::{EntityTrait, PaginatorTrait};
use serde_json::{Value, json};

use crate::helpers::{TestApp, spawn_app, spawn_app_with};

const KNOWLEDGE_BASE: &str = "\
Shipping: free across India on orders above 1499 rupees, delivered in 4 to 6 working days. Returns: unused items can be returned within 10 days for a full refund.

Fees
- Blouse stitching: ₹650, ready in 7 days";

/// Registers an owner with one campaign; returns `(token, campaign id)`.
async fn owner_campaign(app: &TestApp, email: &str) -> (String, String) {
    let (token, _) = app.register(email, "secret1").await;
    let created = app
        .send(
            "POST",
            "/api/campaigns",
            Some(&token),
            json!({
                "name": "Chanderi exit offer",
                "websiteUrl": "https://chanderi.example.in",
                "settings": {"aiSettings": {
                    "knowledgeBase": KNOWLEDGE_BASE,
                    "businessInfo": "Chanderi Weaves, Bhopal. Email hello@chanderiweaves.in."
                }}
            }),
        )
        .await;
    assert_eq!(created.status, 201, "{}", created.body);
    (
        token,
        created.body["campaign"]["_id"]
            .as_str()
            .expect("id")
            .to_string(),
    )
}

/// A visitor's conversation with these messages; returns its id.
async fn visitor_asks(app: &TestApp, campaign: &str, visitor: &str, messages: &[&str]) -> String {
    let started = app
        .post(
            "/api/widget/conversations",
            json!({"campaignId": campaign, "visitorId": visitor}),
        )
        .await;
    assert_eq!(started.status, 201, "{}", started.body);
    let id = started.body["conversationId"]
        .as_str()
        .expect("id")
        .to_string();
    for m in messages {
        let r = app
            .post(
                &format!("/api/widget/conversations/{id}/messages"),
                json!({"message": m}),
            )
            .await;
        assert_eq!(r.status, 200, "{}", r.body);
    }
    id
}

fn questions(body: &Value) -> Vec<(String, i64)> {
    body["questions"]
        .as_array()
        .expect("questions")
        .iter()
        .map(|q| {
            (
                q["question"].as_str().expect("question").to_string(),
                q["count"].as_i64().expect("count"),
            )
        })
        .collect()
}

#[tokio::test]
async fn trying_the_assistant_answers_like_the_widget_and_stores_nothing() {
    let app = spawn_app().await;
    let (token, campaign) = owner_campaign(&app, "try-a@example.in").await;
    let (other, _) = owner_campaign(&app, "try-b@example.in").await;
    let path = format!("/api/campaigns/{campaign}/assistant/try");
    let t = Some(token.as_str());

    let r = app
        .send("POST", &path, t, json!({"message": "Is shipping free?"}))
        .await;
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(r.body["success"], true);
    assert_eq!(r.body["source"], "builtin");
    assert_eq!(r.body["answered"], true);
    assert_eq!(
        r.body["reply"],
        "Shipping: free across India on orders above 1499 rupees, delivered in 4 to 6 working days."
    );
    assert_eq!(r.body["passages"].as_array().expect("passages").len(), 1);
    assert_eq!(r.body["passages"][0]["score"], 1.0);
    assert!(r.body["timing"]["totalMs"].as_i64().is_some());

    let fees = app
        .send(
            "POST",
            &path,
            t,
            json!({"message": "what does stitching cost"}),
        )
        .await;
    assert_eq!(fees.body["passages"][0]["context"], "Fees", "{}", fees.body);
    assert!(
        fees.body["reply"]
            .as_str()
            .expect("reply")
            .starts_with("Fees – Blouse stitching: ₹650"),
        "{}",
        fees.body
    );

    let unknown = app
        .send("POST", &path, t, json!({"message": "Do you sell laptops?"}))
        .await;
    assert_eq!(unknown.body["answered"], false, "{}", unknown.body);
    assert!(
        unknown.body["reply"]
            .as_str()
            .expect("reply")
            .starts_with("I'm not sure about that")
    );
    assert_eq!(unknown.body["passages"], json!([]));

    // The editor's unsaved knowledge base is what gets tried.
    let draft = app
        .send(
            "POST",
            &path,
            t,
            json!({"message": "Do you sell laptops?", "knowledgeBase": "We sell refurbished laptops from ₹18,000."}),
        )
        .await;
    assert_eq!(draft.body["answered"], true, "{}", draft.body);
    assert_eq!(
        draft.body["reply"],
        "We sell refurbished laptops from ₹18,000."
    );

    // Checked input.
    let empty = app.send("POST", &path, t, json!({"message": "   "})).await;
    assert_eq!(
        empty.error(400, "validation_failed"),
        "Type a question to try your assistant"
    );
    assert!(empty.body["errors"]["message"].is_array());
    assert_eq!(
        app.send("POST", &path, t, json!({}))
            .await
            .error(400, "validation_failed"),
        "Type a question to try your assistant"
    );
    let long = app
        .send("POST", &path, t, json!({"message": "a".repeat(1001)}))
        .await;
    assert_eq!(
        long.error(400, "validation_failed"),
        "Questions can be at most 1000 characters"
    );
    let big = app
        .send(
            "POST",
            &path,
            t,
            json!({"message": "hi", "knowledgeBase": "x".repeat(10_001)}),
        )
        .await;
    big.error(400, "validation_failed");
    assert!(
        big.body["errors"]["knowledgeBase"].is_array(),
        "{}",
        big.body
    );

    // Another owner's campaign, an unknown one, no session.
    app.send(
        "POST",
        &path,
        Some(&other),
        json!({"message": "Is shipping free?"}),
    )
    .await
    .error(404, "campaign_not_found");
    app.send(
        "POST",
        "/api/campaigns/0190f0f0-0000-7000-8000-000000000000/assistant/try",
        t,
        json!({"message": "Is shipping free?"}),
    )
    .await
    .error(404, "campaign_not_found");
    assert_eq!(
        app.send("POST", &path, None, json!({"message": "hi"}))
            .await
            .status,
        401
    );

    // Tries are no conversations: nothing stored, nothing counted.
    let stored = conversation::Entity::find()
        .count(&app.db.conn)
        .await
        .expect("count");
    assert_eq!(stored, 0);
    let analytics = app
        .get(&format!("/api/campaigns/{campaign}/analytics"), t)
        .await;
    assert_eq!(
        analytics.body["assistant"]["replies"], 0,
        "{}",
        analytics.body
    );
}

#[tokio::test]
async fn tries_are_limited_per_minute() {
    let app = spawn_app().await;
    let (token, campaign) = owner_campaign(&app, "try-limit@example.in").await;
    let path = format!("/api/campaigns/{campaign}/assistant/try");
    for _ in 0..ca_conversations::assistant::owner::TRIES_PER_MINUTE {
        let r = app
            .send(
                "POST",
                &path,
                Some(&token),
                json!({"message": "Is shipping free?"}),
            )
            .await;
        assert_eq!(r.status, 200, "{}", r.body);
    }
    let over = app
        .send(
            "POST",
            &path,
            Some(&token),
            json!({"message": "Is shipping free?"}),
        )
        .await;
    over.error(429, "rate_limited");
    assert!(over.headers.get("retry-after").is_some());
}

#[tokio::test]
async fn the_owner_sees_the_questions_the_assistant_could_not_answer() {
    let app = spawn_app().await;
    let (token, campaign) = owner_campaign(&app, "unanswered-a@example.in").await;
    let (other, other_campaign) = owner_campaign(&app, "unanswered-b@example.in").await;
    let path = format!("/api/campaigns/{campaign}/assistant/unanswered");
    let t = Some(token.as_str());

    let empty = app.get(&path, t).await;
    assert_eq!(empty.status, 200, "{}", empty.body);
    assert_eq!(empty.body["questions"], json!([]));
    assert_eq!(empty.body["pagination"]["total"], 0);

    let first = visitor_asks(
        &app,
        &campaign,
        "visitor-0001",
        &["Do you sell laptops?", "Is shipping free?", "hello"],
    )
    .await;
    visitor_asks(
        &app,
        &campaign,
        "visitor-0002",
        &["Is there a store in Pune?", "do you sell   LAPTOPS"],
    )
    .await;
    visitor_asks(
        &app,
        &other_campaign,
        "visitor-0003",
        &["Do you rent cars?"],
    )
    .await;

    let list = app.get(&path, t).await;
    assert_eq!(list.status, 200, "{}", list.body);
    assert_eq!(
        questions(&list.body),
        [
            ("do you sell   LAPTOPS".to_string(), 2),
            ("Is there a store in Pune?".to_string(), 1),
        ],
        "grouped by wording, newest first, answered ones left out"
    );
    assert!(list.body["questions"][0]["lastAskedAt"].is_string());
    assert_eq!(list.body["pagination"]["total"], 2);

    let page = app.get(&format!("{path}?limit=1&page=2"), t).await;
    assert_eq!(
        questions(&page.body),
        [("Is there a store in Pune?".to_string(), 1)]
    );
    assert_eq!(page.body["pagination"]["pages"], 2);
    app.get(&format!("{path}?limit=0"), t)
        .await
        .error(400, "validation_failed");

    // Owner-scoped: another owner's campaign is absent.
    app.get(&path, Some(&other))
        .await
        .error(404, "campaign_not_found");
    assert_eq!(
        questions(
            &app.get(
                &format!("/api/campaigns/{other_campaign}/assistant/unanswered"),
                Some(&other)
            )
            .await
            .body
        ),
        [("Do you rent cars?".to_string(), 1)]
    );
    assert_eq!(app.get(&path, None).await.status, 401);

    // A deleted conversation takes its questions with it.
    let deleted = app
        .send(
            "DELETE",
            &format!("/api/conversations/{first}"),
            t,
            json!({}),
        )
        .await;
    assert_eq!(deleted.status, 200, "{}", deleted.body);
    assert_eq!(
        questions(&app.get(&path, t).await.body),
        [
            ("do you sell   LAPTOPS".to_string(), 1),
            ("Is there a store in Pune?".to_string(), 1),
        ]
    );
}

/// The index behind the unanswered questions holds only the marked
/// messages (a greeting or an answer adds nothing to it), on both
/// databases; undoing the change brings the whole index back, and the list
/// reads the same throughout.
#[tokio::test]
async fn the_unanswered_index_holds_only_unanswered_messages_and_undoes() {
    use ca_migrations::{Migrator, MigratorTrait};
    use sea_orm::{ConnectionTrait, Statement};
    let app = spawn_app().await;
    let db = &app.db.conn;
    let backend = db.get_database_backend();
    let definition = || async move {
        let sql = if ca_core::db::is_postgres(db) {
            "SELECT indexdef AS d FROM pg_indexes WHERE indexname = 'ix_conversation_messages_unanswered'"
        } else {
            "SELECT sql AS d FROM sqlite_master WHERE name = 'ix_conversation_messages_unanswered'"
        };
        db.query_one_raw(Statement::from_string(backend, sql))
            .await
            .expect("index")
            .expect("the index exists")
            .try_get::<String>("", "d")
            .expect("definition")
            .to_lowercase()
    };
    let (token, campaign) = owner_campaign(&app, "unanswered-index@example.in").await;
    let path = format!("/api/campaigns/{campaign}/assistant/unanswered");
    visitor_asks(
        &app,
        &campaign,
        "visitor-0005",
        &["Do you sell laptops?", "hello"],
    )
    .await;
    let listed = || async { questions(&app.get(&path, Some(&token)).await.body) };
    let before = listed().await;
    assert_eq!(before, [("Do you sell laptops?".to_string(), 1)]);
    assert!(
        definition().await.contains("where") && definition().await.contains("is not null"),
        "{}",
        definition().await
    );

    let steps = crate::helpers::steps_back_to("unanswered_index_partial");
    Migrator::down(db, Some(steps)).await.expect("down");
    assert!(
        !definition().await.contains("where"),
        "{}",
        definition().await
    );
    assert_eq!(listed().await, before);
    visitor_asks(&app, &campaign, "visitor-0006", &["do you sell LAPTOPS"]).await;

    Migrator::up(db, None).await.expect("up");
    assert!(
        definition().await.contains("is not null"),
        "{}",
        definition().await
    );
    assert_eq!(
        listed().await,
        [("do you sell LAPTOPS".to_string(), 2)],
        "questions marked before, during and after the change are all listed"
    );
}

#[tokio::test]
async fn with_a_model_the_questions_the_knowledge_base_does_not_cover_are_listed() {
    let (model, _requests) = fake_server(Script::Tokens(
        vec!["Sorry, ", "I can't say."],
        std::time::Duration::from_millis(1),
    ))
    .await;
    let app = spawn_app_with(|c| c.llm_base_url = Some(model.clone())).await;
    let (token, campaign) = owner_campaign(&app, "unanswered-model@example.in").await;
    visitor_asks(
        &app,
        &campaign,
        "visitor-0004",
        &["Is shipping free?", "Do you sell laptops?"],
    )
    .await;
    let list = app
        .get(
            &format!("/api/campaigns/{campaign}/assistant/unanswered"),
            Some(&token),
        )
        .await;
    assert_eq!(
        questions(&list.body),
        [("Do you sell laptops?".to_string(), 1)]
    );
    let tried = app
        .send(
            "POST",
            &format!("/api/campaigns/{campaign}/assistant/try"),
            Some(&token),
            json!({"message": "Is shipping free?"}),
        )
        .await;
    assert_eq!(tried.body["source"], "provider", "{}", tried.body);
    assert_eq!(tried.body["reply"], "Sorry, I can't say.");
    assert_eq!(tried.body["answered"], true);
    assert_eq!(tried.body["passages"], json!([]));
}

/// A model's streamed reply in Devanagari arrives cut inside characters;
/// the reply is whole, not replacement characters.
#[tokio::test]
async fn a_streamed_reply_keeps_characters_split_across_chunks() {
    let (model, _requests) = fake_server(Script::Split(
        vec!["नमस्ते! ", "हाँ, कैश ऑन डिलीवरी उपलब्ध है।"],
        std::time::Duration::from_millis(1),
    ))
    .await;
    let app = spawn_app_with(|c| c.llm_base_url = Some(model.clone())).await;
    let (token, campaign) = owner_campaign(&app, "devanagari@example.in").await;
    let tried = app
        .send(
            "POST",
            &format!("/api/campaigns/{campaign}/assistant/try"),
            Some(&token),
            json!({"message": "क्या कैश ऑन डिलीवरी है?"}),
        )
        .await;
    assert_eq!(tried.body["source"], "provider", "{}", tried.body);
    assert_eq!(tried.body["reply"], "नमस्ते! हाँ, कैश ऑन डिलीवरी उपलब्ध है।");
}
