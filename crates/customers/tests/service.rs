#![allow(clippy::expect_used, clippy::unwrap_used)]
//! Customers against a real database (SQLite, or PostgreSQL when
//! CA_TEST_POSTGRES_URL is set): leads make and update the owner's
//! customer, the lead score follows its documented rule as stored counters
//! move, the kept counts equal the rows, and the list is the owner's own.

use std::collections::HashMap;
use std::sync::Arc;

use chrono::Utc;
use sea_orm::{
    ColumnTrait, ConnectionTrait, DbBackend, EntityTrait, PaginatorTrait, QueryFilter, Statement,
};

use ca_auth::{AuthService, JwtKeys, Mailer, NewAccount, Role};
use ca_core::rate_limit::RateLimiter;
use ca_customers::dto::{CustomerUpdate, ListQuery, STATUSES};
use ca_customers::entities::customer;
use ca_customers::service::{self, listing};
use ca_customers::{
    CustomerError, CustomerService, EngagedTime, Engagement, Lead, lead_score, record_purchase,
    upsert_lead,
};
use ca_migrations::testing::TestDb;

/// An owner account; returns its id.
async fn owner(db: &TestDb, email: &str) -> String {
    AuthService::new(
        db.conn.clone(),
        JwtKeys::new("customer-test-secret-customer-test-secret", 1),
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
    .expect("owner")
    .id
}

/// Runs `sql` written with `?` placeholders on either database.
async fn execute(db: &TestDb, sql: &str, values: Vec<sea_orm::Value>) -> u64 {
    let backend = db.conn.get_database_backend();
    let sql = match backend {
        DbBackend::Postgres => {
            let mut n = 0;
            sql.chars()
                .map(|c| {
                    if c == '?' {
                        n += 1;
                        format!("${n}")
                    } else {
                        c.to_string()
                    }
                })
                .collect()
        }
        _ => sql.to_string(),
    };
    db.conn
        .execute_raw(Statement::from_sql_and_values(
            backend,
            sql.as_str(),
            values,
        ))
        .await
        .expect(&sql)
        .rows_affected()
}

/// A campaign row of `owner_id` (the customers crate cannot use the
/// campaigns crate); returns (id, name).
async fn campaign(db: &TestDb, owner_id: &str, name: &str) -> (String, String) {
    let id = ca_core::ids::new_id().to_string();
    let now = Utc::now();
    execute(
        db,
        "INSERT INTO campaigns (id, owner_id, name, website_url, is_active, settings, created_at, updated_at) \
         VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
        vec![
            id.clone().into(),
            owner_id.into(),
            name.into(),
            "https://kesar.example.in".into(),
            true.into(),
            "{}".into(),
            now.into(),
            now.into(),
        ],
    )
    .await;
    (id, name.to_string())
}

/// A lead from a new conversation with no name, phone or company.
fn lead<'a>(
    owner_id: &'a str,
    campaign: &'a (String, String),
    email: &'a str,
    visitor_id: &'a str,
) -> Lead<'a> {
    Lead {
        owner_id,
        email,
        name: None,
        phone: None,
        company: None,
        collected_data: "{}",
        campaign_id: &campaign.0,
        campaign_name: &campaign.1,
        visitor_id,
        messages: 0,
        new_conversation: true,
    }
}

async fn customers_of(db: &TestDb, owner_id: &str) -> Vec<customer::Model> {
    customer::Entity::find()
        .filter(customer::Column::OwnerId.eq(owner_id))
        .all(&db.conn)
        .await
        .expect("customers")
}

async fn stored(db: &TestDb, id: &str) -> customer::Model {
    customer::Entity::find_by_id(id.to_string())
        .one(&db.conn)
        .await
        .expect("q")
        .expect("customer")
}

