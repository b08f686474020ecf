//! The staff's users table: sorting by any column it shows, filters by plan
//! and sign-up dates, every parameter checked, the CSV export of the whole
//! filtered list, and the bulk actions (change plan, password reset) that
//! follow the permission table account by account, each on the audit log.

use chrono::{DateTime, Duration, TimeZone, Utc};
use sea_orm::sea_query::Expr;
use sea_orm::{ColumnTrait, EntityTrait, QueryFilter};
use serde_json::{Value, json};

use crate::admin::account;
use crate::helpers::{Reply, TestApp, spawn_app};

use ca_auth::entities::user;

fn day(m: u32, d: u32) -> DateTime<Utc> {
    Utc.with_ymd_and_hms(2026, m, d, 9, 30, 0)
        .single()
        .expect("date")
}

/// Sets what a test needs of an account that registration cannot: its
/// name, sign-up and last sign-in.
async fn shape(
    app: &TestApp,
    id: &str,
    name: &str,
    created: DateTime<Utc>,
    last_login: Option<DateTime<Utc>>,
) {
    user::Entity::update_many()
        .col_expr(user::Column::Name, Expr::value(name))
        .col_expr(user::Column::CreatedAt, Expr::value(created))
        .col_expr(user::Column::LastLoginAt, Expr::value(last_login))
        .filter(user::Column::Id.eq(id))
        .exec(&app.db.conn)
        .await
        .expect("shape");
}

async fn list(app: &TestApp, token: &str, query: &str) -> Reply {
    app.get(&format!("/api/admin/users?{query}"), Some(token))
        .await
}

fn emails(r: &Reply) -> Vec<String> {
    assert_eq!(r.status, 200, "{}", r.body);
    r.body["data"]["users"]
        .as_array()
        .unwrap_or_else(|| panic!("users: {}", r.body))
        .iter()
        .map(|u| u["email"].as_str().expect("email").to_string())
        .collect()
}

async fn audit_actions(app: &TestApp, su: &str, target: &str) -> Vec<String> {
    let r = app
        .get(&format!("/api/admin/audit?targetUserId={target}"), Some(su))
        .await;
    assert_eq!(r.status, 200, "{}", r.body);
    r.body["data"]["entries"]
        .as_array()
        .expect("entries")
        .iter()
        .map(|e| e["action"].as_str().expect("action").to_string())
        .collect()
}

async fn plan_of(app: &TestApp, id: &str) -> (String, String) {
    let u = user::Entity::find_by_id(id.to_string())
        .one(&app.db.conn)
        .await
        .expect("read")
        .expect("user");
    (u.plan_id, u.subscription_status)
}

/// Three owners signed up in January, February and March 2026.
async fn three_owners(app: &TestApp) -> [String; 3] {
    let (_, c) = account(app, "charlie@example.in", "user").await;
    let (_, a) = account(app, "alpha@example.in", "user").await;
    let (_, b) = account(app, "bravo@example.in", "user").await;
    shape(app, &a, "alpha", day(1, 10), Some(day(11, 2))).await;
    shape(app, &b, "Bravo", day(2, 10), None).await;
    shape(app, &c, "Charlie", day(3, 10), Some(day(10, 2))).await;
    [a, b, c]
}

