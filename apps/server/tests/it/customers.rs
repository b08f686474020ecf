//! The customers calls: list with search, filter, sort and pages; one
//! customer; change and delete; every call owner-scoped.

use ca_customers::entities::customer;
use chrono::{Duration, Utc};
use sea_orm::{ActiveModelTrait, ColumnTrait, EntityTrait, QueryFilter};
use serde_json::{Value, json};

use crate::helpers::{TestApp, spawn_app};

/// Registers an owner and returns `(token, owner id)`.
async fn owner(app: &TestApp, email: &str) -> (String, String) {
    let (token, user) = app.register(email, "secret1").await;
    (
        token,
        user["_id"]
            .as_str()
            .or(user["id"].as_str())
            .expect("id")
            .to_string(),
    )
}

struct Seed<'a> {
    email: &'a str,
    name: Option<&'a str>,
    phone: Option<&'a str>,
    company: Option<&'a str>,
    status: &'a str,
    score: i32,
    conversations: i64,
    hours_ago: i64,
}

async fn seed(app: &TestApp, owner_id: &str, rows: &[Seed<'_>]) -> Vec<String> {
    let now = Utc::now();
    let models: Vec<customer::ActiveModel> = rows
        .iter()
        .map(|s| customer::ActiveModel {
            id: sea_orm::Set(uuid::Uuid::now_v7().to_string()),
            owner_id: sea_orm::Set(owner_id.to_string()),
            email: sea_orm::Set(s.email.to_string()),
            name: sea_orm::Set(s.name.map(str::to_string)),
            phone: sea_orm::Set(s.phone.map(str::to_string)),
            company: sea_orm::Set(s.company.map(str::to_string)),
            notes: sea_orm::Set(None),
            conversion_status: sea_orm::Set(s.status.to_string()),
            lead_score: sea_orm::Set(s.score),
            total_conversations: sea_orm::Set(s.conversations),
            total_messages: sea_orm::Set(0),
            total_page_views: sea_orm::Set(3),
            total_session_seconds: sea_orm::Set(0),
            sessions: sea_orm::Set(0),
            total_purchases: sea_orm::Set(0),
            revenue_paise: sea_orm::Set(0),
            source_campaign_id: sea_orm::Set(None),
            source_campaign: sea_orm::Set(Some("Diwali exit offer".into())),
            collected_data: sea_orm::Set("{}".into()),
            visitor_id: sea_orm::Set(None),
            last_conversation_date: sea_orm::Set(Some(now - Duration::hours(s.hours_ago))),
            created_at: sea_orm::Set(now - Duration::days(s.hours_ago)),
            updated_at: sea_orm::Set(now),
        })
        .collect();
    let ids = models
        .iter()
        .map(|m| match &m.id {
            sea_orm::ActiveValue::Set(id) => id.clone(),
            _ => unreachable!(),
        })
        .collect();
    for chunk in models.chunks(100) {
        customer::Entity::insert_many(chunk.to_vec())
            .exec(&app.db.conn)
            .await
            .expect("seed");
    }
    ids
}

fn emails(body: &Value) -> Vec<String> {
    body["customers"]
        .as_array()
        .expect("customers")
        .iter()
        .map(|c| c["email"].as_str().expect("email").to_string())
        .collect()
}

fn s<'a>(
    email: &'a str,
    status: &'a str,
    score: i32,
    conversations: i64,
    hours_ago: i64,
) -> Seed<'a> {
    Seed {
        email,
        name: None,
        phone: None,
        company: None,
        status,
        score,
        conversations,
        hours_ago,
    }
}

