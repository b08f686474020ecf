#![allow(clippy::expect_used, clippy::unwrap_used)]
//! The OpenAI-compatible provider against a local HTTP server that speaks the protocol.

use std::time::Duration;

use ca_conversations::assistant::openai::{
    ChatMessage, OpenAiCompatible, ProviderConfig, ProviderError,
};
use ca_conversations::assistant::{Brief, Source, answer, trim_history};
use ca_conversations::testing::{Script, fake_server};

fn provider(base: &str, timeout_ms: u64) -> OpenAiCompatible {
    OpenAiCompatible::new(ProviderConfig {
        base_url: base.into(),
        api_key: Some("test-key".into()),
        model: "test-model".into(),
        idle_timeout: Duration::from_millis(timeout_ms),
        max_tokens: 300,
        temperature: 0.3,
    })
    .expect("client")
}

const BRIEF: Brief<'static> = Brief {
    business_info: "Kesar Handlooms, Jaipur. Call +91 98290 12345.",
    knowledge_base: "Cash on delivery (COD) is available on orders up to ₹10,000.",
    custom_instructions: "Always greet with Namaste.",
    form_hint: None,
    form_title: None,
};

#[tokio::test]
async fn streamed_tokens_are_relayed_in_order() {
    let (base, mut requests) = fake_server(Script::Tokens(
        vec!["Namaste! ", "COD ", "is ", "available."],
        Duration::from_millis(20),
    ))
    .await;
    let p = provider(&base, 2000);
    let mut seen = Vec::new();
    let a = answer(
        Some(&p),
        &BRIEF,
        &[],
        "Do you have COD?",
        1000,
        &mut |t: &str| seen.push(t.to_string()),
    )
    .await;
    assert_eq!(seen, vec!["Namaste! ", "COD ", "is ", "available."]);
    assert_eq!(a.text, "Namaste! COD is available.");
    assert_eq!(a.source, Source::Provider);
    assert!(
        a.timing.first_token >= Duration::from_millis(15) && a.timing.first_token <= a.timing.total
    );

    let request = requests.recv().await.expect("request");
    assert!(
        request.starts_with("POST /v1/chat/completions"),
        "{request}"
    );
    assert!(
        request
            .to_lowercase()
            .contains("authorization: bearer test-key")
    );
    let body: serde_json::Value =
        serde_json::from_str(request.split("\r\n\r\n").nth(1).expect("body")).expect("json");
    assert_eq!(body["stream"], true);
    assert_eq!(body["model"], "test-model");
    assert_eq!(body["messages"][0]["role"], "system");
    let system = body["messages"][0]["content"].as_str().expect("system");
    assert!(
        system.contains("Cash on delivery")
            && system.contains("Kesar Handlooms")
            && system.contains("Always greet with Namaste.")
    );
    assert_eq!(
        body["messages"][1],
        serde_json::json!({"role": "user", "content": "Do you have COD?"})
    );
}

#[tokio::test]
async fn a_non_2xx_answer_is_an_error_and_the_builtin_assistant_answers() {
    let (base, _r) = fake_server(Script::Status(
        401,
        r#"{"error":{"message":"Invalid API key","type":"auth","code":"invalid_api_key"}}"#,
    ))
    .await;
    let p = provider(&base, 2000);
    let err = p
        .stream(&[ChatMessage::new("user", "hi")], &mut |_: &str| {})
        .await
        .expect_err("401");
    assert!(
        matches!(err, ProviderError::Status { status: 401, ref message } if message == "Invalid API key"),
        "{err:?}"
    );

    let mut seen = String::new();
    let a = answer(
        Some(&p),
        &BRIEF,
        &[],
        "Is cash on delivery available?",
        1000,
        &mut |t: &str| seen.push_str(t),
    )
    .await;
    assert_eq!(a.source, Source::Builtin);
    assert!(
        a.text.contains("Cash on delivery (COD) is available"),
        "{}",
        a.text
    );
    assert_eq!(seen, a.text);
}

#[tokio::test]
async fn a_stalled_stream_hits_the_timeout() {
    let (base, _r) = fake_server(Script::Stall("Namaste")).await;
    let p = provider(&base, 300);
    let mut seen = String::new();
    let started = std::time::Instant::now();
    let err = p
        .stream(&[ChatMessage::new("user", "hi")], &mut |t: &str| {
            seen.push_str(t)
        })
        .await
        .expect_err("stalls");
    assert!(matches!(err, ProviderError::Timeout), "{err:?}");
    assert_eq!(seen, "Namaste");
    assert!(started.elapsed() < Duration::from_secs(5));

    // Through `answer`, the visitor gets the partial text and an honest ending.
    let mut relayed = String::new();
    let a = answer(Some(&p), &BRIEF, &[], "hi", 1000, &mut |t: &str| {
        relayed.push_str(t)
    })
    .await;
    assert!(a.text.starts_with("Namaste"));
    assert!(a.asks_for_email);
    assert_eq!(relayed, a.text);
}

#[tokio::test]
async fn an_unreachable_server_is_a_connect_error_and_falls_back() {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").expect("bind");
    let base = format!("http://{}", listener.local_addr().expect("addr"));
    drop(listener);
    let p = provider(&base, 500);
    let err = p
        .stream(&[ChatMessage::new("user", "hi")], &mut |_: &str| {})
        .await
        .expect_err("refused");
    assert!(matches!(err, ProviderError::Connect(_)), "{err:?}");
    let a = answer(
        Some(&p),
        &BRIEF,
        &[],
        "talk to a human please",
        1000,
        &mut |_: &str| {},
    )
    .await;
    assert_eq!(a.source, Source::Builtin);
    assert!(a.text.contains("+91 98290 12345"), "{}", a.text);
}

#[test]
fn history_is_trimmed_to_the_budget_keeping_the_newest() {
    let history: Vec<ChatMessage> = (0..10)
        .map(|i| {
            ChatMessage::new(
                if i % 2 == 0 { "user" } else { "assistant" },
                &format!("{i}{}", "x".repeat(39)),
            )
        })
        .collect();
    let kept = trim_history(&history, 30); // about 120 characters: the last 3 messages
    assert_eq!(kept.len(), 3);
    assert!(kept[2].content.starts_with('9'));
    assert!(kept[0].content.starts_with('7'));
    assert_eq!(
        trim_history(&history, 0).len(),
        1,
        "the newest message is always kept"
    );
}
