//! What staff do to one account and how they answer for it: the audit log
//! (superusers; filtered, newest first, never edited), suspending and
//! restoring an account, a password reset email, signing out everywhere,
//! internal notes, and how long the link of an account staff created works.

use chrono::{Duration, Utc};
use sea_orm::{ColumnTrait, EntityTrait, PaginatorTrait, QueryFilter, QueryOrder};
use serde_json::{Value, json};

use crate::admin::account;
use crate::billing::campaign;
use crate::helpers::{Reply, TestApp, spawn_app, spawn_app_with};

async fn audit(app: &TestApp, token: &str, query: &str) -> Reply {
    app.get(&format!("/api/admin/audit{query}"), Some(token))
        .await
}

fn actions(r: &Reply) -> Vec<String> {
    r.body["data"]["entries"]
        .as_array()
        .unwrap_or_else(|| panic!("entries: {}", r.body))
        .iter()
        .map(|e| e["action"].as_str().expect("action").to_string())
        .collect()
}

async fn entries_stored(app: &TestApp) -> u64 {
    ca_admin::entities::audit_entry::Entity::find()
        .count(&app.db.conn)
        .await
        .expect("count")
}

/// Superusers read every staff action, filtered by actor, account, action
/// and time, newest first, a page at a time; admins and owners are refused
/// by the permission table; no call edits or deletes an entry.
#[tokio::test]
async fn the_audit_log_is_filtered_newest_first_and_cannot_be_changed() {
    let app = spawn_app().await;
    let (su, su_id) = account(&app, "root@example.in", "superuser").await;
    let (admin, admin_id) = account(&app, "desk@example.in", "admin").await;
    let (owner, owner_id) = account(&app, "owner@example.in", "user").await;
    let (_, other_id) = account(&app, "other@example.in", "user").await;

    let r = app
        .send(
            "PUT",
            &format!("/api/admin/users/{owner_id}"),
            Some(&su),
            json!({"name": "Meera Iyer"}),
        )
        .await;
    assert_eq!(r.status, 200, "{}", r.body);
    let r = app
        .send(
            "PUT",
            &format!("/api/admin/users/{other_id}"),
            Some(&admin),
            json!({"name": "Ravi Kumar"}),
        )
        .await;
    assert_eq!(r.status, 200, "{}", r.body);
    // A refusal is on the log too.
    let r = app
        .send(
            "PUT",
            &format!("/api/admin/users/{su_id}"),
            Some(&admin),
            json!({"name": "Nope"}),
        )
        .await;
    assert_eq!(r.status, 403, "{}", r.body);

    let all = audit(&app, &su, "").await;
    assert_eq!(all.status, 200, "{}", all.body);
    assert_eq!(all.body["success"], true);
    assert_eq!(
        actions(&all),
        ["update_user_refused", "update_user", "update_user"],
        "newest first"
    );
    let e = &all.body["data"]["entries"][2];
    for field in [
        "id",
        "at",
        "actorId",
        "actorEmail",
        "action",
        "targetUserId",
        "before",
        "after",
        "viaLoginAs",
    ] {
        assert!(e.get(field).is_some(), "{field} missing: {e}");
    }
    assert_eq!(e["actorId"], su_id.as_str());
    assert_eq!(e["actorEmail"], "root@example.in");
    assert_eq!(e["targetUserId"], owner_id.as_str());
    assert_eq!(e["before"]["name"], "Asha Verma");
    assert_eq!(e["after"]["name"], "Meera Iyer");
    assert_eq!(e["viaLoginAs"], false);
    assert_eq!(all.body["data"]["pagination"]["total"], 3);

    // Filters: by actor (id or part of the email), account, action, time.
    let by_admin = audit(&app, &su, "?actor=DESK@").await;
    assert_eq!(actions(&by_admin), ["update_user_refused", "update_user"]);
    let by_id = audit(&app, &su, &format!("?actor={su_id}")).await;
    assert_eq!(actions(&by_id), ["update_user"]);
    let about_owner = audit(&app, &su, &format!("?targetUserId={owner_id}")).await;
    assert_eq!(actions(&about_owner), ["update_user"]);
    let refused = audit(&app, &su, "?action=update_user_refused").await;
    assert_eq!(actions(&refused), ["update_user_refused"]);
    assert_eq!(
        refused.body["data"]["entries"][0]["targetUserId"],
        su_id.as_str()
    );
    let today = Utc::now().date_naive();
    let tomorrow = today + Duration::days(1);
    let yesterday = today - Duration::days(1);
    assert_eq!(
        actions(&audit(&app, &su, &format!("?from={today}&to={today}")).await).len(),
        3
    );
    assert!(actions(&audit(&app, &su, &format!("?from={tomorrow}")).await).is_empty());
    assert!(actions(&audit(&app, &su, &format!("?to={yesterday}")).await).is_empty());
    // Pages.
    let second = audit(&app, &su, "?limit=1&page=2").await;
    assert_eq!(actions(&second), ["update_user"]);
    assert_eq!(second.body["data"]["pagination"]["pages"], 3);
    assert_eq!(
        second.body["data"]["entries"][0]["actorEmail"],
        "desk@example.in"
    );
    // Bad input is refused with a clear error.
    for bad in ["?from=yesterday", "?to=2026-13-01", "?limit=0", "?page=x"] {
        let r = audit(&app, &su, bad).await;
        assert_eq!(r.status, 400, "{bad}: {}", r.body);
        assert_eq!(r.body["code"], "validation_failed");
    }
    let r = audit(&app, &su, &format!("?from={today}&to={yesterday}")).await;
    assert_eq!(r.status, 400, "{}", r.body);

    // Superusers only, through the permission table.
    let r = audit(&app, &admin, "").await;
    assert_eq!(
        r.error(403, "superuser_required"),
        "Only a superuser can do this"
    );
    let r = audit(&app, &owner, "").await;
    assert_eq!(r.status, 403);
    assert_eq!(r.body["code"], "admin_required");

    // Nothing edits or deletes an entry.
    let before = entries_stored(&app).await;
    let id = all.body["data"]["entries"][0]["id"]
        .as_str()
        .expect("id")
        .to_string();
    for (method, path) in [
        ("DELETE", "/api/admin/audit".to_string()),
        ("DELETE", format!("/api/admin/audit/{id}")),
        ("PUT", format!("/api/admin/audit/{id}")),
        ("PATCH", format!("/api/admin/audit/{id}")),
        ("POST", "/api/admin/audit".to_string()),
    ] {
        let r = app
            .send(method, &path, Some(&su), json!({"action": "nothing"}))
            .await;
        assert!(
            r.status == 404 || r.status == 405,
            "{method} {path}: {} {}",
            r.status,
            r.body
        );
    }
    assert_eq!(entries_stored(&app).await, before);
    let again = audit(&app, &su, "").await;
    assert_eq!(again.body["data"]["entries"], all.body["data"]["entries"]);
    let _ = admin_id;
}