#[tokio::test]
async fn list_pages_sorts_filters_and_searches() {
    let app = spawn_app().await;
    let (token, a) = owner(&app, "shop-a@example.in").await;
    let t = Some(token.as_str());
    // 45 leads, newest activity first by index.
    let many: Vec<String> = (0..45).map(|i| format!("lead{i:02}@example.in")).collect();
    let rows: Vec<Seed> = many
        .iter()
        .enumerate()
        .map(|(i, e)| {
            s(
                e,
                "lead",
                (i % 7) as i32 * 10,
                (i % 4) as i64,
                i as i64 + 10,
            )
        })
        .collect();
    seed(&app, &a, &rows).await;
    seed(
        &app,
        &a,
        &[
            Seed {
                name: Some("Meera Iyer"),
                company: Some("Kesar Handlooms"),
                phone: Some("+91 98290 12345"),
                ..s("meera@kesar.in", "customer", 90, 5, 1)
            },
            Seed {
                name: Some("Arjun Iyer"),
                ..s("arjun@example.in", "prospect", 55, 2, 2)
            },
            Seed {
                company: Some("100% Cotton Co"),
                ..s("cotton@example.in", "churned", 5, 1, 3)
            },
        ],
    )
    .await;

    let first = app.get("/api/customers/user", t).await;
    assert_eq!(first.status, 200, "{}", first.body);
    assert_eq!(
        first.body["pagination"],
        json!({"page": 1, "limit": 20, "total": 48, "pages": 3, "capped": false})
    );
    let e = emails(&first.body);
    assert_eq!(e.len(), 20);
    assert_eq!(
        &e[..4],
        [
            "meera@kesar.in",
            "arjun@example.in",
            "cotton@example.in",
            "lead00@example.in"
        ]
    );
    let c = &first.body["customers"][0];
    assert_eq!(c["name"], "Meera Iyer");
    assert_eq!(c["conversionStatus"], "customer");
    assert_eq!(c["sourceCampaign"], "Diwali exit offer");
    assert_eq!(c["totalPageViews"], 3);
    assert!(c["_id"].is_string() && c["lastConversationDate"].is_string());

    let last = app.get("/api/customers/user?page=3", t).await;
    assert_eq!(emails(&last.body).len(), 8);
    let beyond = app.get("/api/customers/user?page=9", t).await;
    assert_eq!(emails(&beyond.body).len(), 0);
    assert_eq!(beyond.body["pagination"]["total"], 48);

    let asc = app
        .get(
            "/api/customers/user?sortBy=lastConversationDate&sortOrder=asc&limit=2",
            t,
        )
        .await;
    assert_eq!(
        emails(&asc.body),
        ["lead44@example.in", "lead43@example.in"]
    );
    let score = app
        .get("/api/customers/user?sortBy=leadScore&limit=2", t)
        .await;
    assert_eq!(emails(&score.body)[0], "meera@kesar.in");
    assert_eq!(
        score.body["customers"][1]["leadScore"], 60,
        "then the best leads"
    );
    let convs = app
        .get(
            "/api/customers/user?sortBy=totalConversations&sortOrder=desc&limit=1",
            t,
        )
        .await;
    assert_eq!(emails(&convs.body), ["meera@kesar.in"]);

    for (query, expected) in [
        ("search=IYER", vec!["meera@kesar.in", "arjun@example.in"]),
        ("search=kesar%20hand", vec!["meera@kesar.in"]),
        ("search=98290", vec!["meera@kesar.in"]),
        ("search=100%25", vec!["cotton@example.in"]),
        ("search=_", vec![]),
        ("status=prospect", vec!["arjun@example.in"]),
        (
            "status=all&search=iyer&sortBy=leadScore&sortOrder=asc",
            vec!["arjun@example.in", "meera@kesar.in"],
        ),
        ("status=customer&search=iyer", vec!["meera@kesar.in"]),
        ("status=churned&search=iyer", vec![]),
    ] {
        let r = app.get(&format!("/api/customers/user?{query}"), t).await;
        assert_eq!(r.status, 200, "{query}: {}", r.body);
        assert_eq!(emails(&r.body), expected, "{query}");
        assert_eq!(r.body["pagination"]["total"], expected.len(), "{query}");
    }
    let leads = app
        .get("/api/customers/user?status=lead&limit=100", t)
        .await;
    assert_eq!(
        leads.body["pagination"],
        json!({"page": 1, "limit": 100, "total": 45, "pages": 1, "capped": false})
    );

    let bad = app
        .get(
            "/api/customers/user?page=0&limit=101&status=vip&sortBy=name&sortOrder=up",
            t,
        )
        .await;
    bad.error(400, "validation_failed");
    for field in ["page", "limit", "status", "sortBy", "sortOrder"] {
        assert!(
            bad.body["errors"][field].is_array(),
            "{field}: {}",
            bad.body
        );
    }
    app.get("/api/customers/user", None)
        .await
        .error(401, "missing_token");
}

#[tokio::test]
async fn one_customer_can_be_read_changed_and_deleted_by_its_owner_only() {
    let app = spawn_app().await;
    let (a_token, a) = owner(&app, "owner-a@example.in").await;
    let (b_token, _) = owner(&app, "owner-b@example.in").await;
    let ids = seed(
        &app,
        &a,
        &[Seed {
            phone: Some("+91 90000 00000"),
            ..s("meera@kesar.in", "lead", 20, 1, 1)
        }],
    )
    .await;
    let id = &ids[0];
    let (ta, tb) = (Some(a_token.as_str()), Some(b_token.as_str()));
    let path = format!("/api/customers/{id}");

    assert_eq!(
        app.get(&path, ta).await.body["customer"]["email"],
        "meera@kesar.in"
    );
    // Another owner sees nothing, changes nothing, deletes nothing.
    app.get(&path, tb).await.error(404, "customer_not_found");
    app.send("PUT", &path, tb, json!({"name": "Hacker"}))
        .await
        .error(404, "customer_not_found");
    app.send("DELETE", &path, tb, json!({}))
        .await
        .error(404, "customer_not_found");
    let b_list = app.get("/api/customers/user", tb).await;
    assert_eq!(b_list.body["pagination"]["total"], 0);

    let bad = app
        .send(
            "PUT",
            &path,
            ta,
            json!({"conversionStatus": "vip", "phone": "12", "name": "x".repeat(201)}),
        )
        .await;
    bad.error(400, "validation_failed");
    for field in ["conversionStatus", "phone", "name"] {
        assert!(
            bad.body["errors"][field].is_array(),
            "{field}: {}",
            bad.body
        );
    }
    let unchanged = app.get(&path, ta).await;
    assert_eq!(unchanged.body["customer"]["conversionStatus"], "lead");
    assert_eq!(unchanged.body["customer"]["phone"], "+91 90000 00000");

    let ok = app
        .send(
            "PUT",
            &path,
            ta,
            json!({"conversionStatus": "prospect", "name": " Meera Iyer ", "company": "Kesar", "notes": "Wants silk", "phone": ""}),
        )
        .await;
    assert_eq!(ok.status, 200, "{}", ok.body);
    let c = &ok.body["customer"];
    assert_eq!(c["conversionStatus"], "prospect");
    assert_eq!(c["name"], "Meera Iyer");
    assert_eq!(c["company"], "Kesar");
    assert_eq!(c["notes"], "Wants silk");
    assert_eq!(c["phone"], Value::Null, "an empty text clears the phone");
    assert_eq!(
        c["leadScore"],
        20 + 10 + 5 + 3,
        "email, name, company and three page views"
    );

    let deleted = app.send("DELETE", &path, ta, json!({})).await;
    assert_eq!(deleted.status, 200);
    app.get(&path, ta).await.error(404, "customer_not_found");
    app.send("DELETE", &path, ta, json!({}))
        .await
        .error(404, "customer_not_found");
}

