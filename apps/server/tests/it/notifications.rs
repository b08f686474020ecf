//! Owner emails: a lead at once, the next ones as a digest, nothing when the
//! owner turned emails off; a receipt once per successful payment.

use chrono::{Duration, Utc};
use serde_json::json;

use crate::billing::campaign;
use crate::helpers::{TestApp, spawn_app};

fn mailer() -> ca_auth::Mailer {
    ca_auth::Mailer::new(None, "ConvertAssist <no-reply@convertassist.local>").expect("mailer")
}

async fn lead(app: &TestApp, campaign_id: &str, email: &str) {
    let started = app
        .post(
            "/api/widget/conversations",
            json!({"campaignId": campaign_id, "visitorId": format!("visitor-{}", email.len())}),
        )
        .await;
    assert_eq!(started.status, 201, "{}", started.body);
    let conversation = started.body["conversationId"]
        .as_str()
        .expect("id")
        .to_string();
    let sent = app
        .post(
            &format!("/api/widget/conversations/{conversation}/forms"),
            json!({"values": {"email": email}}),
        )
        .await;
    assert_eq!(sent.status, 200, "{}", sent.body);
}

async fn subjects(app: &TestApp, to: &str) -> Vec<String> {
    let mut s: Vec<String> = ca_auth::mailer::outbox(&app.db.conn, Some(to), 100)
        .await
        .expect("outbox")
        .into_iter()
        .map(|m| m.subject)
        .collect();
    s.sort();
    s
}

#[tokio::test]
async fn leads_are_emailed_then_digested_and_the_setting_is_honoured() {
    let app = spawn_app().await;
    let (token, _) = app.register("owner@example.in", "correct horse 1").await;
    let c = app
        .send("POST", "/api/campaigns", Some(&token), campaign("Diwali"))
        .await;
    let campaign_id = c.body["campaign"]["_id"].as_str().expect("id").to_string();
    let public = app.base.clone();
    let now = Utc::now();
    let before = app.get("/api/campaigns", Some(&token)).await;
    assert_eq!(
        before.body["campaigns"][0]["analytics"]["lastConversionAt"],
        serde_json::Value::Null
    );
    lead(&app, &campaign_id, "first@example.in").await;
    // The dashboard's activity dates a conversion by when it happened.
    let after = app.get("/api/campaigns", Some(&token)).await;
    let at: chrono::DateTime<Utc> = after.body["campaigns"][0]["analytics"]["lastConversionAt"]
        .as_str()
        .expect("lastConversionAt")
        .parse()
        .expect("time");
    assert!((at - now).num_seconds().abs() < 30, "{at}");
    // Two servers doing the round at once queue one email between them.
    let (a, b) = (mailer(), mailer());
    let (one, two) = tokio::join!(
        ca_customers::notifications::send_due(&app.db.conn, &a, &public, now),
        ca_customers::notifications::send_due(&app.db.conn, &b, &public, now)
    );
    assert_eq!(one.expect("send") + two.expect("send"), 1);
    assert_eq!(
        subjects(&app, "owner@example.in").await,
        vec!["New lead: first@example.in"]
    );
    for who in ["a@example.in", "bb@example.in", "ccc@example.in"] {
        lead(&app, &campaign_id, who).await;
    }
    // Within the digest window: nothing more yet.
    assert_eq!(
        ca_customers::notifications::send_due(
            &app.db.conn,
            &mailer(),
            &public,
            now + Duration::minutes(5)
        )
        .await
        .expect("send"),
        0
    );
    assert_eq!(subjects(&app, "owner@example.in").await.len(), 1);
    // After it: one digest with the three.
    assert_eq!(
        ca_customers::notifications::send_due(
            &app.db.conn,
            &mailer(),
            &public,
            now + Duration::minutes(11)
        )
        .await
        .expect("send"),
        1
    );
    let mails = ca_auth::mailer::outbox(&app.db.conn, Some("owner@example.in"), 10)
        .await
        .expect("outbox");
    let digest = mails
        .iter()
        .find(|m| m.subject == "3 new leads")
        .expect("digest");
    for who in ["a@example.in", "bb@example.in", "ccc@example.in"] {
        assert!(digest.body.contains(who), "{}", digest.body);
    }
    assert!(digest.body.contains("Diwali"));
    // Turned off: the lead is not emailed, and not later either.
    let off = app
        .send(
            "PUT",
            "/api/auth/me",
            Some(&token),
            json!({"emailNotifications": false}),
        )
        .await;
    assert_eq!(off.status, 200, "{}", off.body);
    lead(&app, &campaign_id, "quiet@example.in").await;
    assert_eq!(
        ca_customers::notifications::send_due(
            &app.db.conn,
            &mailer(),
            &public,
            now + Duration::minutes(30)
        )
        .await
        .expect("send"),
        0
    );
    let on = app
        .send(
            "PUT",
            "/api/auth/me",
            Some(&token),
            json!({"emailNotifications": true}),
        )
        .await;
    assert_eq!(on.status, 200);
    assert_eq!(
        ca_customers::notifications::send_due(
            &app.db.conn,
            &mailer(),
            &public,
            now + Duration::minutes(60)
        )
        .await
        .expect("send"),
        0
    );
    assert_eq!(subjects(&app, "owner@example.in").await.len(), 2);
}

