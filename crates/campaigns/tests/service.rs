#![allow(clippy::expect_used, clippy::unwrap_used)]
//! Campaign service against a real database.

use std::sync::Arc;

use ca_auth::dto::RegisterIn;
use ca_auth::{AuthService, JwtKeys, Mailer};
use ca_campaigns::CampaignError;
use ca_campaigns::CampaignService;
use ca_campaigns::dto::CampaignIn;
use ca_core::rate_limit::RateLimiter;
use ca_migrations::testing::TestDb;

async fn owner(db: &TestDb, email: &str) -> ca_auth::entities::user::Model {
    let auth = AuthService::new(
        db.conn.clone(),
        JwtKeys::new("campaign-test-secret-campaign-test-secret", 1),
        Mailer::new(None, "x <x@example.in>").expect("mailer"),
        Arc::new(RateLimiter::memory()),
        "http://localhost",
    );
    let session = auth
        .register(
            RegisterIn {
                name: "Kiran".into(),
                email: email.into(),
                password: "secret1".into(),
                phone: "+91 9000000000".into(),
            },
            "ip",
        )
        .await
        .expect("register");
    auth.authenticate(&session.token).await.expect("user")
}

fn input(name: &str) -> CampaignIn {
    serde_json::from_value(serde_json::json!({"name": name, "websiteUrl": "https://example.in"}))
        .expect("input")
}

#[tokio::test]
async fn owners_see_only_their_campaigns_and_the_trial_limit_holds() {
    let db = TestDb::new().await.expect("db");
    let a = owner(&db, "a@example.in").await;
    let b = owner(&db, "b@example.in").await;
    let created = CampaignService::new(db.conn.clone())
        .create(&a, input("A1"))
        .await
        .expect("create");
    assert!(matches!(
        CampaignService::new(db.conn.clone())
            .create(&a, input("A2"))
            .await,
        Err(CampaignError::LimitReached {
            is_free_plan: true,
            limit: 1
        })
    ));
    assert!(matches!(
        CampaignService::new(db.conn.clone())
            .get(&b.id, &created.id)
            .await,
        Err(CampaignError::NotFound)
    ));
    assert!(matches!(
        CampaignService::new(db.conn.clone())
            .delete(&b.id, &created.id)
            .await,
        Err(CampaignError::NotFound)
    ));
    assert_eq!(
        CampaignService::new(db.conn.clone())
            .list(&a.id)
            .await
            .expect("list")
            .len(),
        1
    );
    assert!(
        CampaignService::new(db.conn.clone())
            .list(&b.id)
            .await
            .expect("list")
            .is_empty()
    );
    let now = chrono::Utc::now();
    let used = ca_campaigns::counters::used(&db.conn, &a.id, now)
        .await
        .expect("used");
    let usage = ca_billing::usage::usage(&db.conn, &a, used, now)
        .await
        .expect("usage");
    assert_eq!((usage.campaigns.current, usage.campaigns.limit), (1, 1));
}