#[tokio::test]
async fn a_lead_makes_the_owners_customer_and_the_same_email_updates_it() {
    let db = TestDb::new().await.expect("db");
    let a = owner(&db, "a@example.in").await;
    let b = owner(&db, "b@example.in").await;
    let spring = campaign(&db, &a, "Spring sale").await;
    let b_campaign = campaign(&db, &b, "B's offer").await;
    let now = Utc::now();

    let first = upsert_lead(
        &db.conn,
        &Lead {
            name: Some(" Asha "),
            phone: Some("+91 9000000011"),
            collected_data: r#"{"email":"Asha@Example.in","budget":"5000"}"#,
            messages: 3,
            ..lead(&a, &spring, "  Asha@Example.in ", "v_asha_0001")
        },
        now,
    )
    .await
    .expect("first lead");
    assert_eq!(first.email, "asha@example.in");
    assert_eq!(first.name.as_deref(), Some("Asha"));
    assert_eq!(first.conversion_status, "lead");
    assert_eq!(first.source_campaign_id.as_deref(), Some(spring.0.as_str()));

    // The same email in other case, from a later conversation: new values
    // fill in, what it leaves blank stays, the collected data is merged.
    let second = upsert_lead(
        &db.conn,
        &Lead {
            name: None,
            phone: Some("   "),
            company: Some("Kesar Foods"),
            collected_data: r#"{"city":"Pune"}"#,
            messages: 2,
            ..lead(&a, &spring, "ASHA@example.IN", "v_asha_0002")
        },
        now,
    )
    .await
    .expect("second lead");
    assert_eq!(second.id, first.id, "the same customer");
    let rows = customers_of(&db, &a).await;
    assert_eq!(rows.len(), 1, "{rows:?}");
    let c = &rows[0];
    assert_eq!(c.name.as_deref(), Some("Asha"), "not blanked");
    assert_eq!(c.phone.as_deref(), Some("+91 9000000011"), "not blanked");
    assert_eq!(c.company.as_deref(), Some("Kesar Foods"), "filled in");
    let data: serde_json::Value = serde_json::from_str(&c.collected_data).expect("json");
    assert_eq!(data["budget"], "5000");
    assert_eq!(data["city"], "Pune");
    assert_eq!((c.total_conversations, c.total_messages), (2, 5));
    assert_eq!(c.visitor_id.as_deref(), Some("v_asha_0002"));

    // Another owner's lead with that email is that owner's own customer.
    let other = upsert_lead(
        &db.conn,
        &lead(&b, &b_campaign, "asha@example.in", "v_asha_0003"),
        now,
    )
    .await
    .expect("b's lead");
    assert_ne!(other.id, first.id);
    assert_eq!(customers_of(&db, &a).await.len(), 1);
    assert_eq!(customers_of(&db, &b).await.len(), 1);
}

#[tokio::test]
async fn the_lead_score_follows_the_rule_as_the_customer_engages_and_buys() {
    let db = TestDb::new().await.expect("db");
    let a = owner(&db, "a@example.in").await;
    let spring = campaign(&db, &a, "Spring sale").await;
    let visitor = "v_buyer_0001";
    let now = Utc::now();
    let c = upsert_lead(
        &db.conn,
        &Lead {
            name: Some("Asha"),
            phone: Some("+91 9000000011"),
            messages: 4,
            ..lead(&a, &spring, "asha@example.in", visitor)
        },
        now,
    )
    .await
    .expect("lead");
    // Email 20, name 10, phone 15, 4 messages × 2.
    let mut expected = Engagement {
        has_email: true,
        has_name: true,
        has_phone: true,
        messages: 4,
        ..Engagement::default()
    };
    assert_eq!(lead_score(&expected), 53);
    assert_eq!(stored(&db, &c.id).await.lead_score, 53);

    // 12 page views count 10; two sessions of 95 s on average count 3.
    ca_customers::add_page_views(&db.conn, &a, &HashMap::from([(visitor.to_string(), 12)]))
        .await
        .expect("views");
    ca_customers::add_engaged_time(
        &db.conn,
        &a,
        &HashMap::from([(
            visitor.to_string(),
            EngagedTime {
                seconds: 190,
                new_sessions: 2,
            },
        )]),
    )
    .await
    .expect("time");
    let engaged = stored(&db, &c.id).await;
    assert_eq!(
        (
            engaged.total_page_views,
            engaged.total_session_seconds,
            engaged.sessions
        ),
        (12, 190, 2)
    );
    expected.page_views = 12;
    expected.average_session_seconds = 95;
    assert_eq!(lead_score(&expected), 66);
    assert_eq!(engaged.lead_score, 66);

    // A purchase by someone else changes nothing.
    assert!(
        !record_purchase(&db.conn, &a, "v_stranger_01", 99_900, now)
            .await
            .expect("stranger")
    );
    assert_eq!(stored(&db, &c.id).await.lead_score, 66);

    // Purchases: 10 each, at most 20.
    for (n, score) in [(1, 76), (2, 86), (3, 86)] {
        assert!(
            record_purchase(&db.conn, &a, visitor, 149_950, now)
                .await
                .expect("purchase")
        );
        expected.purchases = n;
        assert_eq!(lead_score(&expected), score);
        let bought = stored(&db, &c.id).await;
        assert_eq!(bought.conversion_status, "customer");
        assert_eq!(bought.total_purchases, n);
        assert_eq!(bought.revenue_paise, 149_950 * n);
        assert_eq!(bought.lead_score, score, "after {n} purchases");
    }
}