#[tokio::test]
async fn the_overview_counts_this_period_and_the_one_before() {
    let app = spawn_app().await;
    let (token, a) = owner(&app, "overview@example.in").await;
    let (other, b) = owner(&app, "overview-b@example.in").await;
    let t = Some(token.as_str());
    // hours_ago also sets created_at to that many days ago.
    seed(
        &app,
        &a,
        &[
            s("new1@example.in", "lead", 20, 1, 2),
            s("new2@example.in", "customer", 60, 1, 5),
            s("new3@example.in", "prospect", 40, 1, 20),
            s("old1@example.in", "lead", 20, 1, 40),
            s("old2@example.in", "churned", 10, 1, 45),
            Seed {
                ..s("older@example.in", "customer", 70, 1, 100)
            },
        ],
    )
    .await;
    seed(&app, &b, &[s("b@example.in", "customer", 60, 1, 1)]).await;
    let r = app
        .get("/api/customers/analytics/overview?period=30d", t)
        .await;
    assert_eq!(r.status, 200, "{}", r.body);
    let body = &r.body;
    assert_eq!(body["period"], "30d");
    assert_eq!(body["totalCustomers"], 6);
    assert_eq!(body["newCustomers"], 3);
    assert_eq!(body["conversionRate"], 33.33);
    assert_eq!(
        body["activeLeads"], 2,
        "the two leads were active in the last 30 days"
    );
    assert_eq!(
        body["conversionStats"],
        json!({"lead": 2, "prospect": 1, "customer": 2, "churned": 1})
    );
    assert_eq!(
        body["topCampaigns"],
        json!([{"_id": null, "campaignName": "Diwali exit offer", "customers": 6}])
    );
    // The 30 days before: old1 and old2 were new, older existed; one customer of three.
    assert_eq!(
        body["previous"],
        json!({"totalCustomers": 3, "newCustomers": 2, "conversionRate": 33.33, "activeLeads": 0})
    );
    let week = app
        .get("/api/customers/analytics/overview?period=7d", t)
        .await;
    assert_eq!(week.body["newCustomers"], 2);
    // The same periods as the conversation analytics.
    for period in ["1d", "7d", "30d", "90d", "365d"] {
        let customers = app
            .get(
                &format!("/api/customers/analytics/overview?period={period}"),
                t,
            )
            .await;
        assert_eq!(customers.body["period"], period, "{}", customers.body);
        let conversations = app
            .get(&format!("/api/conversations/analytics?period={period}"), t)
            .await;
        assert_eq!(
            conversations.status, 200,
            "{period}: {}",
            conversations.body
        );
    }
    app.get("/api/customers/analytics/overview?period=2w", t)
        .await
        .error(400, "validation_failed");
    let b_view = app
        .get("/api/customers/analytics/overview", Some(&other))
        .await;
    assert_eq!(b_view.body["totalCustomers"], 1);
}

#[tokio::test]
async fn the_export_is_a_csv_of_every_customer_with_formulas_neutralised() {
    let app = spawn_app().await;
    let (token, a) = owner(&app, "export@example.in").await;
    let (_, b) = owner(&app, "export-b@example.in").await;
    let many: Vec<String> = (0..2345)
        .map(|i| format!("bulk{i:05}@example.in"))
        .collect();
    let rows: Vec<Seed> = many.iter().map(|e| s(e, "lead", 20, 1, 3)).collect();
    seed(&app, &a, &rows).await;
    seed(
        &app,
        &a,
        &[Seed {
            name: Some("=HYPERLINK(\"http://evil\",\"x\")"),
            company: Some("@SUM(A1), \"Quoted\""),
            phone: Some("+91 98290 12345"),
            ..s("-danger@example.in", "customer", 90, 2, 1)
        }],
    )
    .await;
    seed(&app, &b, &[s("not-mine@example.in", "lead", 20, 1, 1)]).await;

    let res = app
        .client
        .get(app.url("/api/customers/export/data?format=csv"))
        .bearer_auth(&token)
        .send()
        .await
        .expect("send");
    assert_eq!(res.status(), 200);
    assert!(
        res.headers()["content-type"]
            .to_str()
            .expect("type")
            .starts_with("text/csv")
    );
    assert_eq!(
        res.headers()["content-disposition"],
        "attachment; filename=\"customers.csv\""
    );
    let text = res.text().await.expect("body");
    let mut reader = csv::Reader::from_reader(text.as_bytes());
    let header: Vec<String> = reader
        .headers()
        .expect("header")
        .iter()
        .map(str::to_string)
        .collect();
    assert_eq!(header[..5], ["Name", "Email", "Phone", "Company", "Status"]);
    let records: Vec<csv::StringRecord> = reader.records().map(|r| r.expect("record")).collect();
    assert_eq!(records.len(), 2346, "every customer of this owner, once");
    let emails: std::collections::HashSet<&str> = records.iter().map(|r| &r[1]).collect();
    assert_eq!(emails.len(), 2346);
    assert!(!emails.contains("not-mine@example.in"));
    let danger = records
        .iter()
        .find(|r| r[1].contains("danger"))
        .expect("row");
    assert_eq!(&danger[0], "'=HYPERLINK(\"http://evil\",\"x\")");
    assert_eq!(&danger[1], "'-danger@example.in");
    // A phone number is written as it is; a formula after a `+` is not.
    assert_eq!(&danger[2], "+91 98290 12345");
    assert_eq!(&danger[3], "'@SUM(A1), \"Quoted\"");
    assert_eq!(&danger[4], "customer");
    assert_eq!(&danger[11], "Diwali exit offer");
    // Dates are ISO 8601 in UTC to the second, as spreadsheets read them.
    for (i, what) in [(12, "last active"), (13, "customer since")] {
        let at = &danger[i];
        assert_eq!(at.len(), 20, "{what}: {at}");
        assert!(at.ends_with('Z') && !at.contains('.'), "{what}: {at}");
        chrono::DateTime::parse_from_rfc3339(at).expect("an ISO 8601 date");
    }

    app.get("/api/customers/export/data?format=xlsx", Some(&token))
        .await
        .error(400, "unsupported_format");
    app.get("/api/customers/export/data", None)
        .await
        .error(401, "missing_token");
}

