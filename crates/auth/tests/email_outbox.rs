#![allow(clippy::expect_used, clippy::unwrap_used)]
//! The email outbox against a real database (SQLite, or PostgreSQL when
//! CA_TEST_POSTGRES_URL is set) and a mail server on this machine that
//! speaks SMTP as a real one does, including its ways of failing: a
//! mailbox it refuses for good (550), a message it will take only later
//! (451), and a server that accepts the connection and never answers.

use std::collections::HashSet;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use ca_auth::dto::ForgotPasswordIn;
use ca_auth::entities::email_outbox;
use ca_auth::{AuthService, JwtKeys, Mailer};
use ca_core::rate_limit::RateLimiter;
use ca_migrations::testing::TestDb;
use chrono::Utc;
use sea_orm::{
    ActiveModelTrait, DatabaseConnection, EntityTrait, QueryOrder, Set, TransactionTrait,
};
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};
use tokio::net::TcpListener;

const FROM: &str = "ConvertAssist <no-reply@convertassist.example.in>";

/// How the stand-in mail server answers.
#[derive(Clone, Copy, PartialEq)]
enum Mode {
    /// Takes every message.
    Accept,
    /// Answers 451 to the end of a message: "try again later".
    Later,
    /// Accepts connections and never says a word.
    Silent,
}

/// A message the mail server took.
#[derive(Clone, Debug)]
struct Received {
    rcpt: String,
    data: String,
}

#[derive(Clone)]
struct SmtpServer {
    port: u16,
    mode: Arc<Mutex<Mode>>,
    refused: Arc<Mutex<HashSet<String>>>,
    received: Arc<Mutex<Vec<Received>>>,
}

impl SmtpServer {
    async fn start() -> Self {
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let server = Self {
            port: listener.local_addr().unwrap().port(),
            mode: Arc::new(Mutex::new(Mode::Accept)),
            refused: Arc::default(),
            received: Arc::default(),
        };
        let s = server.clone();
        tokio::spawn(async move {
            while let Ok((socket, _)) = listener.accept().await {
                let s = s.clone();
                tokio::spawn(async move { s.session(socket).await });
            }
        });
        server
    }

    fn url(&self) -> String {
        format!("smtp://127.0.0.1:{}", self.port)
    }

    fn set(&self, mode: Mode) {
        *self.mode.lock().unwrap() = mode;
    }

    fn received(&self) -> Vec<Received> {
        self.received.lock().unwrap().clone()
    }

    /// One SMTP conversation (RFC 5321), several messages long if the
    /// client keeps the connection.
    async fn session(&self, socket: tokio::net::TcpStream) {
        let mode = *self.mode.lock().unwrap();
        let (read, mut write) = socket.into_split();
        let mut lines = BufReader::new(read).lines();
        if mode == Mode::Silent {
            // Hold the connection open, reading nothing, answering nothing.
            tokio::time::sleep(Duration::from_secs(120)).await;
            return;
        }
        let say = |text: &str| format!("{text}\r\n");
        let _ = write
            .write_all(say("220 mail.example.in ESMTP").as_bytes())
            .await;
        let mut rcpt = String::new();
        while let Ok(Some(line)) = lines.next_line().await {
            let verb = line.get(..4).unwrap_or("").to_ascii_uppercase();
            let answer = match verb.as_str() {
                "EHLO" => "250-mail.example.in\r\n250-8BITMIME\r\n250 SMTPUTF8".to_string(),
                "HELO" => "250 mail.example.in".to_string(),
                "MAIL" => {
                    rcpt.clear();
                    "250 2.1.0 Ok".to_string()
                }
                "RCPT" => {
                    let addr = line
                        .split_once('<')
                        .and_then(|(_, rest)| rest.split_once('>'))
                        .map(|(a, _)| a.to_string())
                        .unwrap_or_default();
                    if self.refused.lock().unwrap().contains(&addr) {
                        "550 5.1.1 <".to_string() + &addr + ">: Recipient address rejected"
                    } else {
                        rcpt = addr;
                        "250 2.1.5 Ok".to_string()
                    }
                }
                "DATA" => {
                    let _ = write
                        .write_all(say("354 End data with <CR><LF>.<CR><LF>").as_bytes())
                        .await;
                    let mut data = String::new();
                    while let Ok(Some(l)) = lines.next_line().await {
                        if l == "." {
                            break;
                        }
                        data.push_str(&l);
                        data.push('\n');
                    }
                    if *self.mode.lock().unwrap() == Mode::Later {
                        "451 4.3.0 Please try again later".to_string()
                    } else {
                        self.received.lock().unwrap().push(Received {
                            rcpt: rcpt.clone(),
                            data,
                        });
                        "250 2.0.0 Ok: queued".to_string()
                    }
                }
                "RSET" | "NOOP" => "250 2.0.0 Ok".to_string(),
                "QUIT" => {
                    let _ = write.write_all(say("221 2.0.0 Bye").as_bytes()).await;
                    return;
                }
                _ => "502 5.5.2 Error: command not recognized".to_string(),
            };
            if write.write_all(say(&answer).as_bytes()).await.is_err() {
                return;
            }
        }
    }
}