/// The counts the database keeps (per owner, status and campaign) against
/// the rows themselves.
async fn assert_counts_match_rows(db: &TestDb, owner_id: &str) {
    let rows = customers_of(db, owner_id).await;
    assert_eq!(
        service::count(&db.conn, owner_id, None)
            .await
            .expect("count"),
        rows.len() as u64,
        "all: {rows:?}"
    );
    for status in STATUSES {
        let n = rows
            .iter()
            .filter(|c| c.conversion_status == status)
            .count() as u64;
        assert_eq!(
            service::count(&db.conn, owner_id, Some(status))
                .await
                .expect("count"),
            n,
            "{status}"
        );
    }
    let mut by_campaign: HashMap<String, u64> = HashMap::new();
    for c in &rows {
        if let Some(id) = &c.source_campaign_id {
            *by_campaign.entry(id.clone()).or_default() += 1;
        }
    }
    assert_eq!(
        ca_customers::count_by_campaign(&db.conn, owner_id)
            .await
            .expect("by campaign"),
        by_campaign
    );
}

#[tokio::test]
async fn the_kept_counts_equal_the_rows() {
    let db = TestDb::new().await.expect("db");
    let a = owner(&db, "a@example.in").await;
    let b = owner(&db, "b@example.in").await;
    let spring = campaign(&db, &a, "Spring sale").await;
    let autumn = campaign(&db, &a, "Autumn sale").await;
    let b_campaign = campaign(&db, &b, "B's offer").await;
    let now = Utc::now();
    let svc = CustomerService::new(db.conn.clone());
    let mut ids = Vec::new();
    for (i, from) in [&spring, &spring, &autumn].into_iter().enumerate() {
        let email = format!("c{i}@example.in");
        let visitor = format!("v_visitor_{i:04}");
        ids.push(
            upsert_lead(&db.conn, &lead(&a, from, &email, &visitor), now)
                .await
                .expect("lead")
                .id,
        );
    }
    upsert_lead(
        &db.conn,
        &lead(&b, &b_campaign, "b0@example.in", "v_b_visitor_0"),
        now,
    )
    .await
    .expect("b's lead");
    // An update of a customer that exists moves no count.
    upsert_lead(
        &db.conn,
        &lead(&a, &spring, "C0@example.in", "v_visitor_0000"),
        now,
    )
    .await
    .expect("again");
    assert_eq!(service::count(&db.conn, &a, None).await.expect("count"), 3);
    assert_counts_match_rows(&db, &a).await;

    svc.update(
        &a,
        &ids[0],
        CustomerUpdate {
            conversion_status: Some("prospect".into()),
            ..CustomerUpdate::default()
        },
    )
    .await
    .expect("status");
    assert_eq!(
        service::count(&db.conn, &a, Some("prospect"))
            .await
            .expect("count"),
        1
    );
    assert_counts_match_rows(&db, &a).await;
    svc.update(
        &a,
        &ids[1],
        CustomerUpdate {
            name: Some("Ravi".into()),
            notes: Some("Called back".into()),
            ..CustomerUpdate::default()
        },
    )
    .await
    .expect("name");
    assert!(
        record_purchase(&db.conn, &a, "v_visitor_0002", 50_000, now)
            .await
            .expect("purchase")
    );
    assert_counts_match_rows(&db, &a).await;

    svc.delete(&a, &ids[1]).await.expect("delete");
    assert_eq!(service::count(&db.conn, &a, None).await.expect("count"), 2);
    assert_counts_match_rows(&db, &a).await;

    // Deleting a campaign keeps its customers (now without a source
    // campaign) and their count.
    let deleted = execute(
        &db,
        "DELETE FROM campaigns WHERE id = ?",
        vec![spring.0.clone().into()],
    )
    .await;
    assert_eq!(deleted, 1);
    assert_eq!(
        stored(&db, &ids[0]).await.source_campaign_id,
        None,
        "the foreign key let go"
    );
    assert_counts_match_rows(&db, &a).await;
    assert_eq!(
        ca_customers::count_all(&db.conn).await.expect("all"),
        customer::Entity::find()
            .count(&db.conn)
            .await
            .expect("rows")
    );
    assert_counts_match_rows(&db, &b).await;
}

fn query(search: Option<&str>, status: Option<&str>) -> ListQuery {
    ListQuery {
        search: search.map(str::to_string),
        status: status.map(str::to_string),
        ..ListQuery::default()
    }
}

async fn emails(svc: &CustomerService, owner_id: &str, q: &ListQuery) -> Vec<String> {
    let page = svc
        .list(owner_id, &listing(q).expect("a valid query"))
        .await
        .expect("list");
    let mut out: Vec<String> = page.customers.into_iter().map(|c| c.email).collect();
    assert_eq!(
        page.pagination.total,
        out.len() as u64,
        "the total counts what the list holds"
    );
    out.sort();
    out
}