/// What the owner's figures are, counted row by row (the truth the kept
/// counts and the search index must agree with).
async fn counted(app: &TestApp, owner_id: &str) -> (u64, Value, Value) {
    use sea_orm::{ColumnTrait, QueryFilter};
    let rows = customer::Entity::find()
        .filter(customer::Column::OwnerId.eq(owner_id))
        .all(&app.db.conn)
        .await
        .expect("customers");
    let mut stats = json!({"lead": 0, "prospect": 0, "customer": 0, "churned": 0});
    let mut campaigns: std::collections::BTreeMap<(Option<String>, String), u64> =
        Default::default();
    for c in &rows {
        let n = stats[&c.conversion_status].as_u64().expect("status") + 1;
        stats[&c.conversion_status] = json!(n);
        if let Some(name) = &c.source_campaign {
            *campaigns
                .entry((c.source_campaign_id.clone(), name.clone()))
                .or_default() += 1;
        }
    }
    let mut top: Vec<_> = campaigns.into_iter().collect();
    top.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.1.cmp(&b.0.1)));
    let top: Vec<Value> = top
        .into_iter()
        .take(5)
        .map(|((id, name), n)| json!({"_id": id, "campaignName": name, "customers": n}))
        .collect();
    (rows.len() as u64, stats, json!(top))
}

/// The list's totals and the overview come from counts the database keeps
/// with triggers, and the search from a trigram index kept the same way;
/// after every kind of change both must say what counting the rows says.
#[tokio::test]
async fn kept_counts_and_the_search_index_follow_every_change() {
    let app = spawn_app().await;
    let (token, a) = owner(&app, "counts@example.in").await;
    let (other, b) = owner(&app, "counts-b@example.in").await;
    let t = Some(token.as_str());
    let created = app
        .send(
            "POST",
            "/api/campaigns",
            t,
            json!({"name": "Holi sale", "websiteUrl": "https://shop.example.in"}),
        )
        .await;
    assert_eq!(created.status, 201, "{}", created.body);
    let campaign_id = created.body["campaign"]["_id"]
        .as_str()
        .expect("id")
        .to_string();
    let ids = seed(
        &app,
        &a,
        &[
            Seed {
                name: Some("Meera Iyer"),
                phone: Some("+91 98290 11111"),
                company: Some("Kesar Handlooms"),
                ..s("meera@kesar.in", "lead", 20, 1, 2)
            },
            Seed {
                name: Some("Arjun Mehta"),
                ..s("arjun@example.in", "prospect", 40, 2, 3)
            },
            Seed {
                name: Some("Say \"hi\" 100% _ok_"),
                ..s("quote@example.in", "customer", 60, 1, 4)
            },
            s("plain@example.in", "lead", 10, 1, 5),
        ],
    )
    .await;
    seed(&app, &b, &[s("meera@other.in", "lead", 10, 1, 1)]).await;
    // Two of A's customers came from the real campaign.
    {
        use sea_orm::{ColumnTrait, QueryFilter, sea_query::Expr};
        customer::Entity::update_many()
            .col_expr(
                customer::Column::SourceCampaignId,
                Expr::value(campaign_id.clone()),
            )
            .col_expr(customer::Column::SourceCampaign, Expr::value("Holi sale"))
            .filter(customer::Column::Id.is_in([ids[0].clone(), ids[1].clone()]))
            .exec(&app.db.conn)
            .await
            .expect("campaign");
    }

    async fn agree(app: &TestApp, t: Option<&str>, owner_id: &str, step: &str) {
        let (total, stats, top) = counted(app, owner_id).await;
        let list = app.get("/api/customers/user", t).await;
        assert_eq!(
            list.body["pagination"]["total"], total,
            "{step}: list total"
        );
        for status in ["lead", "prospect", "customer", "churned"] {
            let r = app
                .get(&format!("/api/customers/user?status={status}"), t)
                .await;
            assert_eq!(
                r.body["pagination"]["total"], stats[status],
                "{step}: {status} total"
            );
            assert_eq!(
                r.body["customers"].as_array().expect("rows").len() as u64,
                stats[status].as_u64().expect("n"),
                "{step}: {status} rows"
            );
        }
        let o = app
            .get("/api/customers/analytics/overview?period=30d", t)
            .await;
        assert_eq!(o.body["totalCustomers"], total, "{step}: overview total");
        assert_eq!(o.body["conversionStats"], stats, "{step}: statuses");
        assert_eq!(o.body["topCampaigns"], top, "{step}: top campaigns");
    }
    let search = |term: &'static str| {
        let app = &app;
        async move {
            let mut url = reqwest::Url::parse("http://x/api/customers/user").expect("url");
            url.query_pairs_mut().append_pair("search", term);
            let r = app
                .get(&format!("{}?{}", url.path(), url.query().unwrap_or("")), t)
                .await;
            assert_eq!(r.status, 200, "{term}: {}", r.body);
            let mut found = emails(&r.body);
            found.sort();
            assert_eq!(
                r.body["pagination"]["total"],
                found.len(),
                "{term}: total is the matches"
            );
            found
        }
    };

    agree(&app, t, &a, "seeded").await;
    assert_eq!(search("MEERA").await, ["meera@kesar.in"], "not B's Meera");
    assert_eq!(search("98290 111").await, ["meera@kesar.in"]);
    assert_eq!(search("sar hand").await, ["meera@kesar.in"]);
    assert_eq!(search("\"hi\"").await, ["quote@example.in"]);
    assert_eq!(search("100%").await, ["quote@example.in"]);
    assert_eq!(search("_ok_").await, ["quote@example.in"]);
    assert_eq!(search("%ok").await, Vec::<String>::new());
    assert_eq!(
        search("yer\nmee").await,
        Vec::<String>::new(),
        "no match across fields"
    );
    assert_eq!(
        search("iyermeera").await,
        Vec::<String>::new(),
        "fields are not run together"
    );
    assert_eq!(search("ta").await, ["arjun@example.in"], "two letters scan");
    assert_eq!(
        search("example.in").await,
        ["arjun@example.in", "plain@example.in", "quote@example.in"]
    );
    let r = app
        .get("/api/customers/user?search=example.in&status=lead", t)
        .await;
    assert_eq!(emails(&r.body), ["plain@example.in"]);
    assert_eq!(r.body["pagination"]["total"], 1);

    // A change of status and of the searched fields.
    let path = format!("/api/customers/{}", ids[0]);
    let changed = app
        .send(
            "PUT",
            &path,
            t,
            json!({"conversionStatus": "customer", "name": "Meenakshi Iyer", "company": "Indigo Works"}),
        )
        .await;
    assert_eq!(changed.status, 200, "{}", changed.body);
    agree(&app, t, &a, "status changed").await;
    assert_eq!(search("meenakshi").await, ["meera@kesar.in"]);
    assert_eq!(search("indigo").await, ["meera@kesar.in"]);
    assert_eq!(search("kesar hand").await, Vec::<String>::new());
    assert_eq!(
        search("meera@").await,
        ["meera@kesar.in"],
        "email unchanged"
    );
    // A change that moves nothing keeps the counts.
    app.send("PUT", &path, t, json!({"notes": "Called on Monday"}))
        .await;
    agree(&app, t, &a, "notes changed").await;

    // A deleted customer leaves the counts and the search.
    let gone = app
        .send(
            "DELETE",
            &format!("/api/customers/{}", ids[1]),
            t,
            json!({}),
        )
        .await;
    assert_eq!(gone.status, 200, "{}", gone.body);
    agree(&app, t, &a, "deleted").await;
    assert_eq!(search("mehta").await, Vec::<String>::new());

    // Deleting the campaign keeps its customers under its name, without the id.
    let del = app
        .send(
            "DELETE",
            &format!("/api/campaigns/{campaign_id}"),
            t,
            json!({}),
        )
        .await;
    assert_eq!(del.status, 200, "{}", del.body);
    agree(&app, t, &a, "campaign deleted").await;
    let o = app.get("/api/customers/analytics/overview", t).await;
    assert!(
        o.body["topCampaigns"]
            .as_array()
            .expect("top")
            .iter()
            .any(|c| c["campaignName"] == "Holi sale" && c["_id"].is_null()),
        "{}",
        o.body
    );

    // B's figures never moved.
    agree(&app, Some(&other), &b, "owner B").await;
}