#[tokio::test]
async fn a_receipt_goes_out_once_per_successful_payment() {
    let app = spawn_app().await;
    let (token, _) = app.register("payer@example.in", "correct horse 1").await;
    let init = app
        .send(
            "POST",
            "/api/payment/initialize",
            Some(&token),
            json!({"udf2": "basic"}),
        )
        .await;
    let txnid = init.body["data"]["txnid"]
        .as_str()
        .expect("txnid")
        .to_string();
    let public = app.base.clone();
    let now = Utc::now();
    assert_eq!(
        ca_billing::receipts::send_due(&app.db.conn, &mailer(), &public, now)
            .await
            .expect("send"),
        0,
        "pending"
    );
    // Settled through the verify path of the simulator: pay it there first.
    let params: Vec<(String, String)> = init.body["data"]["params"]
        .as_object()
        .expect("params")
        .iter()
        .map(|(k, v)| (k.clone(), v.as_str().expect("text").to_string()))
        .collect();
    let mut fields = params.clone();
    fields.push(("outcome".into(), "success".into()));
    let page = app
        .client
        .post(app.url("/payment/simulator/complete"))
        .form(&fields)
        .send()
        .await
        .expect("send");
    assert_eq!(page.status(), 200);
    let verified = app
        .send(
            "POST",
            "/payment/verify",
            Some(&token),
            json!({"txnid": txnid}),
        )
        .await;
    assert_eq!(
        verified.body["data"]["status"], "success",
        "{}",
        verified.body
    );
    // Two servers doing the round at once queue one receipt between them.
    let (a, b) = (mailer(), mailer());
    let (one, two) = tokio::join!(
        ca_billing::receipts::send_due(&app.db.conn, &a, &public, now),
        ca_billing::receipts::send_due(&app.db.conn, &b, &public, now)
    );
    assert_eq!(one.expect("send") + two.expect("send"), 1);
    assert_eq!(
        ca_billing::receipts::send_due(&app.db.conn, &mailer(), &public, now)
            .await
            .expect("send"),
        0
    );
    let mails = ca_auth::mailer::outbox(&app.db.conn, Some("payer@example.in"), 10)
        .await
        .expect("outbox");
    assert_eq!(
        mails
            .iter()
            .filter(|m| m.subject.starts_with("Receipt"))
            .count(),
        1
    );
    let receipt = mails
        .iter()
        .find(|m| m.subject.starts_with("Receipt CA-000001"))
        .expect("receipt");
    assert!(receipt.body.contains("₹999.00"), "{}", receipt.body);
    // The tax invoice's GST: the buyer gave no state, so IGST.
    assert!(
        receipt
            .body
            .contains("Amount: ₹999.00\nTaxable value: ₹846.61\nIGST @ 18%: ₹152.39\n"),
        "{}",
        receipt.body
    );
    assert!(receipt.body.contains(&format!("/billing/invoice/{txnid}")));
}
