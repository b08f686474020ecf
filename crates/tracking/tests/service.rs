#![allow(clippy::expect_used, clippy::unwrap_used)]
//! The visitor-side service against a real database (SQLite, or PostgreSQL
//! when CA_TEST_POSTGRES_URL is set): where events may come from, switched-off
//! campaigns, monthly visitors and the owner's Preview, and purchases with
//! their attribution, duplicates and held orders.

use std::sync::Arc;
use std::time::Duration;

use chrono::Utc;
use sea_orm::{ColumnTrait, EntityTrait, PaginatorTrait, QueryFilter};
use serde_json::{Value, json};

use ca_auth::{AuthService, JwtKeys, Mailer, NewAccount, Role};
use ca_campaigns::CampaignService;
use ca_campaigns::entities::campaign;
use ca_conversations::{ConversationService, Limits};
use ca_core::rate_limit::RateLimiter;
use ca_migrations::testing::TestDb;
use ca_tracking::dto::{EventIn, PurchaseIn};
use ca_tracking::entities::purchase;
use ca_tracking::writer::{EventWriter, WriterConfig};
use ca_tracking::{TrackingConfig, TrackingError, TrackingService};

/// This server's own origin: the owner's Preview page.
const OWN: &str = "http://127.0.0.1:1";
const SITE: &str = "https://kesar.example.in";
const IP: &str = "203.0.113.7";

fn tracking(db: &TestDb) -> TrackingService {
    let limiter = Arc::new(RateLimiter::memory());
    let conversations = ConversationService::new(
        db.conn.clone(),
        ca_conversations::assistant::from_config(None, 2000).expect("assistant"),
        limiter.clone(),
        Limits::default(),
    );
    TrackingService::new(
        db.conn.clone(),
        limiter,
        EventWriter::start(db.conn.clone(), WriterConfig::default()),
        conversations,
        TrackingConfig {
            public_url: OWN.into(),
            config_cache: Duration::from_secs(10),
            attribution_days: 30,
            events_ip_per_minute: 10_000,
            events_campaign_per_minute: 100_000,
            new_visitors_per_address: 3,
            address_secret: "tracking-test-secret".into(),
        },
    )
}

/// An owner (in their trial) with one campaign on [`SITE`]; `settings` are
/// the campaign's settings as the dashboard sends them.
async fn owner_and_campaign(
    db: &TestDb,
    email: &str,
    settings: Value,
) -> (ca_auth::entities::user::Model, String) {
    let owner = AuthService::new(
        db.conn.clone(),
        JwtKeys::new("tracking-test-secret-tracking-test-secret", 1),
        Mailer::new(None, "x <x@example.in>").expect("mailer"),
        Arc::new(RateLimiter::memory()),
        "http://localhost",
    )
    .create_account(NewAccount {
        name: "Kiran".into(),
        email: email.into(),
        phone: "+91 9000000000".into(),
        password: "secret1".into(),
        role: Role::User,
    })
    .await
    .expect("owner");
    let input = serde_json::from_value(
        json!({"name": "Kesar exit offer", "websiteUrl": format!("{SITE}/shop"), "settings": settings}),
    )
    .expect("input");
    let created = CampaignService::new(db.conn.clone())
        .create(&owner, input)
        .await
        .expect("campaign");
    (owner, created.id)
}

fn event(campaign_id: &str, visitor_id: &str, kind: &str) -> EventIn {
    serde_json::from_value(
        json!({"campaignId": campaign_id, "visitorId": visitor_id, "type": kind}),
    )
    .expect("event")
}

fn order(campaign_id: &str, visitor_id: &str, order_id: &str, value: Value) -> PurchaseIn {
    serde_json::from_value(json!({
        "campaignId": campaign_id, "visitorId": visitor_id, "value": value,
        "currency": "INR", "orderId": order_id
    }))
    .expect("purchase")
}