/// On PostgreSQL the search must be answered from the trigram index, which
/// is built on the very expression the query uses.
#[tokio::test]
async fn postgres_search_uses_the_trigram_index() {
    use sea_orm::{ConnectionTrait, DbBackend, Statement, TransactionTrait};
    let app = spawn_app().await;
    if app.db.conn.get_database_backend() != DbBackend::Postgres {
        return;
    }
    let tx = app.db.conn.begin().await.expect("tx");
    tx.execute_unprepared("SET LOCAL enable_seqscan = off")
        .await
        .expect("set");
    let plan = tx
        .query_all_raw(Statement::from_string(
            DbBackend::Postgres,
            format!(
                "EXPLAIN SELECT id FROM customers WHERE {} LIKE '%mehta%'",
                ca_customers::service::PG_SEARCH_TEXT
            ),
        ))
        .await
        .expect("explain");
    let text: Vec<String> = plan
        .iter()
        .map(|row| row.try_get_by_index::<String>(0).expect("line"))
        .collect();
    assert!(
        text.iter().any(|l| l.contains("ix_customers_search")),
        "{text:#?}"
    );
}

/// On SQLite a search must start from the FTS5 matches: walking the owner's
/// index and probing every row took most of a second at a million customers.
#[tokio::test]
async fn sqlite_search_starts_from_the_trigram_matches() {
    use sea_orm::{ConnectionTrait, DbBackend, QueryFilter, QueryOrder, QuerySelect, QueryTrait};
    let app = spawn_app().await;
    if app.db.conn.get_database_backend() != DbBackend::Sqlite {
        return;
    }
    let (_, owner_id) = owner(&app, "plan@example.in").await;
    let stmt = customer::Entity::find()
        .filter(ca_customers::service::search_condition(
            DbBackend::Sqlite,
            &owner_id,
            "mehta",
        ))
        .order_by_desc(customer::Column::LastConversationDate)
        .limit(20)
        .build(DbBackend::Sqlite);
    let plan = app
        .db
        .conn
        .query_all_raw(sea_orm::Statement::from_sql_and_values(
            DbBackend::Sqlite,
            format!("EXPLAIN QUERY PLAN {}", stmt.sql),
            stmt.values.map(|v| v.0).unwrap_or_default(),
        ))
        .await
        .expect("plan");
    let lines: Vec<String> = plan
        .iter()
        .map(|row| row.try_get_by_index::<String>(3).expect("detail"))
        .collect();
    assert!(
        lines.iter().any(|l| l.contains("customers_search")),
        "{lines:#?}"
    );
    assert!(
        !lines
            .iter()
            .any(|l| l.starts_with("SEARCH customers USING") && l.contains("owner_id=?")),
        "the owner's index must not drive the search: {lines:#?}"
    );
}

/// An install that already has customers upgrades to the kept counts and the
/// search index: the migration fills both from the rows (and undoes cleanly).
#[tokio::test]
async fn the_migration_fills_counts_and_search_from_existing_customers() {
    use ca_migrations::testing::{redo_only, undo_only};
    use sea_orm::{ColumnTrait, QueryFilter, sea_query::Expr};
    let app = spawn_app().await;
    let (token, a) = owner(&app, "upgrade@example.in").await;
    let t = Some(token.as_str());
    // Back to before the counts and search (and the list indexes that build
    // on its search keys), whatever migrations came after them.
    for name in ["list_order_indexes", "customer_counts_and_search"] {
        undo_only(&app.db.conn, name).await.expect("down");
    }
    seed(
        &app,
        &a,
        &[
            Seed {
                name: Some("Arjun Mehta"),
                ..s("arjun@example.in", "prospect", 40, 2, 3)
            },
            s("plain@example.in", "lead", 10, 1, 5),
            s("third@example.in", "customer", 70, 1, 6),
        ],
    )
    .await;
    customer::Entity::update_many()
        .col_expr(customer::Column::ConversionStatus, Expr::value("churned"))
        .filter(customer::Column::Email.eq("plain@example.in"))
        .exec(&app.db.conn)
        .await
        .expect("change before the upgrade");
    for name in ["customer_counts_and_search", "list_order_indexes"] {
        redo_only(&app.db.conn, name).await.expect("up");
    }
    let (total, stats, top) = counted(&app, &a).await;
    assert_eq!(total, 3);
    let list = app.get("/api/customers/user", t).await;
    assert_eq!(list.body["pagination"]["total"], 3);
    let o = app.get("/api/customers/analytics/overview", t).await;
    assert_eq!(o.body["conversionStats"], stats);
    assert_eq!(
        o.body["conversionStats"],
        json!({"lead": 0, "prospect": 1, "customer": 1, "churned": 1})
    );
    assert_eq!(o.body["topCampaigns"], top);
    let found = app.get("/api/customers/user?search=mehta", t).await;
    assert_eq!(emails(&found.body), ["arjun@example.in"]);
    // And the kept counts go on following changes after the upgrade.
    seed(&app, &a, &[s("fourth@example.in", "lead", 10, 1, 1)]).await;
    let after = app.get("/api/customers/user?status=lead", t).await;
    assert_eq!(after.body["pagination"]["total"], 1);
}

