//! How an A/B test ends: the owner's maximum duration and auto-promote
//! (checked, stored, changed on an open test), reads that write nothing, and
//! the decision worker that records a due call once, emails the owner,
//! queues a browser notice and promotes the winner when the owner chose so.

use chrono::{Duration, Utc};
use sea_orm::{ColumnTrait, EntityTrait, QueryFilter, Set};
use serde_json::{Value, json};

use ca_experiments::ExperimentService;
use ca_experiments::decisions::decide_due;
use ca_experiments::entities::test;
use ca_experiments::service::{Tally, record};

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

fn test_body(extra: Value) -> Value {
    let mut body = json!({
        "name": "Headline",
        "metric": "conversionRate",
        "variants": [
            {"name": "Control", "weight": 50, "overrides": {}},
            {"name": "Urgent", "weight": 50, "overrides": {"popup": {"title": "Only today: 10% off"}}}
        ]
    });
    if let (Some(b), Some(e)) = (body.as_object_mut(), extra.as_object()) {
        for (k, v) in e {
            b.insert(k.clone(), v.clone());
        }
    }
    body
}

/// Starts a test; its id and its arms' ids.
async fn start(app: &TestApp, token: &str, campaign: &str, extra: Value) -> (String, Vec<String>) {
    let r = app
        .send(
            "POST",
            &format!("/api/campaigns/{campaign}/tests"),
            Some(token),
            test_body(extra),
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

/// Counts for each arm: (visitors, leads), all on the start day (one
/// impression per visitor).
async fn seed(app: &TestApp, test_id: &str, arms: &[String], counts: &[(i64, i64)]) {
    let day = Utc::now().date_naive();
    for (arm, (impressions, leads)) in arms.iter().zip(counts) {
        record(
            &app.db.conn,
            test_id,
            arm,
            day,
            Tally {
                visitors: *impressions,
                impressions: *impressions,
                leads: *leads,
                ..Tally::default()
            },
        )
        .await
        .unwrap();
    }
}

async fn row(app: &TestApp, test_id: &str) -> test::Model {
    test::Entity::find_by_id(test_id.to_string())
        .one(&app.db.conn)
        .await
        .unwrap()
        .unwrap()
}

/// The A/B test emails in the outbox to `email`: (subject, body).
async fn test_emails(app: &TestApp, email: &str) -> Vec<(String, String)> {
    ca_auth::mailer::outbox(&app.db.conn, Some(email), 100)
        .await
        .unwrap()
        .into_iter()
        .filter(|m| m.subject.contains("A/B test"))
        .map(|m| (m.subject, m.body))
        .collect()
}

/// The owner's browser with notifications on (so notices are queued).
async fn subscribe_browser(app: &TestApp, owner_id: &str) {
    use ca_push::entities::subscription;
    subscription::Entity::insert(subscription::ActiveModel {
        id: Set(uuid::Uuid::now_v7().to_string()),
        owner_id: Set(owner_id.to_string()),
        endpoint: Set(format!("https://push.invalid/{owner_id}")),
        p256dh: Set("x".into()),
        auth: Set("y".into()),
        user_agent: Set(None),
        created_at: Set(Utc::now()),
        updated_at: Set(Utc::now()),
    })
    .exec(&app.db.conn)
    .await
    .unwrap();
}

async fn test_notices(app: &TestApp, owner_id: &str) -> Vec<Value> {
    use ca_push::entities::event;
    event::Entity::find()
        .filter(event::Column::OwnerId.eq(owner_id))
        .filter(event::Column::Kind.eq("test"))
        .all(&app.db.conn)
        .await
        .unwrap()
        .into_iter()
        .map(|e| serde_json::from_str(&e.detail).unwrap())
        .collect()
}

async fn decide(app: &TestApp, now: chrono::DateTime<Utc>) -> usize {
    let mailer = ca_auth::Mailer::new(None, "ConvertAssist <noreply@example.in>").unwrap();
    decide_due(&app.db.conn, &mailer, &app.base, now)
        .await
        .unwrap()
}

async fn popup_title(app: &TestApp, token: &str, campaign: &str) -> Value {
    let c = app
        .get(&format!("/api/campaigns/{campaign}"), Some(token))
        .await;
    c.body["campaign"]["settings"]["popup"]["title"].clone()
}

#[tokio::test]
async fn bad_endings_are_refused_and_change_nothing() {
    let app = spawn_app().await;
    let (token, id) = owner_with_campaign(&app, "ab-end-bad@example.in").await;
    let t = Some(token.as_str());
    let path = format!("/api/campaigns/{id}/tests");
    let cases = [
        (json!({"maxDays": 13}), "maxDays"),
        (json!({"maxDays": 91}), "maxDays"),
        (json!({"maxDays": 20.5}), "maxDays"),
        (json!({"maxDays": "30"}), "maxDays"),
        (json!({"maxDays": true}), "maxDays"),
        (json!({"autoPromote": "yes"}), "autoPromote"),
        (json!({"autoPromote": 1}), "autoPromote"),
    ];
    for (extra, field) in &cases {
        let r = app.send("POST", &path, t, test_body(extra.clone())).await;
        assert_eq!(r.status, 400, "{extra} → {}", r.body);
        assert_eq!(r.body["success"], false);
        assert_eq!(r.body["code"], "validation_failed");
        assert!(r.body["errors"][field].is_array(), "{}", r.body);
    }
    let r = app
        .send("POST", &path, t, test_body(json!({"maxDays": 13})))
        .await;
    assert_eq!(
        r.body["message"],
        "The maximum duration is a whole number of days from 14 to 90"
    );
    assert_eq!(app.get(&path, t).await.body["data"], json!([]));

    // Left out: 30 days, not promoted by itself.
    let created = app.send("POST", &path, t, test_body(json!({}))).await;
    assert_eq!(created.status, 201, "{}", created.body);
    assert_eq!(created.body["data"]["maxDays"], 30);
    assert_eq!(created.body["data"]["autoPromote"], false);
    assert_eq!(created.body["data"]["notifiedAt"], Value::Null);
    let test_id = created.body["data"]["id"].as_str().unwrap();
    let one = format!("{path}/{test_id}");
    for (extra, field) in cases {
        let r = app.send("PATCH", &one, t, extra.clone()).await;
        assert_eq!(r.status, 400, "{extra} → {}", r.body);
        assert!(r.body["errors"][field].is_array(), "{}", r.body);
    }
    // Both fields at once, one of them bad: neither is stored.
    let r = app
        .send(
            "PATCH",
            &one,
            t,
            json!({"maxDays": 60, "autoPromote": "on"}),
        )
        .await;
    assert_eq!(r.status, 400, "{}", r.body);
    let nothing = app.send("PATCH", &one, t, json!({})).await;
    assert_eq!(nothing.status, 400, "{}", nothing.body);
    let read = app.get(&one, t).await;
    assert_eq!(read.body["data"]["maxDays"], 30);
    assert_eq!(read.body["data"]["autoPromote"], false);

    // Another owner can change nothing.
    let (other, _) = app.register("ab-end-other@example.in", "secret1").await;
    let stolen = app
        .send("PATCH", &one, Some(&other), json!({"maxDays": 14}))
        .await;
    assert_eq!(stolen.status, 404, "{}", stolen.body);
    assert_eq!(app.get(&one, t).await.body["data"]["maxDays"], 30);
}

#[tokio::test]
async fn an_open_test_changes_its_ending_without_a_new_version() {
    let app = spawn_app().await;
    let (token, id) = owner_with_campaign(&app, "ab-end-change@example.in").await;
    let t = Some(token.as_str());
    let (test_id, arms) = start(
        &app,
        &token,
        &id,
        json!({"maxDays": 21, "autoPromote": true}),
    )
    .await;
    let one = format!("/api/campaigns/{id}/tests/{test_id}");
    let read = app.get(&one, t).await;
    assert_eq!(read.body["data"]["maxDays"], 21);
    assert_eq!(read.body["data"]["autoPromote"], true);
    let changed = app
        .send(
            "PATCH",
            &one,
            t,
            json!({"maxDays": 45, "autoPromote": false}),
        )
        .await;
    assert_eq!(changed.status, 200, "{}", changed.body);
    assert_eq!(changed.body["data"]["maxDays"], 45);
    assert_eq!(changed.body["data"]["autoPromote"], false);
    assert_eq!(changed.body["data"]["id"], test_id.as_str());
    assert_eq!(changed.body["data"]["version"], 1);
    // A paused test too, one field at a time.
    app.send("POST", &format!("{one}/pause"), t, json!({}))
        .await;
    let paused = app
        .send("PATCH", &one, t, json!({"autoPromote": true}))
        .await;
    assert_eq!(paused.status, 200, "{}", paused.body);
    assert_eq!(paused.body["data"]["status"], "paused");
    assert_eq!(paused.body["data"]["maxDays"], 45);
    assert_eq!(paused.body["data"]["autoPromote"], true);
    // A closed test is not changed.
    let promote = format!("{one}/promote");
    let done = app
        .send("POST", &promote, t, json!({"variantId": arms[0]}))
        .await;
    assert_eq!(done.status, 200, "{}", done.body);
    let closed = app.send("PATCH", &one, t, json!({"maxDays": 60})).await;
    assert_eq!(closed.status, 422, "{}", closed.body);
    assert_eq!(closed.body["code"], "test_closed");
    assert_eq!(app.get(&one, t).await.body["data"]["maxDays"], 45);
}

#[tokio::test]
async fn a_winner_is_recorded_once_by_the_worker_and_the_owner_told() {
    let app = spawn_app().await;
    let email = "ab-decide@example.in";
    let (token, id) = owner_with_campaign(&app, email).await;
    let (test_id, arms) = start(&app, &token, &id, json!({})).await;
    let owner_id = row(&app, &test_id).await.owner_id;
    subscribe_browser(&app, &owner_id).await;
    seed(&app, &test_id, &arms, &[(1000, 20), (1000, 80)]).await;
    let service = ExperimentService::new(app.db.conn.clone());

    // Day 6: no call, nothing recorded, nobody told.
    let early = Utc::now() + Duration::days(6);
    assert_eq!(decide(&app, early).await, 0);
    assert!(row(&app, &test_id).await.decided_at.is_none());

    // Day 8: a read shows the call as computed and writes nothing.
    let later = Utc::now() + Duration::days(8);
    let read = service
        .get_at(&owner_id, &id, &test_id, later)
        .await
        .unwrap();
    assert_eq!(read.state, "winner");
    assert_eq!(
        read.decision.as_ref().unwrap().winner.as_deref(),
        Some(arms[1].as_str())
    );
    assert!(read.notified_at.is_none());
    let stored = row(&app, &test_id).await;
    assert!(stored.decided_at.is_none(), "a read recorded the call");
    assert!(stored.winner.is_none());
    assert!(test_emails(&app, email).await.is_empty());

    // Two servers' rounds at once: one records, one email, one notice.
    let (a, b) = tokio::join!(decide(&app, later), decide(&app, later));
    assert_eq!(a + b, 1, "{a} + {b}");
    assert_eq!(decide(&app, later + Duration::minutes(1)).await, 0);
    let stored = row(&app, &test_id).await;
    assert_eq!(stored.winner.as_deref(), Some(arms[1].as_str()));
    assert!(stored.decided_at.is_some());
    assert!(stored.notified_at.is_some());
    // Auto-promote off: the campaign is as it was and the test runs on with
    // its decision until the owner promotes.
    assert_eq!(stored.status, "running");
    assert_eq!(
        popup_title(&app, &token, &id).await,
        "Wait! Before you go..."
    );
    let emails = test_emails(&app, email).await;
    assert_eq!(emails.len(), 1, "{emails:?}");
    let (subject, body) = &emails[0];
    assert_eq!(
        subject,
        "Your A/B test \"Headline\" has a winner: \"Urgent\""
    );
    assert!(
        body.contains("\"Urgent\" turns more visitors into leads than the control"),
        "{body}"
    );
    assert!(
        body.contains("Promote it into your campaign with one click"),
        "{body}"
    );
    assert!(
        body.contains(&format!("{}/campaigns/{id}/edit?tab=tests", app.base)),
        "{body}"
    );
    let notices = test_notices(&app, &owner_id).await;
    assert_eq!(notices.len(), 1, "{notices:?}");
    assert_eq!(notices[0]["winner"], "Urgent");
    assert_eq!(notices[0]["promoted"], false);
    assert_eq!(notices[0]["testId"], test_id.as_str());
    // The results now carry the recorded call and when the owner was told.
    let t = Some(token.as_str());
    let r = app
        .get(&format!("/api/campaigns/{id}/tests/{test_id}"), t)
        .await;
    assert_eq!(r.body["data"]["decision"]["winner"], arms[1].as_str());
    assert!(r.body["data"]["notifiedAt"].is_string(), "{}", r.body);
    assert_eq!(r.body["data"]["status"], "running");
}

#[tokio::test]
async fn auto_promote_writes_the_winner_into_the_campaign_and_closes_the_test() {
    let app = spawn_app().await;
    let email = "ab-auto@example.in";
    let (token, id) = owner_with_campaign(&app, email).await;
    let (test_id, arms) = start(&app, &token, &id, json!({"autoPromote": true})).await;
    seed(&app, &test_id, &arms, &[(1000, 20), (1000, 80)]).await;
    let later = Utc::now() + Duration::days(9);
    assert_eq!(decide(&app, later).await, 1);
    let stored = row(&app, &test_id).await;
    assert_eq!(stored.status, "closed");
    assert!(stored.closed_at.is_some());
    assert_eq!(stored.winner.as_deref(), Some(arms[1].as_str()));
    assert!(
        stored
            .decision_reason
            .as_deref()
            .unwrap()
            .contains("Promoted automatically"),
        "{:?}",
        stored.decision_reason
    );
    assert_eq!(popup_title(&app, &token, &id).await, "Only today: 10% off");
    let config = app
        .get(&format!("/api/widget/campaigns/{id}/config"), None)
        .await;
    assert!(config.body["campaign"].get("test").is_none());
    let emails = test_emails(&app, email).await;
    assert_eq!(emails.len(), 1, "{emails:?}");
    assert!(
        emails[0].1.contains("promoted automatically"),
        "{}",
        emails[0].1
    );
    // Closed tests stay readable.
    let r = app
        .get(
            &format!("/api/campaigns/{id}/tests/{test_id}"),
            Some(&token),
        )
        .await;
    assert_eq!(r.body["data"]["state"], "closed");
    assert_eq!(r.body["data"]["variants"][1]["leads"], 80);
    assert_eq!(decide(&app, later + Duration::days(1)).await, 0);
    assert_eq!(test_emails(&app, email).await.len(), 1);
}

#[tokio::test]
async fn an_inconclusive_test_is_called_after_its_maximum_duration_not_before() {
    let app = spawn_app().await;
    let email = "ab-inconclusive@example.in";
    let (token, id) = owner_with_campaign(&app, email).await;
    let (test_id, arms) = start(&app, &token, &id, json!({"maxDays": 14})).await;
    let owner_id = row(&app, &test_id).await.owner_id;
    subscribe_browser(&app, &owner_id).await;
    seed(&app, &test_id, &arms, &[(1000, 50), (1000, 50)]).await;
    let started = row(&app, &test_id).await.started_at;
    assert_eq!(decide(&app, started + Duration::days(13)).await, 0);
    assert!(test_emails(&app, email).await.is_empty());
    assert!(test_notices(&app, &owner_id).await.is_empty());
    let due = started + Duration::days(14) + Duration::minutes(1);
    assert_eq!(decide(&app, due).await, 1);
    let stored = row(&app, &test_id).await;
    assert!(stored.decided_at.is_some());
    assert!(stored.winner.is_none());
    assert_eq!(stored.status, "running");
    let emails = test_emails(&app, email).await;
    assert_eq!(emails.len(), 1);
    assert_eq!(emails[0].0, "Your A/B test \"Headline\" is inconclusive");
    assert!(
        emails[0]
            .1
            .contains("After the maximum duration of 14 days"),
        "{}",
        emails[0].1
    );
    let notices = test_notices(&app, &owner_id).await;
    assert_eq!(notices.len(), 1);
    assert_eq!(notices[0]["winner"], Value::Null);
    // A longer maximum duration takes the call back: the test goes on.
    let one = format!("/api/campaigns/{id}/tests/{test_id}");
    let longer = app
        .send("PATCH", &one, Some(&token), json!({"maxDays": 30}))
        .await;
    assert_eq!(longer.status, 200, "{}", longer.body);
    let stored = row(&app, &test_id).await;
    assert!(stored.decided_at.is_none());
    assert!(stored.notified_at.is_none());
    assert_eq!(decide(&app, due).await, 0);
}

#[tokio::test]
async fn inconclusive_with_auto_promote_closes_and_keeps_the_campaign() {
    let app = spawn_app().await;
    let email = "ab-inconclusive-auto@example.in";
    let (token, id) = owner_with_campaign(&app, email).await;
    let (test_id, arms) = start(
        &app,
        &token,
        &id,
        json!({"maxDays": 14, "autoPromote": true}),
    )
    .await;
    seed(&app, &test_id, &arms, &[(1000, 50), (1000, 50)]).await;
    let started = row(&app, &test_id).await.started_at;
    assert_eq!(decide(&app, started + Duration::days(15)).await, 1);
    let stored = row(&app, &test_id).await;
    assert_eq!(stored.status, "closed");
    assert!(stored.winner.is_none());
    assert_eq!(
        popup_title(&app, &token, &id).await,
        "Wait! Before you go..."
    );
    let emails = test_emails(&app, email).await;
    assert!(
        emails[0]
            .1
            .contains("the test is closed and your campaign is unchanged"),
        "{}",
        emails[0].1
    );
}

/// Deleting a campaign ends its test: the next round closes it without a
/// call and without emailing the owner about a campaign that is gone; a
/// test of a campaign that still exists is untouched.
#[tokio::test]
async fn a_deleted_campaigns_test_is_closed_without_telling_the_owner() {
    let app = spawn_app().await;
    let email = "ab-deleted@example.in";
    let (token, id) = owner_with_campaign(&app, email).await;
    let (test_id, arms) = start(&app, &token, &id, json!({"maxDays": 14})).await;
    seed(&app, &test_id, &arms, &[(1000, 50), (1000, 50)]).await;
    let (other_token, other_id) = owner_with_campaign(&app, "ab-kept@example.in").await;
    let (kept, _) = start(&app, &other_token, &other_id, json!({})).await;
    let r = app
        .send(
            "DELETE",
            &format!("/api/campaigns/{id}"),
            Some(&token),
            json!({}),
        )
        .await;
    assert!(r.status == 200 || r.status == 204, "{}", r.body);
    // Past its maximum duration, where an inconclusive call would be due.
    let started = row(&app, &test_id).await.started_at;
    assert_eq!(decide(&app, started + Duration::days(15)).await, 0);
    let stored = row(&app, &test_id).await;
    assert_eq!(stored.status, "closed");
    assert!(stored.closed_at.is_some());
    assert!(stored.winner.is_none());
    assert_eq!(
        stored.decision_reason.as_deref(),
        Some(ca_experiments::decisions::CAMPAIGN_DELETED)
    );
    assert!(test_emails(&app, email).await.is_empty());
    assert_eq!(row(&app, &kept).await.status, "running");
}

/// An install with tests upgrades to a 30-day maximum and no auto-promote;
/// a call a read recorded on an open test is taken back (so the worker
/// makes it and tells the owner); the migration undoes cleanly.
#[tokio::test]
async fn the_migration_adds_the_ending_to_existing_tests_and_undoes() {
    use ca_migrations::{Migrator, MigratorTrait};
    use sea_orm::ConnectionTrait;
    // Undone back to before this migration, whatever came after it.
    let steps = crate::helpers::steps_back_to("test_decisions");
    let app = spawn_app().await;
    let (token, id) = owner_with_campaign(&app, "ab-migrate@example.in").await;
    let (open, _) = start(&app, &token, &id, json!({"maxDays": 60})).await;
    let (token2, id2) = owner_with_campaign(&app, "ab-migrate-2@example.in").await;
    let (closed, arms2) = start(&app, &token2, &id2, json!({})).await;
    let done = app
        .send(
            "POST",
            &format!("/api/campaigns/{id2}/tests/{closed}/promote"),
            Some(&token2),
            json!({"variantId": arms2[1]}),
        )
        .await;
    assert_eq!(done.status, 200, "{}", done.body);

    Migrator::down(&app.db.conn, Some(steps))
        .await
        .expect("down");
    let gone = app
        .db
        .conn
        .execute_unprepared("SELECT max_days FROM experiment_tests")
        .await;
    assert!(gone.is_err(), "max_days is still there after down");
    // Before the upgrade a read recorded the open test's call.
    app.db
        .conn
        .execute_unprepared(&format!(
            "UPDATE experiment_tests SET decided_at = started_at, decision_reason = 'seen' \
             WHERE id = '{open}'"
        ))
        .await
        .unwrap();
    Migrator::up(&app.db.conn, None).await.expect("up");
    let o = row(&app, &open).await;
    assert_eq!(o.max_days, 30);
    assert!(!o.auto_promote);
    assert!(o.decided_at.is_none() && o.decision_reason.is_none());
    assert!(o.notified_at.is_none());
    let c = row(&app, &closed).await;
    assert_eq!(c.max_days, 30);
    assert_eq!(c.status, "closed");
    assert_eq!(c.winner.as_deref(), Some(arms2[1].as_str()));
    assert!(c.decided_at.is_some());
}