fn mailer(server: &SmtpServer, timeout: Duration) -> Mailer {
    Mailer::with_timeout(Some(&server.url()), FROM, timeout).expect("mailer")
}

async fn messages(db: &DatabaseConnection) -> Vec<email_outbox::Model> {
    email_outbox::Entity::find()
        .order_by_asc(email_outbox::Column::CreatedAt)
        .all(db)
        .await
        .unwrap()
}

/// The account service sending through `server`, with Asha's account.
async fn service_with_asha(db: &TestDb, server: &SmtpServer) -> AuthService {
    let svc = AuthService::new(
        db.conn.clone(),
        JwtKeys::new("outbox-test-secret-outbox-test-secret", 24),
        mailer(server, Duration::from_secs(10)),
        Arc::new(RateLimiter::memory()),
        "https://app.example.in/",
    );
    svc.register(
        ca_auth::dto::RegisterIn {
            name: "Asha Rao".into(),
            email: "asha@example.in".into(),
            password: "secret1".into(),
            phone: "+91 9123456789".into(),
        },
        "1.2.3.4",
    )
    .await
    .unwrap();
    svc
}

async fn queue(mailer: &Mailer, db: &DatabaseConnection, to: &str) {
    let txn = db.begin().await.unwrap();
    mailer
        .send(&txn, to, "Your receipt", "Hi Asha,\n\nThank you: ₹999.\n")
        .await
        .unwrap();
    txn.commit().await.unwrap();
}

#[tokio::test]
async fn a_queued_email_reaches_the_mail_server_once() {
    let db = TestDb::new().await.unwrap();
    let server = SmtpServer::start().await;
    let mailer = mailer(&server, Duration::from_secs(10));
    queue(&mailer, &db.conn, "asha@example.in").await;
    let stored = messages(&db.conn).await;
    assert_eq!(stored.len(), 1);
    assert_eq!(stored[0].status, "pending");
    // Nothing goes out before the sender's round.
    assert!(server.received().is_empty());

    assert_eq!(mailer.tick(&db.conn, Utc::now()).await.unwrap(), 1);
    let got = server.received();
    assert_eq!(got.len(), 1);
    assert_eq!(got[0].rcpt, "asha@example.in");
    assert!(
        got[0].data.contains("Subject: Your receipt"),
        "{}",
        got[0].data
    );
    // The Message-ID is the outbox row's, so a repeat is the same message.
    let id = &stored[0].id;
    assert!(
        got[0]
            .data
            .contains(&format!("Message-ID: <{id}@convertassist.example.in>")),
        "{}",
        got[0].data
    );
    let after = messages(&db.conn).await;
    assert_eq!(after[0].status, "sent");
    assert_eq!(after[0].attempts, 1);
    assert!(after[0].sent_at.is_some());
    assert!(after[0].last_error.is_none());

    // Later rounds send nothing more.
    assert_eq!(mailer.tick(&db.conn, Utc::now()).await.unwrap(), 0);
    assert_eq!(server.received().len(), 1);
}

#[tokio::test]
async fn an_email_whose_transaction_rolls_back_is_never_sent() {
    let db = TestDb::new().await.unwrap();
    let server = SmtpServer::start().await;
    let mailer = mailer(&server, Duration::from_secs(10));
    let txn = db.conn.begin().await.unwrap();
    mailer
        .send(&txn, "asha@example.in", "Reset your password", "a link")
        .await
        .unwrap();
    txn.rollback().await.unwrap();
    assert_eq!(mailer.tick(&db.conn, Utc::now()).await.unwrap(), 0);
    assert!(messages(&db.conn).await.is_empty());
    assert!(server.received().is_empty());
}