async fn visitors(db: &TestDb, owner_id: &str) -> i64 {
    ca_campaigns::counters::visitors_in_month(&db.conn, owner_id, Utc::now())
        .await
        .expect("visitors")
}

async fn stored_campaign(db: &TestDb, id: &str) -> campaign::Model {
    campaign::Entity::find_by_id(id.to_string())
        .one(&db.conn)
        .await
        .expect("q")
        .expect("campaign")
}

#[tokio::test]
async fn events_are_accepted_only_from_the_campaigns_website() {
    let db = TestDb::new().await.expect("db");
    let (owner, id) = owner_and_campaign(&db, "events@example.in", json!({})).await;
    let svc = tracking(&db);
    let now = Utc::now();
    for origin in [
        None,
        Some("https://evil.example.com"),
        Some("https://kesar.example.in.evil.com"),
        Some("https://evilkesar.example.in"),
        Some("null"),
    ] {
        let refused = svc
            .event(event(&id, "v_foreigner_1", "pageview"), origin, IP, now)
            .await;
        assert!(
            matches!(refused, Err(TrackingError::ForeignOrigin)),
            "{origin:?}: {refused:?}"
        );
    }
    for origin in [
        SITE,
        "https://www.kesar.example.in",
        "https://blog.kesar.example.in",
    ] {
        assert!(
            svc.event(
                event(&id, "v_visitor_01", "pageview"),
                Some(origin),
                IP,
                now
            )
            .await
            .expect(origin),
            "{origin} is counted"
        );
    }
    svc.writer().flush().await;
    assert_eq!(visitors(&db, &owner.id).await, 1, "only the site's visitor");
}

#[tokio::test]
async fn a_switched_off_campaign_counts_nothing() {
    let db = TestDb::new().await.expect("db");
    let (owner, id) = owner_and_campaign(&db, "off@example.in", json!({})).await;
    let off = CampaignService::new(db.conn.clone())
        .toggle(&owner.id, &id)
        .await
        .expect("switch off");
    assert!(!off.is_active);
    let svc = tracking(&db);
    let now = Utc::now();
    for kind in ["pageview", "impression"] {
        let refused = svc
            .event(event(&id, "v_visitor_01", kind), Some(SITE), IP, now)
            .await;
        assert!(
            matches!(refused, Err(TrackingError::CampaignInactive)),
            "{kind}: {refused:?}"
        );
    }
    // The origin is checked first: a foreign page learns nothing more.
    assert!(matches!(
        svc.event(
            event(&id, "v_visitor_01", "pageview"),
            Some("https://evil.example.com"),
            IP,
            now
        )
        .await,
        Err(TrackingError::ForeignOrigin)
    ));
    svc.writer().flush().await;
    assert_eq!(visitors(&db, &owner.id).await, 0);
    let c = stored_campaign(&db, &id).await;
    assert_eq!((c.impressions, c.first_page_view_at), (0, None));
}

#[tokio::test]
async fn a_visitor_counts_once_a_month_and_the_preview_not_at_all() {
    let db = TestDb::new().await.expect("db");
    let (owner, id) = owner_and_campaign(&db, "visitors@example.in", json!({})).await;
    let svc = tracking(&db);
    let now = Utc::now();
    // The owner trying the campaign on this server's Preview page.
    for kind in ["pageview", "impression"] {
        let counted = svc
            .event(event(&id, "v_previewer", kind), Some(OWN), IP, now)
            .await
            .expect("the Preview is answered");
        assert!(!counted, "{kind} from the Preview");
    }
    svc.writer().flush().await;
    assert_eq!(visitors(&db, &owner.id).await, 0);
    let c = stored_campaign(&db, &id).await;
    assert_eq!((c.impressions, c.first_page_view_at), (0, None));

    for visitor in [
        "v_visitor_01",
        "v_visitor_01",
        "v_visitor_01",
        "v_visitor_02",
    ] {
        assert!(
            svc.event(event(&id, visitor, "pageview"), Some(SITE), IP, now)
                .await
                .expect("page view")
        );
    }
    svc.writer().flush().await;
    assert_eq!(
        visitors(&db, &owner.id).await,
        2,
        "two visitors, four views"
    );
    // The same visitor later in the month adds nothing.
    assert!(
        svc.event(event(&id, "v_visitor_02", "pageview"), Some(SITE), IP, now)
            .await
            .expect("again")
    );
    svc.writer().flush().await;
    assert_eq!(visitors(&db, &owner.id).await, 2);
    assert!(stored_campaign(&db, &id).await.first_page_view_at.is_some());
}