#[tokio::test]
async fn the_user_list_sorts_by_each_column_and_filters_by_plan_and_sign_up_dates() {
    let app = spawn_app().await;
    let (su, _) = account(&app, "root@example.in", "superuser").await;
    let [alpha, _, _] = three_owners(&app).await;
    let (a, b, c) = ("alpha@example.in", "bravo@example.in", "charlie@example.in");

    // Default: newest sign-up first.
    assert_eq!(emails(&list(&app, &su, "role=user").await), [c, b, a]);
    // Names A to Z whatever their case, and back.
    assert_eq!(
        emails(&list(&app, &su, "role=user&sort=name").await),
        [a, b, c]
    );
    assert_eq!(
        emails(&list(&app, &su, "role=user&sort=name&order=desc").await),
        [c, b, a]
    );
    assert_eq!(
        emails(&list(&app, &su, "role=user&sort=email&order=asc").await),
        [a, b, c]
    );
    assert_eq!(
        emails(&list(&app, &su, "role=user&sort=createdAt&order=asc").await),
        [a, b, c]
    );
    // Never signed in: last, ascending or descending.
    assert_eq!(
        emails(&list(&app, &su, "role=user&sort=lastLoginAt&order=asc").await),
        [c, a, b]
    );
    assert_eq!(
        emails(&list(&app, &su, "role=user&sort=lastLoginAt").await),
        [a, c, b]
    );
    // Roles: superuser after user in descending order.
    let by_role = emails(&list(&app, &su, "sort=role&order=desc").await);
    assert_eq!(by_role.first().map(String::as_str), Some(c), "{by_role:?}");
    assert_eq!(by_role.last().map(String::as_str), Some("root@example.in"));
    // Pages follow the order.
    let page2 = list(&app, &su, "role=user&sort=name&limit=2&page=2").await;
    assert_eq!(emails(&page2), [c]);
    assert_eq!(page2.body["data"]["pagination"]["totalUsers"], 3);

    // Plan and status: alpha put on Basic by hand.
    let ends = (Utc::now() + Duration::days(30)).to_rfc3339();
    let r = app
        .send(
            "POST",
            &format!("/api/admin/users/{alpha}/change-plan"),
            Some(&su),
            json!({"planId": "basic", "subscriptionStatus": "active", "subscriptionEndsAt": ends}),
        )
        .await;
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(emails(&list(&app, &su, "planId=basic").await), [a]);
    assert_eq!(
        emails(&list(&app, &su, "planId=basic&subscriptionStatus=trial").await),
        Vec::<String>::new()
    );
    assert_eq!(
        emails(&list(&app, &su, "role=user&sort=plan&order=asc").await)[0],
        a
    );

    // Sign-up dates: days are whole and `to` is included.
    assert_eq!(
        emails(&list(&app, &su, "role=user&from=2026-02-01&to=2026-02-10").await),
        [b]
    );
    assert_eq!(
        emails(&list(&app, &su, "role=user&from=2026-02-10").await),
        [c, b]
    );
    assert_eq!(
        emails(&list(&app, &su, "role=user&to=2026-02-09").await),
        [a]
    );
    assert_eq!(
        emails(
            &list(
                &app,
                &su,
                "from=2026-01-10T09:30:00Z&to=2026-01-10T09:31:00Z"
            )
            .await
        ),
        [a]
    );
    // Combined with a search and an order.
    assert_eq!(
        emails(
            &list(
                &app,
                &su,
                "search=A&from=2026-02-01&to=2026-03-31&sort=name"
            )
            .await
        ),
        [b, c]
    );
}

#[tokio::test]
async fn every_parameter_of_the_user_list_is_checked() {
    let app = spawn_app().await;
    let (su, _) = account(&app, "root@example.in", "superuser").await;
    let (owner, _) = account(&app, "owner@example.in", "user").await;
    for (query, field, says) in [
        ("sort=phone", "sort", "sort must be one of name, email"),
        ("sort=name&order=up", "order", "order must be asc or desc"),
        ("from=2026-13-01", "from", "from must be a date"),
        ("to=yesterday", "to", "to must be a date"),
        (
            "from=2026-03-01&to=2026-02-01",
            "to",
            "to must not be before from",
        ),
        (
            "planId=platinum",
            "planId",
            "no plan with the id \"platinum\"",
        ),
        ("role=owner", "role", "Role must be"),
        (
            "subscriptionStatus=paid",
            "subscriptionStatus",
            "Subscription status must be",
        ),
        ("limit=500", "limit", "limit"),
    ] {
        // The export has no pages: it takes every parameter but page and limit.
        let paths: &[&str] = if field == "limit" {
            &["/api/admin/users"]
        } else {
            &["/api/admin/users", "/api/admin/users/export"]
        };
        for path in paths {
            let r = app.get(&format!("{path}?{query}"), Some(&su)).await;
            let message = r.error(400, "validation_failed");
            assert!(message.contains(says), "{path}?{query}: {message}");
            assert!(r.body["errors"][field].is_array(), "{query}: {}", r.body);
        }
    }
    // Owners may neither list nor export.
    list(&app, &owner, "").await.error(403, "admin_required");
    app.get("/api/admin/users/export", Some(&owner))
        .await
        .error(403, "admin_required");
    assert_eq!(app.get("/api/admin/users/export", None).await.status, 401);
}