#[tokio::test]
async fn try_again_later_is_retried_on_schedule_and_then_delivered() {
    let db = TestDb::new().await.unwrap();
    let server = SmtpServer::start().await;
    server.set(Mode::Later);
    let mailer = mailer(&server, Duration::from_secs(10));
    queue(&mailer, &db.conn, "asha@example.in").await;
    let t0 = Utc::now();
    assert_eq!(mailer.tick(&db.conn, t0).await.unwrap(), 0);
    let m = &messages(&db.conn).await[0];
    assert_eq!(m.status, "pending");
    assert_eq!(m.attempts, 1);
    // 30 s after the round (PostgreSQL keeps microseconds).
    let next = m.next_attempt_at.expect("scheduled");
    assert!(
        (next - (t0 + chrono::Duration::seconds(30)))
            .num_milliseconds()
            .abs()
            < 1
    );
    assert!(m.claimed_until.is_none());
    assert!(
        m.last_error.as_deref().unwrap_or("").contains("451"),
        "{:?}",
        m.last_error
    );
    // Staff see it waiting, since it was written.
    let health = mailer
        .health(&db.conn, t0 + chrono::Duration::seconds(20))
        .await
        .unwrap();
    assert!(health.mail_server);
    assert_eq!(health.waiting, 1);
    assert!(
        (20..=21).contains(&health.oldest_waiting_seconds),
        "{health:?}"
    );
    assert_eq!(health.failed_last7_days, 0);
    // Not before its time.
    server.set(Mode::Accept);
    assert_eq!(
        mailer
            .tick(&db.conn, t0 + chrono::Duration::seconds(29))
            .await
            .unwrap(),
        0
    );
    assert!(server.received().is_empty());
    assert_eq!(
        mailer
            .tick(&db.conn, t0 + chrono::Duration::seconds(31))
            .await
            .unwrap(),
        1
    );
    assert_eq!(server.received().len(), 1);
    let m = &messages(&db.conn).await[0];
    assert_eq!((m.status.as_str(), m.attempts), ("sent", 2));
}

#[tokio::test]
async fn a_refused_mailbox_fails_for_good_and_others_still_go() {
    let db = TestDb::new().await.unwrap();
    let server = SmtpServer::start().await;
    server
        .refused
        .lock()
        .unwrap()
        .insert("gone@example.in".to_string());
    let mailer = mailer(&server, Duration::from_secs(10));
    queue(&mailer, &db.conn, "gone@example.in").await;
    queue(&mailer, &db.conn, "asha@example.in").await;
    assert_eq!(mailer.tick(&db.conn, Utc::now()).await.unwrap(), 1);
    let all = messages(&db.conn).await;
    let gone = all
        .iter()
        .find(|m| m.to_address == "gone@example.in")
        .unwrap();
    assert_eq!(gone.status, "failed");
    assert!(gone.next_attempt_at.is_none());
    assert!(
        gone.last_error.as_deref().unwrap_or("").contains("550"),
        "{:?}",
        gone.last_error
    );
    let asha = all
        .iter()
        .find(|m| m.to_address == "asha@example.in")
        .unwrap();
    assert_eq!(asha.status, "sent");
    // A failed message is not tried again, however long one waits.
    assert_eq!(
        mailer
            .tick(&db.conn, Utc::now() + chrono::Duration::days(2))
            .await
            .unwrap(),
        0
    );
    let received = server.received();
    assert_eq!(received.len(), 1);
    assert_eq!(received[0].rcpt, "asha@example.in");
    // Staff see what was given up this week, and why.
    let health = mailer.health(&db.conn, Utc::now()).await.unwrap();
    assert_eq!((health.waiting, health.oldest_waiting_seconds), (0, 0));
    assert_eq!(health.failed_last7_days, 1);
    let last = health.last_failure.expect("last failure");
    assert_eq!(last.subject, "Your receipt");
    assert!(last.error.contains("550"), "{}", last.error);
    // The mail server's answer names the recipient; staff see it masked.
    assert!(!last.error.contains("gone@example.in"), "{}", last.error);
    let later = mailer
        .health(&db.conn, Utc::now() + chrono::Duration::days(8))
        .await
        .unwrap();
    assert_eq!(later.failed_last7_days, 0);
    assert!(later.last_failure.is_none());
}