/// Every write made while a superuser is signed in as an owner is on the
/// audit log, attributed to the superuser, about the owner, `viaLoginAs`.
#[tokio::test]
async fn every_write_while_signed_in_as_an_owner_is_on_the_log_via_login_as() {
    let app = spawn_app().await;
    let (su, su_id) = account(&app, "root@example.in", "superuser").await;
    let (_, owner_id) = account(&app, "owner@example.in", "user").await;
    let r = app
        .send(
            "POST",
            "/api/admin/login-as-user",
            Some(&su),
            json!({"userId": owner_id}),
        )
        .await;
    assert_eq!(r.status, 200, "{}", r.body);
    let token = r.body["data"]["token"].as_str().expect("token").to_string();

    let c = app
        .send("POST", "/api/campaigns", Some(&token), campaign("By staff"))
        .await;
    assert_eq!(c.status, 201, "{}", c.body);
    let id = c.body["campaign"]["_id"].as_str().expect("id").to_string();
    let path = format!("/api/campaigns/{id}");
    let u = app
        .send("PUT", &path, Some(&token), campaign("Renamed by staff"))
        .await;
    assert_eq!(u.status, 200, "{}", u.body);
    let me = app
        .send(
            "PUT",
            "/api/auth/me",
            Some(&token),
            json!({"name": "Owner Too"}),
        )
        .await;
    assert_eq!(me.status, 200, "{}", me.body);
    let d = app.send("DELETE", &path, Some(&token), Value::Null).await;
    assert_eq!(d.status, 200, "{}", d.body);
    // Reading is no write.
    app.get("/api/campaigns", Some(&token)).await;

    let r = audit(
        &app,
        &su,
        &format!("?targetUserId={owner_id}&action=request_as_user"),
    )
    .await;
    assert_eq!(r.status, 200, "{}", r.body);
    let entries = r.body["data"]["entries"].as_array().expect("entries");
    let requests: Vec<(String, String)> = entries
        .iter()
        .map(|e| {
            assert_eq!(e["viaLoginAs"], true, "{e}");
            assert_eq!(e["actorId"], su_id.as_str(), "{e}");
            assert_eq!(e["actorEmail"], "root@example.in", "{e}");
            assert_eq!(e["targetUserId"], owner_id.as_str(), "{e}");
            (
                e["request"]["method"].as_str().expect("method").into(),
                e["request"]["path"].as_str().expect("path").into(),
            )
        })
        .collect();
    assert_eq!(
        requests,
        [
            ("DELETE".to_string(), path.clone()),
            ("PUT".to_string(), "/api/auth/me".to_string()),
            ("PUT".to_string(), path.clone()),
            ("POST".to_string(), "/api/campaigns".to_string()),
        ]
    );
    let sign_in = audit(&app, &su, "?action=login_as_user").await;
    assert_eq!(
        sign_in.body["data"]["entries"][0]["viaLoginAs"], false,
        "signing in as the owner is the superuser's own action"
    );
}

