//! With CA_SMTP_URL set, reset emails are stored in the outbox and the server's
//! email worker hands them to the mail server (lettre). A minimal SMTP server
//! on a random port receives them.

use std::sync::{Arc, Mutex};

use serde_json::json;
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};
use tokio::net::TcpListener;

use crate::helpers::spawn_app_with;

/// Accepts SMTP sessions and keeps each message's DATA.
async fn smtp_sink() -> (u16, Arc<Mutex<Vec<String>>>) {
    let listener = TcpListener::bind("127.0.0.1:0").await.expect("bind");
    let port = listener.local_addr().expect("addr").port();
    let messages = Arc::new(Mutex::new(Vec::new()));
    let store = Arc::clone(&messages);
    tokio::spawn(async move {
        while let Ok((socket, _)) = listener.accept().await {
            let store = Arc::clone(&store);
            tokio::spawn(async move {
                let (read, mut write) = socket.into_split();
                let mut lines = BufReader::new(read).lines();
                let _ = write.write_all(b"220 sink ESMTP\r\n").await;
                let mut in_data = false;
                let mut data = String::new();
                while let Ok(Some(line)) = lines.next_line().await {
                    if in_data {
                        if line == "." {
                            in_data = false;
                            store.lock().expect("lock").push(std::mem::take(&mut data));
                            let _ = write.write_all(b"250 queued\r\n").await;
                        } else {
                            data.push_str(&line);
                            data.push('\n');
                        }
                        continue;
                    }
                    let verb = line.get(..4).unwrap_or("").to_ascii_uppercase();
                    let reply: &[u8] = match verb.as_str() {
                        "EHLO" | "HELO" => b"250 sink\r\n",
                        "DATA" => {
                            in_data = true;
                            b"354 go ahead\r\n"
                        }
                        "QUIT" => {
                            let _ = write.write_all(b"221 bye\r\n").await;
                            break;
                        }
                        _ => b"250 ok\r\n",
                    };
                    let _ = write.write_all(reply).await;
                }
            });
        }
    });
    (port, messages)
}