#[tokio::test]
async fn a_silent_mail_server_times_out_and_the_retries_run_out() {
    let db = TestDb::new().await.unwrap();
    let server = SmtpServer::start().await;
    server.set(Mode::Silent);
    let mailer = mailer(&server, Duration::from_secs(1));
    queue(&mailer, &db.conn, "asha@example.in").await;
    let mut now = Utc::now();
    for attempt in 1..=6 {
        assert_eq!(mailer.tick(&db.conn, now).await.unwrap(), 0);
        let m = &messages(&db.conn).await[0];
        assert_eq!(m.attempts, attempt);
        assert!(m.last_error.is_some());
        if attempt < 6 {
            assert_eq!(m.status, "pending", "attempt {attempt}");
            now = m.next_attempt_at.expect("scheduled");
        } else {
            assert_eq!(m.status, "failed");
            assert!(m.next_attempt_at.is_none());
        }
    }
    // 30 s, 2 min, 10 min, 1 h and 6 h after the first attempt's round.
    assert!(server.received().is_empty());
}

#[tokio::test]
async fn two_servers_hand_each_message_over_once() {
    let db = TestDb::new().await.unwrap();
    let server = SmtpServer::start().await;
    let one = mailer(&server, Duration::from_secs(10));
    let two = mailer(&server, Duration::from_secs(10));
    for i in 0..12 {
        queue(&one, &db.conn, &format!("owner{i}@example.in")).await;
    }
    let now = Utc::now();
    let (a, b) = tokio::join!(one.tick(&db.conn, now), two.tick(&db.conn, now));
    assert_eq!(a.unwrap() + b.unwrap(), 12);
    let mut rcpts: Vec<String> = server.received().into_iter().map(|r| r.rcpt).collect();
    rcpts.sort();
    rcpts.dedup();
    assert_eq!(rcpts.len(), 12);
    assert_eq!(server.received().len(), 12);
    assert!(messages(&db.conn).await.iter().all(|m| m.status == "sent"));
}

#[tokio::test]
async fn without_a_mail_server_emails_are_kept_and_never_sent() {
    let db = TestDb::new().await.unwrap();
    let local = Mailer::new(None, FROM).unwrap();
    queue(&local, &db.conn, "asha@example.in").await;
    assert_eq!(local.tick(&db.conn, Utc::now()).await.unwrap(), 0);
    let m = &messages(&db.conn).await[0];
    assert_eq!(m.status, "kept");
    assert!(m.next_attempt_at.is_none());
    // A mail server configured later does not send what was kept.
    let server = SmtpServer::start().await;
    let smtp = mailer(&server, Duration::from_secs(10));
    assert_eq!(smtp.tick(&db.conn, Utc::now()).await.unwrap(), 0);
    assert!(server.received().is_empty());
    let listed = ca_auth::mailer::outbox(&db.conn, Some("asha@example.in"), 10)
        .await
        .unwrap();
    assert_eq!(listed.len(), 1);
    assert_eq!(listed[0].status, "kept");
    let health = local.health(&db.conn, Utc::now()).await.unwrap();
    assert!(!health.mail_server);
    assert_eq!(health.waiting, 0);
}

#[tokio::test]
async fn a_password_reset_stores_its_link_and_email_together_and_sends_it() {
    let db = TestDb::new().await.unwrap();
    let server = SmtpServer::start().await;
    let svc = service_with_asha(&db, &server).await;
    svc.forgot_password(
        ForgotPasswordIn {
            email: "asha@example.in".into(),
        },
        "1.2.3.4",
    )
    .await
    .unwrap();
    assert_eq!(svc.mailer().tick(&db.conn, Utc::now()).await.unwrap(), 1);
    let got = server.received();
    assert_eq!(got.len(), 1);
    assert_eq!(got[0].rcpt, "asha@example.in");
    // The body travels quoted-printable: its link is there, whole once decoded.
    let data = got[0].data.replace("=\n", "");
    assert!(data.contains("/reset-password?token=3D"), "{data}");
}