#[tokio::test]
async fn one_address_adds_only_a_few_new_visitors_a_day_to_the_quota() {
    let db = TestDb::new().await.expect("db");
    let (owner, id) = owner_and_campaign(&db, "quota@example.in", json!({})).await;
    let svc = tracking(&db);
    let now = Utc::now();
    // This service admits 3 new visitor ids per address per campaign a day.
    for i in 0..10 {
        assert!(
            svc.event(
                event(&id, &format!("v_flood_{i:04}"), "pageview"),
                Some(SITE),
                "203.0.113.66",
                now
            )
            .await
            .expect("served")
        );
    }
    svc.writer().flush().await;
    assert_eq!(
        visitors(&db, &owner.id).await,
        3,
        "ten ids from one address"
    );
    // An admitted visitor keeps counting; another address has its own three;
    // the next day the first address may add three more.
    for (visitor, ip, at) in [
        ("v_flood_0001", "203.0.113.66", now),
        ("v_other_0001", "198.51.100.7", now),
        (
            "v_flood_0009",
            "203.0.113.66",
            now + chrono::Duration::days(1),
        ),
    ] {
        svc.event(event(&id, visitor, "pageview"), Some(SITE), ip, at)
            .await
            .expect("served");
    }
    svc.writer().flush().await;
    let month_visitors = ca_campaigns::counters::visitors_in_month(&db.conn, &owner.id, now)
        .await
        .expect("count");
    // The next day's visitor may fall in another month at the month's end.
    let expected = if ca_campaigns::counters::period_of(now + chrono::Duration::days(1))
        == ca_campaigns::counters::period_of(now)
    {
        5
    } else {
        4
    };
    assert_eq!(month_visitors, expected);
}