/// Reads the export of `query` as rows of cells (the file is simple: no
/// cell of these tests holds a comma or a quote except where checked).
async fn export(app: &TestApp, token: &str, query: &str) -> (Reply, Vec<String>) {
    let r = app
        .get(&format!("/api/admin/users/export?{query}"), Some(token))
        .await;
    assert_eq!(r.status, 200, "{}", r.body);
    let text = r.body.as_str().expect("csv text").to_string();
    assert!(text.ends_with("\r\n"));
    let lines = text
        .trim_end_matches("\r\n")
        .split("\r\n")
        .map(str::to_string)
        .collect();
    (r, lines)
}

#[tokio::test]
async fn the_csv_export_holds_every_matching_account_not_only_a_page() {
    let app = spawn_app().await;
    let (su, _) = account(&app, "root@example.in", "superuser").await;
    let (admin, _) = account(&app, "desk@example.in", "admin").await;
    let [alpha, _, _] = three_owners(&app).await;
    // More owners than a page holds, signed up in April.
    for i in 0..11 {
        let (_, id) = account(&app, &format!("shop{i:02}@example.in"), "user").await;
        shape(&app, &id, &format!("Shop {i:02}"), day(4, 1 + i), None).await;
    }
    // A name a spreadsheet would run.
    shape(
        &app,
        &alpha,
        "=HYPERLINK(\"http://evil.example\",\"x\")",
        day(1, 10),
        Some(day(11, 2)),
    )
    .await;

    let (r, lines) = export(&app, &admin, "role=user&sort=email&order=asc").await;
    assert_eq!(
        r.headers["content-type"].to_str().expect("type"),
        "text/csv; charset=utf-8"
    );
    assert!(
        r.headers["content-disposition"]
            .to_str()
            .expect("disposition")
            .starts_with("attachment; filename=\"users-")
    );
    assert_eq!(r.headers["x-total-count"], "14");
    assert_eq!(
        lines[0],
        "id,name,email,phone,role,plan,status,cancels at period end,suspended at,campaigns,payments,paid (INR),last payment at,subscription ends at,signed up at,last login at"
    );
    assert_eq!(lines.len(), 1 + 14, "{lines:#?}");
    // alpha first (by email), its name guarded and quoted, dates ISO 8601 in UTC.
    let first = &lines[1];
    assert!(
        first.starts_with(&format!(
            "{alpha},\"'=HYPERLINK(\"\"http://evil.example\"\",\"\"x\"\")\",alpha@example.in,"
        )),
        "{first}"
    );
    assert!(
        first.ends_with(",2026-01-10T09:30:00Z,2026-11-02T09:30:00Z"),
        "{first}"
    );
    // The phone number registration stored is written as it is.
    assert!(first.contains(",+91"), "{first}");
    assert!(lines[2].starts_with(&format!(
        "{},Bravo,bravo@example.in,",
        lines[2].split(',').next().expect("id")
    )));
    assert!(lines[2].ends_with(",2026-02-10T09:30:00Z,"), "{}", lines[2]);
    assert!(
        lines[4].contains(",Shop 00,shop00@example.in,"),
        "{}",
        lines[4]
    );

    // The list's filters apply: sign-up in April only, newest first.
    let (_, april) = export(&app, &su, "from=2026-04-01&to=2026-04-30").await;
    assert_eq!(april.len(), 1 + 11);
    assert!(april[1].contains(",shop10@example.in,"), "{}", april[1]);
    assert!(april[11].contains(",shop00@example.in,"), "{}", april[11]);
    // Nothing matches: the header alone.
    let (_, none) = export(&app, &su, "search=nobody-like-this").await;
    assert_eq!(none.len(), 1);
}