#[tokio::test]
async fn sent_and_failed_emails_are_forgotten_after_a_month_kept_ones_stay() {
    let db = TestDb::new().await.unwrap();
    let old = Utc::now() - chrono::Duration::days(31);
    for (i, status) in ["sent", "failed", "kept", "pending"].iter().enumerate() {
        email_outbox::ActiveModel {
            id: Set(format!("m{i}")),
            to_address: Set("asha@example.in".into()),
            subject: Set("s".into()),
            body: Set("b".into()),
            created_at: Set(old),
            status: Set((*status).into()),
            attempts: Set(1),
            next_attempt_at: Set(None),
            claimed_until: Set(None),
            sent_at: Set(None),
            last_error: Set(None),
            expires_at: Set(None),
            failed_at: Set((*status == "failed").then_some(old)),
        }
        .insert(&db.conn)
        .await
        .unwrap();
    }
    assert_eq!(
        ca_auth::mailer::forget_delivered(&db.conn, Utc::now())
            .await
            .unwrap(),
        2
    );
    let left: Vec<String> = messages(&db.conn)
        .await
        .into_iter()
        .map(|m| m.status)
        .collect();
    assert_eq!(left.len(), 2);
    assert!(left.contains(&"kept".to_string()) && left.contains(&"pending".to_string()));
}

/// Emails stored before messages had a delivery status become `kept`: a
/// mail server configured afterwards does not send them.
#[tokio::test]
async fn emails_from_before_the_upgrade_stay_kept() {
    use ca_migrations::testing::{redo_only, undo_only};
    use sea_orm::ConnectionTrait;
    use sea_orm::sea_query::{Alias, Query};
    let db = TestDb::new().await.unwrap();
    undo_only(&db.conn, "email_delivery").await.expect("down");
    let insert = Query::insert()
        .into_table(Alias::new("email_outbox"))
        .columns(["id", "to_address", "subject", "body", "created_at"].map(Alias::new))
        .values_panic([
            "old-1".into(),
            "asha@example.in".into(),
            "Reset your ConvertAssist password".into(),
            "an old link".into(),
            Utc::now().into(),
        ])
        .to_owned();
    // A new pool after the schema change: on SQLite a connection that read
    // the old schema may still parse against it.
    let conn = ca_core::db::connect(&db.url).await.unwrap();
    conn.execute(&insert).await.unwrap();
    redo_only(&conn, "email_delivery").await.expect("up");
    let conn = ca_core::db::connect(&db.url).await.unwrap();
    let m = &messages(&conn).await[0];
    assert_eq!((m.status.as_str(), m.attempts), ("kept", 0));
    assert!(m.next_attempt_at.is_none() && m.sent_at.is_none());
    let server = SmtpServer::start().await;
    assert_eq!(
        mailer(&server, Duration::from_secs(10))
            .tick(&conn, Utc::now())
            .await
            .unwrap(),
        0
    );
    assert!(server.received().is_empty());
}

/// A password reset held up by a mail server that answers "try later" is
/// not delivered once its link has expired: the owner would get a dead
/// link. It is given up, and says why.
#[tokio::test]
async fn a_reset_email_whose_link_expired_while_waiting_is_given_up() {
    let db = TestDb::new().await.unwrap();
    let server = SmtpServer::start().await;
    server.set(Mode::Later);
    let svc = service_with_asha(&db, &server).await;
    let t0 = Utc::now();
    svc.forgot_password(
        ForgotPasswordIn {
            email: "asha@example.in".into(),
        },
        "1.2.3.4",
    )
    .await
    .unwrap();
    let m = &messages(&db.conn).await[0];
    // The link works for an hour; the email knows it.
    let expires = m.expires_at.expect("a reset email expires");
    assert!(
        (expires - (t0 + chrono::Duration::hours(1)))
            .num_seconds()
            .abs()
            <= 5
    );
    // Four refusals (at once, then 30 s, 2 min and 10 min later): it is
    // still waiting, next tried an hour after the fourth.
    let mut at = Utc::now();
    for _ in 0..4 {
        assert_eq!(svc.mailer().tick(&db.conn, at).await.unwrap(), 0);
        at = messages(&db.conn).await[0]
            .next_attempt_at
            .expect("retried");
    }
    assert_eq!(messages(&db.conn).await[0].status, "pending");
    // The mail server is back, but the next try (after an hour) comes after
    // the link expired: nothing is sent.
    server.set(Mode::Accept);
    assert!(at > expires, "{at} {expires}");
    assert_eq!(svc.mailer().tick(&db.conn, at).await.unwrap(), 0);
    assert!(server.received().is_empty());
    let m = &messages(&db.conn).await[0];
    assert_eq!(m.status, "failed");
    assert_eq!(m.last_error.as_deref(), Some(ca_auth::mailer::EXPIRED));
    // An email without a link still goes at any age.
    queue(svc.mailer(), &db.conn, "asha@example.in").await;
    assert_eq!(
        svc.mailer()
            .tick(&db.conn, Utc::now() + chrono::Duration::days(2))
            .await
            .unwrap(),
        1
    );
}