#[tokio::test]
async fn purchases_are_attributed_in_the_window_counted_once_and_held_above_the_cap() {
    let db = TestDb::new().await.expect("db");
    let (owner, id) = owner_and_campaign(
        &db,
        "revenue@example.in",
        json!({"revenue": {"maxOrderValue": 10_000}}),
    )
    .await;
    let svc = tracking(&db);
    let now = Utc::now();
    let buyer = "v_buyer_0001";
    // The buyer saw the popup and left their email.
    assert!(
        svc.event(event(&id, buyer, "impression"), Some(SITE), IP, now)
            .await
            .expect("impression")
    );
    svc.writer().flush().await;
    let name = stored_campaign(&db, &id).await.name;
    let customer = ca_customers::upsert_lead(
        &db.conn,
        &ca_customers::Lead {
            owner_id: &owner.id,
            email: "buyer@example.in",
            name: None,
            phone: None,
            company: None,
            collected_data: "{}",
            campaign_id: &id,
            campaign_name: &name,
            visitor_id: buyer,
            messages: 0,
            new_conversation: true,
        },
        now,
    )
    .await
    .expect("lead");
    let revenue = async || stored_campaign(&db, &id).await.revenue_paise;
    let buy = async |visitor: &str, order_id: &str, value: Value, at: chrono::DateTime<Utc>| {
        svc.purchase(order(&id, visitor, order_id, value), Some(SITE), IP, at)
            .await
            .expect(order_id)
    };

    // A visitor who never met the campaign: kept, not attributed.
    let stranger = buy("v_stranger_01", "ORD-1", json!(999), now).await;
    assert_eq!(stranger.attributed_campaign_id, None);
    assert_eq!(revenue().await, 0);

    let first = buy(buyer, "ORD-2", json!(1499.5), now).await;
    assert_eq!(first.attributed_campaign_id.as_deref(), Some(id.as_str()));
    assert!(!first.duplicate && !first.held);
    let again = buy(buyer, "ORD-2", json!(1499.5), now).await;
    assert!(again.duplicate, "{again:?}");
    assert_eq!(revenue().await, 149_950, "counted once");
    let orders = purchase::Entity::find()
        .filter(purchase::Column::OrderId.eq("ORD-2"))
        .count(&db.conn)
        .await
        .expect("count");
    assert_eq!(orders, 1);

    // Up to the largest believable order counts; above it is kept, held.
    let top = buy(buyer, "ORD-3", json!(10_000), now).await;
    assert!(!top.held);
    assert_eq!(revenue().await, 149_950 + 1_000_000);
    let odd = buy(buyer, "ORD-4", json!("10000.01"), now).await;
    assert!(odd.held, "{odd:?}");
    assert_eq!(odd.attributed_campaign_id.as_deref(), Some(id.as_str()));
    assert_eq!(revenue().await, 1_149_950, "a held order adds nothing");
    let kept = purchase::Entity::find()
        .filter(purchase::Column::OrderId.eq("ORD-4"))
        .one(&db.conn)
        .await
        .expect("q")
        .expect("the held order is kept");
    assert!(kept.held);
    assert_eq!(kept.value_paise, 1_000_001);
    let bought = ca_customers::entities::customer::Entity::find_by_id(customer.id.clone())
        .one(&db.conn)
        .await
        .expect("q")
        .expect("customer");
    assert_eq!(
        (
            bought.conversion_status.as_str(),
            bought.total_purchases,
            bought.revenue_paise
        ),
        ("customer", 2, 1_149_950)
    );

    // After the 30-day window the campaign gets nothing.
    let late = buy(buyer, "ORD-5", json!(500), now + chrono::Duration::days(31)).await;
    assert_eq!(late.attributed_campaign_id, None);
    assert_eq!(revenue().await, 1_149_950);

    // From another site: refused and not kept.
    let foreign = svc
        .purchase(
            order(&id, buyer, "ORD-6", json!(10)),
            Some("https://elsewhere.example.com"),
            IP,
            now,
        )
        .await;
    assert!(matches!(foreign, Err(TrackingError::ForeignOrigin)));
    assert_eq!(
        purchase::Entity::find()
            .filter(purchase::Column::OwnerId.eq(&owner.id))
            .count(&db.conn)
            .await
            .expect("count"),
        5,
        "ORD-1 to ORD-5"
    );
}

/// A batch written after an owner was removed skips that owner's queued
/// page views and stores everyone else's.
#[tokio::test]
async fn a_batch_skips_the_page_views_of_an_owner_removed_meanwhile() {
    use ca_tracking::event::{Event, Kind};
    let db = TestDb::new().await.expect("db");
    let (owner, campaign) = owner_and_campaign(&db, "kept@example.in", json!({})).await;
    let view = |owner_id: &str, visitor: &str| Event {
        kind: Kind::PageView,
        owner_id: owner_id.into(),
        campaign_id: campaign.clone(),
        visitor_id: visitor.into(),
        at: Utc::now(),
        counts_visitor: true,
        arm: None,
    };
    ca_tracking::writer::write(
        &db.conn,
        &[
            view(&owner.id, "v_kept_visitor_1"),
            view("no-such-owner", "v_gone_visitor_1"),
            view(&owner.id, "v_kept_visitor_2"),
        ],
    )
    .await
    .expect("stored");
    assert_eq!(visitors(&db, &owner.id).await, 2);
    assert_eq!(visitors(&db, "no-such-owner").await, 0);
}