/// A suspended account cannot sign in (403 `account_suspended`, a clear
/// message), its sessions end (401), its reset link does not sign it in;
/// its widget keeps working or pauses as staff chose; unsuspending restores
/// everything. Both are on the audit log and the account shows it.
#[tokio::test]
async fn a_suspended_account_cannot_sign_in_and_unsuspending_restores_it() {
    let app = spawn_app_with(|c| c.widget_config_cache_secs = 0).await;
    let (su, _) = account(&app, "root@example.in", "superuser").await;
    let (admin, _) = account(&app, "desk@example.in", "admin").await;
    let (owner, owner_id) = account(&app, "owner@example.in", "user").await;
    let c = app
        .send(
            "POST",
            "/api/campaigns",
            Some(&owner),
            campaign("Diwali offer"),
        )
        .await;
    assert_eq!(c.status, 201, "{}", c.body);
    let config = format!(
        "/api/widget/campaigns/{}/config",
        c.body["campaign"]["_id"].as_str().expect("id")
    );
    assert_eq!(app.get("/api/auth/me", Some(&owner)).await.status, 200);

    // An admin suspends an owner; the widget keeps working.
    let r = app
        .send(
            "POST",
            &format!("/api/admin/users/{owner_id}/suspend"),
            Some(&admin),
            json!({"pauseWidget": false}),
        )
        .await;
    assert_eq!(r.status, 200, "{}", r.body);
    assert!(
        r.body["data"]["user"]["suspendedAt"].is_string(),
        "{}",
        r.body
    );
    assert_eq!(r.body["data"]["user"]["widgetPaused"], false);
    assert_eq!(app.get("/api/auth/me", Some(&owner)).await.status, 401);
    let login = app.login("owner@example.in", "correct horse 1").await;
    let message = login.error(403, "account_suspended").to_string();
    assert!(message.contains("suspended"), "{message}");
    assert!(login.body.get("token").is_none());
    assert_eq!(app.get(&config, None).await.body["active"], true);
    // A reset link does not sign a suspended account in.
    app.post(
        "/api/auth/forgot-password",
        json!({"email": "owner@example.in"}),
    )
    .await;
    let reset = app.reset_token_from_outbox("owner@example.in").await;
    let r = app
        .post(
            "/api/auth/reset-password",
            json!({"token": reset, "password": "new horse 22"}),
        )
        .await;
    r.error(403, "account_suspended");
    // The list and the detail show it.
    let list = app
        .get("/api/admin/users?search=owner%40example.in", Some(&su))
        .await;
    assert!(
        list.body["data"]["users"][0]["suspendedAt"].is_string(),
        "{}",
        list.body
    );

    // A visitor starts a chat while the widget still runs.
    let campaign_id = c.body["campaign"]["_id"].as_str().expect("id").to_string();
    let start = json!({"campaignId": campaign_id, "visitorId": "v_before_pause"});
    let started = app.post("/api/widget/conversations", start.clone()).await;
    assert_eq!(started.status, 201, "{}", started.body);
    let chat = started.body["conversationId"]
        .as_str()
        .expect("id")
        .to_string();

    // Suspending again with the widget paused pauses it.
    let r = app
        .send(
            "POST",
            &format!("/api/admin/users/{owner_id}/suspend"),
            Some(&su),
            json!({"pauseWidget": true}),
        )
        .await;
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(r.body["data"]["user"]["widgetPaused"], true);
    let paused = app.get(&config, None).await;
    assert_eq!(paused.body["active"], false, "{}", paused.body);
    assert_eq!(paused.body["reason"], "paused");
    // Not only the configuration: a page that kept it, or a script calling
    // the API, neither starts a chat nor goes on with one (each reply may
    // cost a paid completion).
    app.post("/api/widget/conversations", start.clone())
        .await
        .error(403, "campaign_inactive");
    app.post(
        &format!("/api/widget/conversations/{chat}/messages"),
        json!({"message": "Is COD available?"}),
    )
    .await
    .error(403, "campaign_inactive");

    // Unsuspending restores sign-in and the widget; the password is as it was.
    let r = app
        .send(
            "POST",
            &format!("/api/admin/users/{owner_id}/unsuspend"),
            Some(&admin),
            Value::Null,
        )
        .await;
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(r.body["data"]["user"]["suspendedAt"], Value::Null);
    let login = app.login("owner@example.in", "correct horse 1").await;
    assert_eq!(login.status, 200, "{}", login.body);
    let fresh = login.body["token"].as_str().expect("token");
    assert_eq!(app.get("/api/auth/me", Some(fresh)).await.status, 200);
    assert_eq!(app.get(&config, None).await.body["active"], true);
    let again = app.post("/api/widget/conversations", start).await;
    assert_eq!(again.status, 201, "{}", again.body);

    let log = audit(&app, &su, &format!("?targetUserId={owner_id}")).await;
    assert_eq!(
        actions(&log),
        ["unsuspend_user", "suspend_user", "suspend_user"]
    );
    let first = &log.body["data"]["entries"][2];
    assert_eq!(first["actorEmail"], "desk@example.in");
    assert_eq!(first["before"]["suspended"], false);
    assert_eq!(first["after"]["suspended"], true);
}

