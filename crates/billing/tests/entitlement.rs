#![allow(clippy::expect_used, clippy::unwrap_used)]
//! Entitlements and the demo payment against a real database.

use ca_auth::entities::user;
use ca_billing::BillingError;
use ca_billing::dto::Seller;
use ca_billing::meter::{UsageMeter, Used};
use ca_billing::payu::Credentials;
use ca_billing::plans::entitlement;
use ca_billing::{BillingConfig, BillingService, Gateway};
use ca_migrations::testing::TestDb;
use chrono::{Duration, Utc};
use sea_orm::{ActiveModelTrait, Set};

/// These tests read no usage: an owner here has no campaigns or visitors.
struct NothingUsed;

#[async_trait::async_trait]
impl UsageMeter for NothingUsed {
    async fn used(&self, _: &str, _: chrono::DateTime<Utc>) -> Result<Used, BillingError> {
        Ok(Used::default())
    }
}

fn service(db: &TestDb, demo: bool) -> BillingService {
    BillingService::new(
        db.conn.clone(),
        BillingConfig {
            public_url: "http://localhost".into(),
            gateway: Gateway::Simulator,
            simulator: Credentials {
                key: "k".into(),
                salt: "s".into(),
            },
            demo_enabled: demo,
            seller: Seller {
                name: "ConvertAssist".into(),
                address: String::new(),
                gstin: None,
                state_code: None,
            },
            tax: Default::default(),
        },
        std::sync::Arc::new(NothingUsed),
    )
}

async fn owner(db: &TestDb, status: &str, plan: &str) -> user::Model {
    let now = Utc::now();
    user::ActiveModel {
        id: Set(ca_core::ids::new_id().to_string()),
        name: Set("Meera".into()),
        email: Set(format!("{}@example.in", ca_core::ids::new_id())),
        phone: Set("+91 9000000000".into()),
        password_hash: Set("x".into()),
        role: Set("user".into()),
        plan_id: Set(plan.into()),
        subscription_status: Set(status.into()),
        trial_ends_at: Set(Some(now + Duration::days(3))),
        subscription_ends_at: Set(None),
        token_version: Set(0),
        email_notifications: Set(true),
        push_notifications: Set(false),
        last_login_at: Set(None),
        created_at: Set(now),
        updated_at: Set(now),
    }
    .insert(&db.conn)
    .await
    .expect("owner")
}

#[tokio::test]
async fn trial_active_and_free_entitlements() {
    let db = TestDb::new().await.expect("db");
    let now = Utc::now();
    let trial = owner(&db, "trial", "free").await;
    let e = entitlement(&db.conn, &trial, now).await.expect("trial");
    assert_eq!(
        (e.campaigns, e.visitors_per_month, e.is_free),
        (1, 1000, true)
    );

    let free = owner(&db, "free", "free").await;
    let e = entitlement(&db.conn, &free, now).await.expect("free");
    assert_eq!(
        (e.campaigns, e.plan_id.as_str(), e.is_free),
        (0, "free", true)
    );

    let paid = service(&db, true)
        .complete_demo_payment(&free, "basic")
        .await
        .expect("pay");
    let e = entitlement(&db.conn, &paid, now).await.expect("paid");
    assert_eq!(
        (e.campaigns, e.visitors_per_month, e.is_free),
        (1, 10_000, false)
    );
    assert_eq!(e.status, ca_auth::dto::SubscriptionStatus::Active);

    // An active subscription past its end reads as expired and falls back to free.
    let later = now + Duration::days(40);
    let e = entitlement(&db.conn, &paid, later).await.expect("expired");
    assert_eq!(
        (e.status.as_str(), e.campaigns, e.is_free),
        ("expired", 0, true)
    );
}

#[tokio::test]
async fn demo_payment_is_refused_when_a_provider_is_configured() {
    let db = TestDb::new().await.expect("db");
    let free = owner(&db, "free", "free").await;
    let refused = service(&db, false)
        .complete_demo_payment(&free, "basic")
        .await;
    assert!(matches!(refused, Err(BillingError::DemoPaymentsDisabled)));
    assert_eq!(
        service(&db, true).list_plans().await.expect("plans").len(),
        4
    );
}
