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