/// Admins suspend owners but not other admins or superusers; superusers
/// suspend admins; nobody suspends themselves; refusals are on record.
#[tokio::test]
async fn suspending_follows_the_permission_table() {
    let app = spawn_app().await;
    let (su, su_id) = account(&app, "root@example.in", "superuser").await;
    let (admin, _) = account(&app, "desk@example.in", "admin").await;
    let (_, peer_id) = account(&app, "peer@example.in", "admin").await;
    let (owner, owner_id) = account(&app, "owner@example.in", "user").await;
    let suspend = |token: String, id: String| {
        let app = &app;
        async move {
            app.send(
                "POST",
                &format!("/api/admin/users/{id}/suspend"),
                Some(&token),
                json!({}),
            )
            .await
        }
    };
    suspend(admin.clone(), peer_id.clone())
        .await
        .error(403, "superuser_required");
    suspend(admin.clone(), su_id.clone())
        .await
        .error(403, "superuser_required");
    suspend(owner.clone(), owner_id.clone())
        .await
        .error(403, "admin_required");
    suspend(su.clone(), su_id.clone())
        .await
        .error(422, "self_action");
    let r = app
        .send(
            "POST",
            &format!("/api/admin/users/{peer_id}/unsuspend"),
            Some(&admin),
            Value::Null,
        )
        .await;
    r.error(403, "superuser_required");
    let r = suspend(su.clone(), peer_id.clone()).await;
    assert_eq!(r.status, 200, "{}", r.body);
    // The suspended admin's sign-in is refused like an owner's.
    app.login("peer@example.in", "correct horse 1")
        .await
        .error(403, "account_suspended");
    let refused = audit(&app, &su, "?action=suspend_user_refused").await;
    let targets: Vec<&str> = refused.body["data"]["entries"]
        .as_array()
        .expect("entries")
        .iter()
        .map(|e| e["targetUserId"].as_str().expect("target"))
        .collect();
    // Newest first: the owner's own try, then the admin's two.
    assert_eq!(
        targets,
        [owner_id.as_str(), su_id.as_str(), peer_id.as_str()]
    );
}