/// The lead score the database computes in place (so counters and score move
/// in one statement) is the documented rule, on every boundary of it.
#[tokio::test]
async fn the_score_stored_in_place_follows_the_rule() {
    let app = spawn_app().await;
    let (_, owner_id) = owner(&app, "score-rule@example.in").await;
    let texts = [None, Some(""), Some("x")];
    let counts = [0i64, 1, 4, 9, 10, 11, 250];
    let mut rows = Vec::new();
    let now = Utc::now();
    for i in 0..300usize {
        let pick = |k: usize, n: usize| (i * (k * 7 + 3) + i / (k + 1)) % n;
        let sessions = counts[pick(6, counts.len())] % 5;
        rows.push(customer::Model {
            id: uuid::Uuid::now_v7().to_string(),
            owner_id: owner_id.clone(),
            email: if i % 13 == 0 {
                String::new()
            } else {
                format!("rule{i}@example.in")
            },
            name: texts[pick(1, 3)].map(str::to_string),
            phone: texts[pick(2, 3)].map(str::to_string),
            company: texts[pick(3, 3)].map(str::to_string),
            notes: None,
            conversion_status: "lead".into(),
            lead_score: -1,
            total_conversations: 1,
            total_messages: counts[pick(4, counts.len())],
            total_page_views: counts[pick(5, counts.len())],
            total_session_seconds: [0i64, 29, 30, 59, 95, 299, 300, 301, 4000][pick(7, 9)]
                * sessions.max(1),
            sessions,
            total_purchases: counts[pick(8, counts.len())] % 4,
            revenue_paise: 0,
            source_campaign_id: None,
            source_campaign: None,
            collected_data: "{}".into(),
            visitor_id: None,
            last_conversation_date: None,
            created_at: now,
            updated_at: now,
        });
    }
    for (i, row) in rows.iter().enumerate() {
        let mut row = row.clone();
        if row.email.is_empty() {
            // One empty email per owner (the email is unique per owner).
            row.email = if i == 0 {
                String::new()
            } else {
                format!("e{i}@example.in")
            };
        }
        customer::ActiveModel::from(row)
            .insert(&app.db.conn)
            .await
            .expect("insert");
    }
    ca_customers::refresh_lead_scores(
        &app.db.conn,
        sea_orm::Condition::all().add(customer::Column::OwnerId.eq(owner_id.as_str())),
    )
    .await
    .expect("refresh");
    let stored = customer::Entity::find()
        .filter(customer::Column::OwnerId.eq(owner_id.as_str()))
        .all(&app.db.conn)
        .await
        .expect("rows");
    assert_eq!(stored.len(), 300);
    let mut distinct = std::collections::BTreeSet::new();
    for c in stored {
        let expected = ca_customers::lead_score(&ca_customers::engagement_of(&c));
        assert_eq!(c.lead_score, expected, "{c:?}");
        distinct.insert(expected);
    }
    assert!(distinct.len() > 30, "the rows cover the rule: {distinct:?}");
}

/// `n` customers of `owner_id` made by `make(k)`, stored in chunks; returns
/// them as stored.
async fn seed_models(
    app: &TestApp,
    owner_id: &str,
    n: usize,
    make: impl Fn(usize) -> customer::Model,
) -> Vec<customer::Model> {
    let models: Vec<customer::Model> = (0..n)
        .map(|k| customer::Model {
            owner_id: owner_id.to_string(),
            ..make(k)
        })
        .collect();
    for chunk in models.chunks(200) {
        customer::Entity::insert_many(
            chunk
                .iter()
                .cloned()
                .map(customer::ActiveModel::from)
                .collect::<Vec<_>>(),
        )
        .exec(&app.db.conn)
        .await
        .expect("seed");
    }
    customer::Entity::find()
        .filter(customer::Column::OwnerId.eq(owner_id))
        .all(&app.db.conn)
        .await
        .expect("stored")
}

/// A customer whose name, email or company holds "Mehta" for every other
/// `k`, with few distinct values in every sorted column, so sorts tie.
fn crowd(k: usize, now: chrono::DateTime<Utc>) -> customer::Model {
    const LAST: [&str; 4] = ["Mehta", "Iyer", "Das", "Nair"];
    let last = LAST[k % 4];
    customer::Model {
        id: uuid::Uuid::now_v7().to_string(),
        owner_id: String::new(),
        email: if k % 4 == 1 {
            format!("mehta.fan{k}@example.in")
        } else {
            format!("person{k}@example.in")
        },
        name: Some(format!("{} {last}", ["Aarav", "MEERA", "Rohan"][k % 3])),
        phone: k.is_multiple_of(5).then(|| format!("+9198{k:08}")),
        company: (k % 7 == 3).then(|| "MEHTA Traders".to_string()),
        notes: None,
        conversion_status: ["lead", "prospect", "customer", "churned"][(k / 3) % 4].into(),
        lead_score: (k % 5) as i32 * 10,
        total_conversations: (k % 3) as i64,
        total_messages: 0,
        total_page_views: 0,
        total_session_seconds: 0,
        sessions: 0,
        total_purchases: 0,
        revenue_paise: 0,
        source_campaign_id: None,
        source_campaign: None,
        collected_data: "{}".into(),
        visitor_id: None,
        last_conversation_date: Some(now - Duration::hours((k % 6) as i64)),
        created_at: now - Duration::days((k % 4) as i64),
        updated_at: now,
    }
}