#[tokio::test]
async fn bulk_change_plan_applies_to_each_account_and_skips_what_the_role_may_not_touch() {
    let app = spawn_app().await;
    let (su, su_id) = account(&app, "root@example.in", "superuser").await;
    let (admin, _) = account(&app, "desk@example.in", "admin").await;
    let (_, peer) = account(&app, "peer@example.in", "admin").await;
    let (owner, o1) = account(&app, "one@example.in", "user").await;
    let (_, o2) = account(&app, "two@example.in", "user").await;
    let ends = (Utc::now() + Duration::days(30)).to_rfc3339();
    let path = "/api/admin/users/bulk/change-plan";

    // Wrong input: answered, nothing changed, nothing on the log.
    for (body, field) in [
        (
            json!({"userIds": [], "planId": "basic", "subscriptionStatus": "free"}),
            "userIds",
        ),
        (
            json!({"userIds": [o1, " "], "planId": "basic", "subscriptionStatus": "free"}),
            "userIds",
        ),
        (
            json!({"userIds": [o1], "planId": "platinum", "subscriptionStatus": "active", "subscriptionEndsAt": ends}),
            "planId",
        ),
        (
            json!({"userIds": [o1], "planId": "basic", "subscriptionStatus": "gold"}),
            "subscriptionStatus",
        ),
        (
            json!({"userIds": [o1], "planId": "basic", "subscriptionStatus": "active"}),
            "subscriptionEndsAt",
        ),
        (
            json!({"userIds": [o1], "planId": "basic", "subscriptionStatus": "active", "subscriptionEndsAt": "2020-01-01T00:00:00Z"}),
            "subscriptionEndsAt",
        ),
    ] {
        let r = app.send("POST", path, Some(&admin), body.clone()).await;
        r.error(400, "validation_failed");
        assert!(r.body["errors"][field].is_array(), "{body}: {}", r.body);
    }
    let too_many: Vec<String> = (0..101).map(|i| format!("id-{i}")).collect();
    app.send(
        "POST",
        path,
        Some(&admin),
        json!({"userIds": too_many, "planId": "free", "subscriptionStatus": "free"}),
    )
    .await
    .error(400, "validation_failed");
    assert_eq!(plan_of(&app, &o1).await.0, "free");
    assert!(audit_actions(&app, &su, &o1).await.is_empty());

    // An admin: owners changed; the superuser and another admin skipped and named.
    let r = app
        .send(
            "POST",
            path,
            Some(&admin),
            json!({"userIds": [o1, o2, su_id, peer, "no-such-user", o1],
                "planId": "basic", "subscriptionStatus": "active", "subscriptionEndsAt": ends}),
        )
        .await;
    assert_eq!(r.status, 200, "{}", r.body);
    let data = &r.body["data"];
    let done: Vec<&str> = data["done"]
        .as_array()
        .expect("done")
        .iter()
        .map(|d| d["email"].as_str().expect("email"))
        .collect();
    assert_eq!(done, ["one@example.in", "two@example.in"]);
    let skipped: Vec<(Value, Value)> = data["skipped"]
        .as_array()
        .expect("skipped")
        .iter()
        .map(|s| (s["email"].clone(), s["code"].clone()))
        .collect();
    assert_eq!(
        skipped,
        [
            (json!("root@example.in"), json!("superuser_required")),
            (json!("peer@example.in"), json!("superuser_required")),
            (Value::Null, json!("user_not_found")),
        ]
    );
    let message = data["message"].as_str().expect("message");
    assert!(
        message.starts_with("Plan changed for 2 users; 3 users skipped: root@example.in (Only a superuser can do this)"),
        "{message}"
    );
    assert_eq!(plan_of(&app, &o1).await, ("basic".into(), "active".into()));
    assert_eq!(plan_of(&app, &o2).await, ("basic".into(), "active".into()));
    assert_eq!(plan_of(&app, &su_id).await.0, "free");
    assert_eq!(plan_of(&app, &peer).await.0, "free");
    // One entry per account, the refusals too.
    assert_eq!(audit_actions(&app, &su, &o1).await, ["change_plan"]);
    assert_eq!(audit_actions(&app, &su, &o2).await, ["change_plan"]);
    assert_eq!(
        audit_actions(&app, &su, &su_id).await,
        ["change_plan_refused"]
    );
    assert_eq!(
        audit_actions(&app, &su, &peer).await,
        ["change_plan_refused"]
    );

    // A superuser may change another staff account; owners may not bulk at all.
    let r = app
        .send(
            "POST",
            path,
            Some(&su),
            json!({"userIds": [peer], "planId": "free", "subscriptionStatus": "free"}),
        )
        .await;
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(r.body["data"]["skipped"], json!([]));
    assert_eq!(r.body["data"]["message"], "Plan changed for 1 user.");
    app.send(
        "POST",
        path,
        Some(&owner),
        json!({"userIds": [o2], "planId": "free", "subscriptionStatus": "free"}),
    )
    .await
    .error(403, "admin_required");
    assert_eq!(plan_of(&app, &o2).await.0, "basic");
}