/// From the account's page staff email the usual reset link, sign the
/// account out everywhere, and keep staff-only notes, newest first with
/// their author; each is on the audit log.
#[tokio::test]
async fn staff_send_a_reset_sign_out_everywhere_and_keep_notes() {
    let app = spawn_app().await;
    let (su, _) = account(&app, "root@example.in", "superuser").await;
    let (admin, admin_id) = account(&app, "desk@example.in", "admin").await;
    let (_, peer_id) = account(&app, "peer@example.in", "admin").await;
    let (owner, owner_id) = account(&app, "owner@example.in", "user").await;

    let before = app.outbox_count("owner@example.in").await;
    let r = app
        .send(
            "POST",
            &format!("/api/admin/users/{owner_id}/send-password-reset"),
            Some(&admin),
            Value::Null,
        )
        .await;
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(app.outbox_count("owner@example.in").await, before + 1);
    let mail = ca_auth::mailer::outbox(&app.db.conn, Some("owner@example.in"), 1)
        .await
        .expect("outbox");
    assert!(
        mail[0].body.contains("expires in 1 hour"),
        "{}",
        mail[0].body
    );
    let token = app.reset_token_from_outbox("owner@example.in").await;
    assert!(!token.is_empty());
    // Not another admin's.
    let r = app
        .send(
            "POST",
            &format!("/api/admin/users/{peer_id}/send-password-reset"),
            Some(&admin),
            Value::Null,
        )
        .await;
    r.error(403, "superuser_required");

    assert_eq!(app.get("/api/auth/me", Some(&owner)).await.status, 200);
    let r = app
        .send(
            "POST",
            &format!("/api/admin/users/{owner_id}/sign-out-everywhere"),
            Some(&admin),
            Value::Null,
        )
        .await;
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(app.get("/api/auth/me", Some(&owner)).await.status, 401);
    let again = app.login("owner@example.in", "correct horse 1").await;
    assert_eq!(again.status, 200, "signing in again works: {}", again.body);

    // Notes.
    let notes_path = format!("/api/admin/users/{owner_id}/notes");
    for body in [
        "Asked for a GST invoice by phone",
        "Refund promised for March",
    ] {
        let r = app
            .send("POST", &notes_path, Some(&admin), json!({ "body": body }))
            .await;
        assert_eq!(r.status, 200, "{}", r.body);
        assert_eq!(r.body["data"]["authorId"], admin_id.as_str());
    }
    for bad in [json!({"body": "   "}), json!({"body": "x".repeat(2001)})] {
        let r = app.send("POST", &notes_path, Some(&admin), bad).await;
        r.error(400, "validation_failed");
    }
    let list = app.get(&notes_path, Some(&su)).await;
    assert_eq!(list.status, 200, "{}", list.body);
    let notes = list.body["data"].as_array().expect("notes");
    let bodies: Vec<&str> = notes
        .iter()
        .map(|n| n["body"].as_str().expect("body"))
        .collect();
    assert_eq!(
        bodies,
        [
            "Refund promised for March",
            "Asked for a GST invoice by phone"
        ]
    );
    assert_eq!(notes[0]["authorEmail"], "desk@example.in");
    assert!(notes[0]["createdAt"].is_string());
    // Owners never see notes, not even their own account's.
    app.get(
        &notes_path,
        Some(again.body["token"].as_str().expect("token")),
    )
    .await
    .error(403, "admin_required");
    let missing = app
        .get("/api/admin/users/no-such-user/notes", Some(&su))
        .await;
    assert_eq!(missing.status, 404);

    let log = audit(&app, &su, &format!("?targetUserId={owner_id}")).await;
    assert_eq!(
        actions(&log),
        [
            "add_note",
            "add_note",
            "sign_out_everywhere",
            "send_password_reset"
        ]
    );
}