#[tokio::test]
async fn reset_emails_go_out_over_smtp_when_configured() {
    let (port, messages) = smtp_sink().await;
    let app = spawn_app_with(|c| c.smtp_url = Some(format!("smtp://127.0.0.1:{port}"))).await;
    app.register("smtp@example.in", "secret1").await;
    let reply = app
        .post(
            "/api/auth/forgot-password",
            json!({"email": "smtp@example.in"}),
        )
        .await;
    assert_eq!(reply.status, 200);
    // The email worker sends it within a second or so; the answer does not wait for it.
    let mut body = None;
    for _ in 0..50 {
        if let Some(m) = messages.lock().expect("lock").first().cloned() {
            body = Some(m);
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
    let body = body.expect("an email reached the SMTP server");
    assert!(body.contains("To: smtp@example.in"), "{body}");
    assert!(
        body.contains("Subject: Reset your ConvertAssist password"),
        "{body}"
    );
    assert!(body.contains("/reset-password?token="), "{body}");
    // The outbox keeps the message, marked sent once the mail server took it.
    let mut status = String::new();
    for _ in 0..50 {
        let listed = ca_auth::mailer::outbox(&app.db.conn, Some("smtp@example.in"), 10)
            .await
            .expect("outbox");
        assert_eq!(listed.len(), 1, "one message, stored once");
        status = listed[0].status.clone();
        if status == "sent" {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
    assert_eq!(status, "sent");
}

/// Staff put failed emails back in the queue from the System tab once the
/// mail server is fixed, and the sender delivers them; an owner
/// cannot, the action is in the audit log, and without a mail server the
/// call is refused and changes nothing.
#[tokio::test]
async fn staff_requeue_failed_emails_and_the_sender_delivers_them() {
    use sea_orm::{ColumnTrait, EntityTrait, QueryFilter};
    let Staffed {
        app,
        url,
        messages,
        staff,
        staff_id,
        owner,
    } = staffed("mail").await;
    // A password reset the mail server refused (stored as given up; its
    // link still works for the hour).
    let r = app
        .post(
            "/api/auth/forgot-password",
            json!({"email": "mail-owner@example.in"}),
        )
        .await;
    assert_eq!(r.status, 200);
    give_up(&app.db.conn, "mail-owner@example.in").await;
    let health = app.get("/api/admin/system/health", Some(&staff)).await;
    assert_eq!(
        health.body["data"]["email"]["failedLast7Days"], 1,
        "{}",
        health.body
    );

    app.send(
        "POST",
        "/api/admin/system/emails/requeue",
        Some(&owner),
        json!({}),
    )
    .await
    .error(403, "admin_required");
    let r = app
        .send(
            "POST",
            "/api/admin/system/emails/requeue",
            Some(&staff),
            json!({}),
        )
        .await;
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(r.body["data"]["requeued"], 1);
    assert_eq!(r.body["data"]["leftFailed"], 0);
    // The next round of the sender hands it over.
    assert_eq!(sender_round(&app, &url).await, 1);
    let delivered = messages.lock().expect("lock").clone();
    assert_eq!(delivered.len(), 1);
    assert!(
        delivered[0].contains("To: mail-owner@example.in"),
        "{delivered:?}"
    );
    let audited = ca_admin::entities::audit_entry::Entity::find()
        .filter(ca_admin::entities::audit_entry::Column::ActorId.eq(&staff_id))
        .filter(ca_admin::entities::audit_entry::Column::Action.eq("requeue_emails"))
        .all(&app.db.conn)
        .await
        .expect("audit");
    assert_eq!(audited.len(), 1);

    // Without a mail server: refused, and the failed email stays failed.
    let kept = crate::helpers::spawn_app().await;
    let (kept_staff, _) = crate::admin::account(&kept, "kept-staff@example.in", "admin").await;
    kept.register("bina@example.in", "correct horse 1").await;
    let r = kept
        .post(
            "/api/auth/forgot-password",
            json!({"email": "bina@example.in"}),
        )
        .await;
    assert_eq!(r.status, 200);
    give_up(&kept.db.conn, "bina@example.in").await;
    kept.send(
        "POST",
        "/api/admin/system/emails/requeue",
        Some(&kept_staff),
        json!({}),
    )
    .await
    .error(422, "no_mail_server");
    let listed = ca_auth::mailer::outbox(&kept.db.conn, Some("bina@example.in"), 10)
        .await
        .expect("outbox");
    assert_eq!(listed[0].status, "failed");
}

/// Staff check the mail server by emailing themselves a test message; it
/// goes through the outbox like every email. An owner cannot; without a
/// mail server it is refused and nothing is stored.
#[tokio::test]
async fn staff_send_themselves_a_test_email() {
    let Staffed {
        app,
        url,
        messages,
        staff,
        owner,
        ..
    } = staffed("test-mail").await;
    app.send(
        "POST",
        "/api/admin/system/emails/test",
        Some(&owner),
        json!({}),
    )
    .await
    .error(403, "admin_required");
    let r = app
        .send(
            "POST",
            "/api/admin/system/emails/test",
            Some(&staff),
            json!({}),
        )
        .await;
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(r.body["data"]["to"], "test-mail-staff@example.in");
    let health = app.get("/api/admin/system/health", Some(&staff)).await;
    assert_eq!(
        health.body["data"]["email"]["waiting"], 1,
        "{}",
        health.body
    );
    assert_eq!(sender_round(&app, &url).await, 1);
    let got = messages.lock().expect("lock").clone();
    assert_eq!(got.len(), 1);
    assert!(got[0].contains("To: test-mail-staff@example.in"), "{got:?}");
    assert!(
        got[0].contains("Subject: ConvertAssist test email"),
        "{got:?}"
    );

    let kept = crate::helpers::spawn_app().await;
    let (kept_staff, _) = crate::admin::account(&kept, "kept-test@example.in", "admin").await;
    kept.send(
        "POST",
        "/api/admin/system/emails/test",
        Some(&kept_staff),
        json!({}),
    )
    .await
    .error(422, "no_mail_server");
    let listed = ca_auth::mailer::outbox(&kept.db.conn, Some("kept-test@example.in"), 10)
        .await
        .expect("outbox");
    assert!(listed.is_empty(), "{listed:?}");
}

/// A server sending to a mail server on this machine, whose sender's
/// rounds the test runs itself (so none races its changes), with a staff
/// member and an owner.
struct Staffed {
    app: crate::helpers::TestApp,
    url: String,
    messages: Arc<Mutex<Vec<String>>>,
    staff: String,
    staff_id: String,
    owner: String,
}

async fn staffed(tag: &str) -> Staffed {
    let (port, messages) = smtp_sink().await;
    let url = format!("smtp://127.0.0.1:{port}");
    let mut app = spawn_app_with(|c| c.smtp_url = Some(url.clone())).await;
    app.stop_worker("email outbox").await;
    let (staff, staff_id) =
        crate::admin::account(&app, &format!("{tag}-staff@example.in"), "admin").await;
    let (owner, _) = crate::admin::account(&app, &format!("{tag}-owner@example.in"), "user").await;
    Staffed {
        app,
        url,
        messages,
        staff,
        staff_id,
        owner,
    }
}

/// One round of the sender against the mail server at `url`; how many
/// emails it delivered.
async fn sender_round(app: &crate::helpers::TestApp, url: &str) -> usize {
    ca_auth::Mailer::new(Some(url), "ConvertAssist <no-reply@example.in>")
        .expect("mailer")
        .tick(&app.db.conn, chrono::Utc::now())
        .await
        .expect("tick")
}

/// Marks the emails to `to` as given up by the mail server.
async fn give_up(db: &sea_orm::DatabaseConnection, to: &str) {
    use ca_auth::entities::email_outbox as outbox;
    use sea_orm::sea_query::Expr;
    use sea_orm::{ColumnTrait, EntityTrait, QueryFilter};
    let n = outbox::Entity::update_many()
        .col_expr(outbox::Column::Status, Expr::value("failed"))
        .col_expr(outbox::Column::Attempts, Expr::value(6))
        .col_expr(
            outbox::Column::LastError,
            Expr::value(Some("451 4.3.0 try later".to_string())),
        )
        .col_expr(
            outbox::Column::FailedAt,
            Expr::value(Some(chrono::Utc::now())),
        )
        .filter(outbox::Column::ToAddress.eq(to))
        .exec(db)
        .await
        .expect("give up")
        .rows_affected;
    assert_eq!(n, 1);
}