#[tokio::test]
async fn bulk_password_reset_emails_each_account_through_the_reset_path() {
    let app = spawn_app().await;
    let (su, su_id) = account(&app, "root@example.in", "superuser").await;
    let (admin, _) = account(&app, "desk@example.in", "admin").await;
    let (_, peer) = account(&app, "peer@example.in", "admin").await;
    let (owner, o1) = account(&app, "one@example.in", "user").await;
    let (_, o2) = account(&app, "two@example.in", "user").await;
    let path = "/api/admin/users/bulk/send-password-reset";

    app.send("POST", path, Some(&admin), json!({"userIds": []}))
        .await
        .error(400, "validation_failed");
    app.send("POST", path, Some(&owner), json!({"userIds": [o2]}))
        .await
        .error(403, "admin_required");
    assert_eq!(app.outbox_count("two@example.in").await, 0);

    let r = app
        .send(
            "POST",
            path,
            Some(&admin),
            json!({"userIds": [o1, su_id, o2, peer]}),
        )
        .await;
    assert_eq!(r.status, 200, "{}", r.body);
    let data = &r.body["data"];
    assert_eq!(data["done"].as_array().expect("done").len(), 2);
    let skipped: Vec<&str> = data["skipped"]
        .as_array()
        .expect("skipped")
        .iter()
        .map(|s| s["email"].as_str().expect("email"))
        .collect();
    assert_eq!(skipped, ["root@example.in", "peer@example.in"]);
    assert!(
        data["message"]
            .as_str()
            .expect("message")
            .starts_with("Password reset email sent to 2 users; 2 users skipped"),
        "{}",
        data["message"]
    );
    // The usual reset email, with a link that works.
    for email in ["one@example.in", "two@example.in"] {
        assert_eq!(app.outbox_count(email).await, 1, "{email}");
        let token = app.reset_token_from_outbox(email).await;
        let reset = app
            .post(
                "/api/auth/reset-password",
                json!({"token": token, "password": "a new horse 22"}),
            )
            .await;
        assert_eq!(reset.status, 200, "{email}: {}", reset.body);
    }
    assert_eq!(app.outbox_count("root@example.in").await, 0);
    assert_eq!(app.outbox_count("peer@example.in").await, 0);
    assert_eq!(audit_actions(&app, &su, &o1).await, ["send_password_reset"]);
    assert_eq!(
        audit_actions(&app, &su, &su_id).await,
        ["send_password_reset_refused"]
    );
    assert_eq!(
        audit_actions(&app, &su, &peer).await,
        ["send_password_reset_refused"]
    );
    // A superuser reaches the other admin.
    let r = app
        .send("POST", path, Some(&su), json!({"userIds": [peer]}))
        .await;
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(app.outbox_count("peer@example.in").await, 1);
}