/// Once the mail server is fixed, staff put the failed emails of the last
/// week back in the queue and they are delivered; older ones, and those
/// whose link has expired, stay failed; nothing else is touched.
#[tokio::test]
async fn failed_emails_of_the_last_week_are_requeued_and_delivered() {
    let db = TestDb::new().await.unwrap();
    let server = SmtpServer::start().await;
    let mailer = mailer(&server, Duration::from_secs(10));
    let now = Utc::now();
    let hours = |h: i64| now - chrono::Duration::hours(h);
    // (id, status, written, given up, link expires)
    let rows = [
        ("receipt", "failed", hours(30), hours(29), None),
        (
            "reset-live",
            "failed",
            hours(0),
            hours(0),
            Some(now + chrono::Duration::minutes(50)),
        ),
        ("reset-dead", "failed", hours(2), hours(2), Some(hours(1))),
        ("old-receipt", "failed", hours(8 * 24), hours(8 * 24), None),
        // Written nine days ago, sent again and given up yesterday: a
        // failure of this week.
        ("late-receipt", "failed", hours(9 * 24), hours(24), None),
        ("delivered", "sent", hours(3), hours(3), None),
        ("kept", "kept", hours(3), hours(3), None),
    ];
    for (id, status, at, failed_at, expires) in rows {
        email_outbox::ActiveModel {
            id: Set(id.into()),
            to_address: Set(format!("{id}@example.in")),
            subject: Set(format!("About {id}")),
            body: Set("b".into()),
            created_at: Set(at),
            status: Set(status.into()),
            attempts: Set(6),
            next_attempt_at: Set(None),
            claimed_until: Set(None),
            sent_at: Set(None),
            last_error: Set((status == "failed").then(|| "451 4.3.0 try later".into())),
            expires_at: Set(expires),
            failed_at: Set((status == "failed").then_some(failed_at)),
        }
        .insert(&db.conn)
        .await
        .unwrap();
    }
    // Staff see the failures of this week by when they were given up: the
    // nine-day-old receipt given up yesterday among them.
    let health = mailer.health(&db.conn, now).await.unwrap();
    assert_eq!(health.failed_last7_days, 4, "{health:?}");
    let last = health.last_failure.expect("the newest failure");
    assert_eq!(last.subject, "About reset-live");
    let (requeued, left) = ca_auth::mailer::requeue_failed(&db.conn, now)
        .await
        .unwrap();
    assert_eq!((requeued, left), (3, 2));
    let status = |all: &[email_outbox::Model], id: &str| {
        let m = all.iter().find(|m| m.id == id).unwrap();
        (m.status.clone(), m.attempts, m.last_error.is_some())
    };
    let all = messages(&db.conn).await;
    assert_eq!(status(&all, "receipt"), ("pending".into(), 0, false));
    assert_eq!(status(&all, "reset-live"), ("pending".into(), 0, false));
    assert_eq!(status(&all, "reset-dead"), ("failed".into(), 6, true));
    assert_eq!(status(&all, "old-receipt"), ("failed".into(), 6, true));
    assert_eq!(status(&all, "late-receipt"), ("pending".into(), 0, false));
    assert_eq!(status(&all, "delivered"), ("sent".into(), 6, false));
    assert_eq!(status(&all, "kept"), ("kept".into(), 6, false));
    assert_eq!(mailer.tick(&db.conn, now).await.unwrap(), 3);
    let mut to: Vec<String> = server.received().into_iter().map(|r| r.rcpt).collect();
    to.sort();
    assert_eq!(
        to,
        [
            "late-receipt@example.in",
            "receipt@example.in",
            "reset-live@example.in"
        ]
    );
    // A second request finds nothing more to put back.
    assert_eq!(
        ca_auth::mailer::requeue_failed(&db.conn, now)
            .await
            .unwrap(),
        (0, 2)
    );
}