/// Staff create an owner account without a password (the owner gets a link
/// to choose one); returns its id.
async fn invite_owner(app: &crate::helpers::TestApp, staff: &str, email: &str) -> String {
    let r = app
        .send(
            "POST",
            "/api/users",
            Some(staff),
            json!({"name": "Invited Owner", "email": email}),
        )
        .await;
    assert_eq!(r.status, 200, "{}", r.body);
    r.body["user"]["id"].as_str().expect("id").to_string()
}

/// Staff who correct a mistyped email end the link already sent to the
/// old address: whoever reads that mailbox cannot choose the password of
/// the account at its new one. A link sent after the change works.
#[tokio::test]
async fn a_link_sent_to_an_old_address_ends_when_staff_change_the_email() {
    let app = spawn_app().await;
    let (admin, _) = account(&app, "desk@example.in", "admin").await;
    let id = invite_owner(&app, &admin, "invitd@example.in").await;
    let old_link = app.reset_token_from_outbox("invitd@example.in").await;
    // A refused change (a bad phone) changes nothing, the link included.
    let bad = app
        .send(
            "PUT",
            &format!("/api/admin/users/{id}"),
            Some(&admin),
            json!({"email": "invited@example.in", "phone": "12"}),
        )
        .await;
    assert_eq!(bad.status, 400, "{}", bad.body);
    let r = app
        .send(
            "PUT",
            &format!("/api/admin/users/{id}"),
            Some(&admin),
            json!({"email": "invited@example.in"}),
        )
        .await;
    assert_eq!(r.status, 200, "{}", r.body);
    app.post(
        "/api/auth/reset-password",
        json!({"token": old_link, "password": "taken over 1"}),
    )
    .await
    .error(400, "invalid_reset_token");
    // The old address is told, so a change nobody asked for does not go
    // unnoticed.
    let told = ca_auth::mailer::outbox(&app.db.conn, Some("invitd@example.in"), 1)
        .await
        .expect("outbox");
    assert_eq!(
        told[0].subject,
        "Your ConvertAssist sign-in email was changed"
    );
    // The new address only masked: the old one may be a stranger's.
    assert!(told[0].body.contains("i•••@example.in"), "{}", told[0].body);
    assert!(
        !told[0].body.contains("invited@example.in"),
        "{}",
        told[0].body
    );
    let r = app
        .send(
            "POST",
            &format!("/api/admin/users/{id}/send-password-reset"),
            Some(&admin),
            json!({}),
        )
        .await;
    assert!(
        r.status == 200 || r.status == 204,
        "{} {}",
        r.status,
        r.body
    );
    let new_link = app.reset_token_from_outbox("invited@example.in").await;
    let r = app
        .post(
            "/api/auth/reset-password",
            json!({"token": new_link, "password": "my own horse 1"}),
        )
        .await;
    assert_eq!(r.status, 200, "{}", r.body);
}