#[tokio::test]
async fn the_list_shows_only_the_owners_customers_and_filters_them() {
    let db = TestDb::new().await.expect("db");
    let a = owner(&db, "a@example.in").await;
    let b = owner(&db, "b@example.in").await;
    let a_campaign = campaign(&db, &a, "Spring sale").await;
    let b_campaign = campaign(&db, &b, "B's offer").await;
    let now = Utc::now();
    let svc = CustomerService::new(db.conn.clone());
    for (email, name, company, visitor) in [
        ("asha@example.in", "Asha Mehta", None, "v_a_visitor_1"),
        (
            "vikram@example.in",
            "Vikram Rao",
            Some("Mehta Traders"),
            "v_a_visitor_2",
        ),
        ("ravi@example.in", "Ravi Kumar", None, "v_a_visitor_3"),
    ] {
        upsert_lead(
            &db.conn,
            &Lead {
                name: Some(name),
                company,
                ..lead(&a, &a_campaign, email, visitor)
            },
            now,
        )
        .await
        .expect("a's lead");
    }
    for (email, name, visitor) in [
        ("asha.b@example.in", "Asha Mehta", "v_b_visitor_1"),
        ("mehta@example.in", "Mehta", "v_b_visitor_2"),
    ] {
        upsert_lead(
            &db.conn,
            &Lead {
                name: Some(name),
                ..lead(&b, &b_campaign, email, visitor)
            },
            now,
        )
        .await
        .expect("b's lead");
    }
    let a_all = vec![
        "asha@example.in".to_string(),
        "ravi@example.in".into(),
        "vikram@example.in".into(),
    ];
    assert_eq!(emails(&svc, &a, &query(None, None)).await, a_all);
    assert_eq!(emails(&svc, &a, &query(None, Some("all"))).await, a_all);
    assert_eq!(
        emails(&svc, &a, &query(Some("MEHTA"), None)).await,
        vec!["asha@example.in", "vikram@example.in"],
        "name or company, whatever the case, only A's"
    );
    assert_eq!(
        emails(&svc, &b, &query(Some("mehta"), None)).await,
        vec!["asha.b@example.in", "mehta@example.in"]
    );
    assert_eq!(
        emails(&svc, &a, &query(Some("AS"), None)).await,
        vec!["asha@example.in"],
        "a term too short for the index is looked for row by row, only in A's"
    );
    assert!(
        emails(&svc, &a, &query(Some("nobody"), None))
            .await
            .is_empty()
    );

    let ravi = svc
        .list(&a, &listing(&query(Some("ravi@"), None)).expect("q"))
        .await
        .expect("list")
        .customers
        .pop()
        .expect("ravi");
    svc.update(
        &a,
        &ravi.id,
        CustomerUpdate {
            status: Some("prospect".into()),
            ..CustomerUpdate::default()
        },
    )
    .await
    .expect("status");
    assert_eq!(
        emails(&svc, &a, &query(None, Some("prospect"))).await,
        vec!["ravi@example.in"]
    );
    assert_eq!(
        emails(&svc, &a, &query(None, Some("lead"))).await,
        vec!["asha@example.in", "vikram@example.in"]
    );
    assert!(
        emails(&svc, &a, &query(Some("mehta"), Some("prospect")))
            .await
            .is_empty()
    );
    assert!(
        emails(&svc, &b, &query(None, Some("prospect")))
            .await
            .is_empty()
    );
    assert!(matches!(
        listing(&query(None, Some("vip"))),
        Err(CustomerError::Validation { .. })
    ));

    // Paging through A's list gives each customer once.
    let mut paged = Vec::new();
    for page in ["1", "2"] {
        let q = ListQuery {
            page: Some(page.into()),
            limit: Some("2".into()),
            ..ListQuery::default()
        };
        let got = svc.list(&a, &listing(&q).expect("q")).await.expect("page");
        assert_eq!((got.pagination.total, got.pagination.pages), (3, 2));
        paged.extend(got.customers.into_iter().map(|c| c.email));
    }
    paged.sort();
    assert_eq!(paged, a_all);

    // B can neither read, change nor delete A's customer.
    assert!(matches!(
        svc.get(&b, &ravi.id).await,
        Err(CustomerError::NotFound)
    ));
    assert!(matches!(
        svc.update(
            &b,
            &ravi.id,
            CustomerUpdate {
                name: Some("Taken".into()),
                ..CustomerUpdate::default()
            }
        )
        .await,
        Err(CustomerError::NotFound)
    ));
    assert!(matches!(
        svc.delete(&b, &ravi.id).await,
        Err(CustomerError::NotFound)
    ));
    let kept = stored(&db, &ravi.id).await;
    assert_eq!(kept.name.as_deref(), Some("Ravi Kumar"));
    assert_eq!(svc.get(&a, &ravi.id).await.expect("a's").email, ravi.email);
}