/// The page the list must show: the owner's customers filtered and sorted by
/// hand (search: case-insensitive substring of name, email, phone or
/// company; ties broken by id in the same direction).
fn by_hand(
    all: &[customer::Model],
    search: Option<&str>,
    status: Option<&str>,
    sort: &str,
    asc: bool,
    page: usize,
    limit: usize,
) -> (usize, Vec<String>) {
    let mut rows: Vec<&customer::Model> = all
        .iter()
        .filter(|c| status.is_none_or(|s| c.conversion_status == s))
        .filter(|c| {
            search.is_none_or(|t| {
                [
                    c.name.as_deref(),
                    Some(c.email.as_str()),
                    c.phone.as_deref(),
                    c.company.as_deref(),
                ]
                .iter()
                .flatten()
                .any(|v| v.to_lowercase().contains(&t.to_lowercase()))
            })
        })
        .collect();
    rows.sort_by(|a, b| {
        let by = match sort {
            "leadScore" => a.lead_score.cmp(&b.lead_score),
            "totalConversations" => a.total_conversations.cmp(&b.total_conversations),
            "createdAt" => a.created_at.cmp(&b.created_at),
            _ => a.last_conversation_date.cmp(&b.last_conversation_date),
        }
        .then_with(|| a.id.cmp(&b.id));
        if asc { by } else { by.reverse() }
    });
    let total = rows.len();
    let page = rows
        .into_iter()
        .skip((page - 1) * limit)
        .take(limit)
        .map(|c| c.email.clone())
        .collect();
    (total, page)
}

/// A term most customers hold, a rare one and none, on every sort, both
/// orders, with and without a status, first, middle and last pages: total
/// and page contents are exactly those of filtering every customer by hand,
/// whichever way the server finds them (walking the sort order when matches
/// are many, sorting the matches when few). Another owner's never show.
#[tokio::test]
async fn search_sort_and_deep_pages_match_a_filter_over_every_customer() {
    let app = spawn_app().await;
    let (token, a) = owner(&app, "crowd@example.in").await;
    let (_, b) = owner(&app, "crowd-other@example.in").await;
    let now = Utc::now();
    let all = seed_models(&app, &a, 1200, |k| crowd(k, now)).await;
    seed_models(&app, &b, 300, |k| crowd(k, now)).await;
    let t = Some(token.as_str());
    // Every sort, order and status for no search and a common term; the
    // default order for a phrase, a rare term and none.
    let sorts = [
        "lastConversationDate",
        "leadScore",
        "totalConversations",
        "createdAt",
    ];
    let mut cases = Vec::new();
    for search in [None, Some("mehta")] {
        for status in [None, Some("customer")] {
            for sort in sorts {
                for asc in [false, true] {
                    cases.push((search, status, sort, asc));
                }
            }
        }
    }
    for search in ["MEERA mehta", "fan11", "zzz-none"] {
        for status in [None, Some("customer")] {
            cases.push((Some(search), status, sorts[0], false));
        }
    }
    for (search, status, sort, asc) in cases {
        for (page, limit) in [(1, 20), (2, 20), (1, 100), (9, 50)] {
            let (total, expected) = by_hand(&all, search, status, sort, asc, page, limit);
            let mut path = format!(
                "/api/customers/user?sortBy={sort}&sortOrder={}&page={page}&limit={limit}",
                if asc { "asc" } else { "desc" }
            );
            if let Some(s) = search {
                path.push_str(&format!("&search={}", s.replace(' ', "%20")));
            }
            if let Some(s) = status {
                path.push_str(&format!("&status={s}"));
            }
            let got = app.get(&path, t).await;
            assert_eq!(got.status, 200, "{path}: {}", got.body);
            assert_eq!(got.body["pagination"]["total"], total, "{path}");
            assert_eq!(emails(&got.body), expected, "{path}");
        }
    }
    // The common term really is common, and each row is the whole customer.
    let (total, _) = by_hand(&all, Some("mehta"), None, "", false, 1, 1);
    assert!(total > 600, "{total}");
    let first = app.get("/api/customers/user?search=mehta&limit=1", t).await;
    let id = first.body["customers"][0]["_id"].as_str().expect("id");
    let one = app.get(&format!("/api/customers/{id}"), t).await;
    assert_eq!(first.body["customers"][0], one.body["customer"]);
}