/// An account staff create without a password gets a link to choose one
/// that works for 7 days; a reset link asked for later works for 1 hour.
#[tokio::test]
async fn a_staff_created_accounts_link_lasts_seven_days_and_a_reset_link_one_hour() {
    use ca_auth::entities::password_reset_token as link;
    let app = spawn_app().await;
    let (admin, _) = account(&app, "desk@example.in", "admin").await;
    let id = invite_owner(&app, &admin, "invited@example.in").await;
    let mail = ca_auth::mailer::outbox(&app.db.conn, Some("invited@example.in"), 1)
        .await
        .expect("outbox");
    assert!(
        mail[0].body.contains("expires in 7 days"),
        "{}",
        mail[0].body
    );
    let links = |id: String| {
        let app = &app;
        async move {
            link::Entity::find()
                .filter(link::Column::UserId.eq(id))
                .order_by_asc(link::Column::CreatedAt)
                .all(&app.db.conn)
                .await
                .expect("links")
        }
    };
    let invite = links(id.clone()).await;
    assert_eq!(invite.len(), 1);
    let lasts = invite[0].expires_at - invite[0].created_at;
    assert_eq!(lasts, Duration::days(7), "{lasts}");

    let r = app
        .post(
            "/api/auth/forgot-password",
            json!({"email": "invited@example.in"}),
        )
        .await;
    assert_eq!(r.status, 200, "{}", r.body);
    let all = links(id).await;
    assert_eq!(all.len(), 2);
    assert_eq!(all[1].expires_at - all[1].created_at, Duration::hours(1));
    // The invitation's link still works on day 6.
    link::Entity::update_many()
        .col_expr(
            link::Column::ExpiresAt,
            sea_orm::sea_query::Expr::value(Utc::now() + Duration::days(1)),
        )
        .filter(link::Column::Id.eq(&all[0].id))
        .exec(&app.db.conn)
        .await
        .expect("age the link");
    let token = {
        let mails = ca_auth::mailer::outbox(&app.db.conn, Some("invited@example.in"), 2)
            .await
            .expect("outbox");
        let invite_mail = mails
            .iter()
            .find(|m| m.body.contains("7 days"))
            .expect("the invitation");
        let marker = "/reset-password?token=";
        let start = invite_mail.body.find(marker).expect("link") + marker.len();
        invite_mail.body[start..]
            .chars()
            .take_while(|c| c.is_ascii_hexdigit())
            .collect::<String>()
    };
    let r = app
        .post(
            "/api/auth/reset-password",
            json!({"token": token, "password": "chosen horse 7"}),
        )
        .await;
    assert_eq!(r.status, 200, "{}", r.body);
}

/// A name staff type goes into the account's emails (the invitation opens
/// with it): one with a line break is refused, whether inviting or
/// renaming, and nothing is stored or sent.
#[tokio::test]
async fn staff_cannot_put_a_line_break_in_an_accounts_name() {
    let app = spawn_app().await;
    let (admin, _) = account(&app, "names@example.in", "admin").await;
    let r = app
        .send(
            "POST",
            "/api/users",
            Some(&admin),
            json!({"name": "Asha\n\nYour account is locked: https://evil.example", "email": "asha@example.in"}),
        )
        .await;
    assert_eq!(r.status, 400, "{}", r.body);
    assert_eq!(
        r.body["errors"]["name"][0], "Name must be on one line",
        "{}",
        r.body
    );
    let sent = ca_auth::mailer::outbox(&app.db.conn, Some("asha@example.in"), 5)
        .await
        .expect("outbox");
    assert!(sent.is_empty(), "{sent:?}");

    let id = invite_owner(&app, &admin, "asha@example.in").await;
    for name in ["Asha\r\nSupport", "Asha\u{1b}[2J", "Asha\u{85}Team"] {
        let r = app
            .send(
                "PUT",
                &format!("/api/admin/users/{id}"),
                Some(&admin),
                json!({"name": name}),
            )
            .await;
        assert_eq!(r.status, 400, "{name:?}: {}", r.body);
        assert_eq!(
            r.body["errors"]["name"][0], "Name must be on one line",
            "{}",
            r.body
        );
    }
    let stored = ca_auth::entities::user::Entity::find_by_id(id.clone())
        .one(&app.db.conn)
        .await
        .expect("query")
        .expect("user");
    assert_eq!(stored.name, "Invited Owner");
    let r = app
        .send(
            "PUT",
            &format!("/api/admin/users/{id}"),
            Some(&admin),
            json!({"name": "Asha Rao"}),
        )
        .await;
    assert_eq!(r.status, 200, "{}", r.body);
}
