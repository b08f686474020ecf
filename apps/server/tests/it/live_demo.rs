//! The landing page's live demo: the real widget's calls on the demo
//! campaign are answered (the builtin assistant, the offer form, the email
//! checked) and nothing is stored for anyone.

use sea_orm::{EntityTrait, PaginatorTrait};
use serde_json::json;

use crate::helpers::spawn_app;

#[tokio::test]
async fn the_live_demo_answers_the_widget_and_keeps_nothing() {
    let app = spawn_app().await;
    let page = app
        .client
        .get(app.url("/live-demo"))
        .send()
        .await
        .expect("page");
    assert_eq!(page.status(), 200);
    let html = page.text().await.expect("html");
    assert!(html.contains("data-campaign-id=\"live-demo\""), "{html}");
    assert!(html.contains(&format!("data-api-url=\"{}/live-demo\"", app.base)));
    assert!(html.contains("/live-demo/captions.js"));
    let popup = app
        .client
        .get(app.url("/live-demo/captions.js"))
        .send()
        .await
        .expect("captions");
    assert_eq!(popup.status(), 200);

    let config = app
        .get("/live-demo/api/widget/campaigns/live-demo/config", None)
        .await;
    assert_eq!(config.status, 200, "{}", config.body);
    assert_eq!(config.body["active"], true);
    assert_eq!(config.body["campaign"]["exitIntent"]["delay"], 0);
    // Only the demo campaign: a real campaign id is not reachable through the demo.
    let other = app
        .get(
            "/live-demo/api/widget/campaigns/01234567-89ab-7def-8123-456789abcdef/config",
            None,
        )
        .await;
    assert_eq!(other.status, 404);

    let event = app
        .post(
            "/live-demo/api/widget/events",
            json!({"campaignId": "live-demo", "visitorId": "v_demo12345", "type": "impression"}),
        )
        .await;
    assert_eq!(event.status, 202);
    assert_eq!(event.body["counted"], false);
    let start = app
        .post(
            "/live-demo/api/widget/conversations",
            json!({"campaignId": "live-demo", "visitorId": "v_demo12345"}),
        )
        .await;
    assert_eq!(start.status, 201, "{}", start.body);
    let id = start.body["conversationId"]
        .as_str()
        .expect("id")
        .to_string();
    let reply = app
        .post(
            &format!("/live-demo/api/widget/conversations/{id}/messages"),
            json!({"message": "Is there a discount on my first order?"}),
        )
        .await;
    assert_eq!(reply.status, 200, "{}", reply.body);
    assert!(
        reply.body["reply"]
            .as_str()
            .expect("reply")
            .contains("WELCOME10")
    );
    assert_eq!(reply.body["form"]["id"], "first-order-offer");
    // The email is checked like a real form's.
    let bad = app
        .post(
            &format!("/live-demo/api/widget/conversations/{id}/forms"),
            json!({"formId": "first-order-offer", "values": {"email": "not an email"}}),
        )
        .await;
    assert_eq!(bad.status, 400, "{}", bad.body);
    let good = app
        .post(
            &format!("/live-demo/api/widget/conversations/{id}/forms"),
            json!({"formId": "first-order-offer", "values": {"email": "prospect@example.com"}}),
        )
        .await;
    assert_eq!(good.status, 200, "{}", good.body);
    assert_eq!(good.body["collectedData"]["email"], "prospect@example.com");

    // Nothing of it is anyone's: no campaign, conversation or customer exists.
    app.events.flush().await;
    let db = &app.db.conn;
    assert_eq!(
        ca_campaigns::entities::campaign::Entity::find()
            .count(db)
            .await
            .expect("n"),
        0
    );
    assert_eq!(
        ca_conversations::entities::conversation::Entity::find()
            .count(db)
            .await
            .expect("n"),
        0
    );
    assert_eq!(
        ca_customers::entities::customer::Entity::find()
            .count(db)
            .await
            .expect("n"),
        0
    );
}