/// The export spans several pages: every customer exactly once, in id order,
/// each row as the export has always written it.
#[tokio::test]
async fn the_export_writes_every_customer_once_across_pages() {
    let app = spawn_app().await;
    let (token, a) = owner(&app, "pages@example.in").await;
    let now = Utc::now();
    let mut all = seed_models(&app, &a, 5003, |k| customer::Model {
        notes: k
            .is_multiple_of(9)
            .then(|| format!("Called, line one\nline \"two\" {k}")),
        total_session_seconds: (k * 37 % 1000) as i64,
        sessions: (k % 4) as i64,
        total_purchases: (k % 3) as i64,
        revenue_paise: (k * 12_345 % 1_000_000) as i64,
        source_campaign: k.is_multiple_of(2).then(|| "=Diwali".to_string()),
        last_conversation_date: (!k.is_multiple_of(10))
            .then_some(now - Duration::minutes(k as i64)),
        ..crowd(k, now)
    })
    .await;
    all.sort_by(|x, y| x.id.cmp(&y.id));
    let res = app
        .client
        .get(app.url("/api/customers/export/data?format=csv"))
        .bearer_auth(&token)
        .send()
        .await
        .expect("send");
    assert_eq!(res.status(), 200);
    let text = res.text().await.expect("body");
    let mut expected = csv::Writer::from_writer(Vec::new());
    expected
        .write_record(ca_customers::report::CSV_HEADER)
        .expect("header");
    let cell = |v: Option<&str>| ca_customers::report::safe_cell(v.unwrap_or(""));
    for c in &all {
        expected
            .write_record([
                cell(c.name.as_deref()),
                cell(Some(c.email.as_str())),
                cell(c.phone.as_deref()),
                cell(c.company.as_deref()),
                c.conversion_status.clone(),
                c.lead_score.to_string(),
                c.total_conversations.to_string(),
                c.total_page_views.to_string(),
                if c.sessions > 0 {
                    (c.total_session_seconds / c.sessions).to_string()
                } else {
                    "0".into()
                },
                c.total_purchases.to_string(),
                format!("{:.2}", c.revenue_paise as f64 / 100.0),
                cell(c.source_campaign.as_deref()),
                c.last_conversation_date
                    .map(ca_customers::report::iso_date)
                    .unwrap_or_default(),
                ca_customers::report::iso_date(c.created_at),
                cell(c.notes.as_deref()),
            ])
            .expect("row");
    }
    let expected = String::from_utf8(expected.into_inner().expect("csv")).expect("utf-8");
    assert_eq!(text.lines().count(), expected.lines().count());
    assert!(
        text == expected,
        "the export differs from the rows as stored"
    );
}

/// A search that matches more customers than it counts (10,000) says
/// "capped" with the cap as its total, and still pages in the sort order,
/// past the last counted page too; a search under the cap counts exactly.
#[tokio::test]
async fn a_search_past_ten_thousand_matches_stops_counting_and_still_pages() {
    let app = spawn_app().await;
    let (token, a) = owner(&app, "many-mehtas@example.in").await;
    let now = Utc::now();
    let all = seed_models(&app, &a, 10_060, |k| customer::Model {
        email: format!("buyer{k:05}@example.in"),
        name: Some(if k < 10_030 {
            format!("Asha Mehta {k}")
        } else {
            format!("Ravi Iyer {k}")
        }),
        lead_score: (k % 97) as i32,
        company: None,
        ..crowd(k, now)
    })
    .await;
    let t = Some(token.as_str());
    let list = |q: &str| {
        let path = format!("/api/customers/user?{q}");
        let app = &app;
        async move { app.get(&path, t).await }
    };
    let got = list("search=mehta&sortBy=leadScore&sortOrder=desc").await;
    assert_eq!(got.status, 200, "{}", got.body);
    assert_eq!(
        got.body["pagination"],
        json!({"page": 1, "limit": 20, "total": 10_000, "pages": 500, "capped": true})
    );
    let (_, page) = by_hand(&all, Some("mehta"), None, "leadScore", false, 1, 20);
    assert_eq!(emails(&got.body), page);
    // Page 502 is past the counted pages; the last 30 matches are still there.
    let got = list("search=mehta&sortBy=leadScore&sortOrder=desc&page=502").await;
    let (total, page) = by_hand(&all, Some("mehta"), None, "leadScore", false, 502, 20);
    assert_eq!(total, 10_030);
    assert_eq!(page.len(), 10);
    assert_eq!(emails(&got.body), page);
    assert_eq!(got.body["pagination"]["capped"], true);
    // With a status, through the other counting path, the same cap.
    let (total, _) = by_hand(&all, Some("mehta"), Some("lead"), "", false, 1, 1);
    let got = list("search=mehta&status=lead").await;
    assert_eq!(got.body["pagination"]["total"], total.min(10_000));
    assert_eq!(got.body["pagination"]["capped"], total > 10_000);
    // Under the cap: exact, and not capped.
    let got = list("search=iyer").await;
    assert_eq!(got.body["pagination"]["total"], 30);
    assert_eq!(got.body["pagination"]["capped"], false);
    let got = list("").await;
    assert_eq!(got.body["pagination"]["total"], 10_060);
    assert_eq!(got.body["pagination"]["capped"], false);
}

/// Names in any script are found whatever the case the owner types, with
/// one or two letters as with more (SQLite folds only ASCII by itself).
#[tokio::test]
async fn a_search_ignores_the_case_of_non_ascii_letters_at_any_length() {
    let app = spawn_app().await;
    let (token, a) = owner(&app, "unicode-shop@example.in").await;
    let t = Some(token.as_str());
    seed(
        &app,
        &a,
        &[
            Seed {
                name: Some("ÉLODIE Ñúñez"),
                ..s("elodie@example.in", "lead", 10, 1, 1)
            },
            Seed {
                name: Some("zoë"),
                ..s("zoe1@example.in", "lead", 10, 1, 2)
            },
            Seed {
                name: Some("ZOË Das"),
                ..s("zoe2@example.in", "lead", 10, 1, 3)
            },
            Seed {
                name: Some("Ravi"),
                company: Some("Ωmega Ωil"),
                ..s("ravi@example.in", "lead", 10, 1, 4)
            },
        ],
    )
    .await;
    for (term, expected) in [
        ("%C3%A9", vec!["elodie@example.in"]),
        ("%C3%89L", vec!["elodie@example.in"]),
        ("%C3%91%C3%BA", vec!["elodie@example.in"]),
        ("%C3%8B", vec!["zoe1@example.in", "zoe2@example.in"]),
        ("zo%C3%AB", vec!["zoe1@example.in", "zoe2@example.in"]),
        ("%CF%89", vec!["ravi@example.in"]),
        ("%CF%89M", vec!["ravi@example.in"]),
    ] {
        let got = app
            .get(
                &format!("/api/customers/user?search={term}&sortBy=createdAt&sortOrder=asc"),
                t,
            )
            .await;
        assert_eq!(got.status, 200, "{term}: {}", got.body);
        let mut found = emails(&got.body);
        found.sort();
        assert_eq!(found, expected, "{term}");
    }
}
