//! The operator commands, run as a person would: the built `ca-server` binary.

use std::process::Command;

use sea_orm::{ColumnTrait, EntityTrait, QueryFilter};

use crate::helpers::spawn_app;

fn ca_server(db_url: &str, data_dir: &std::path::Path) -> Command {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_ca-server"));
    cmd.env("CA_DATABASE_URL", db_url)
        .env("CA_DATA_DIR", data_dir)
        .env("CA_LOG", "warn");
    cmd
}

/// `ca-server create-superuser` with `email` and `password`; asserts it worked.
pub(crate) fn create_superuser(
    db_url: &str,
    data_dir: &std::path::Path,
    email: &str,
    password: &str,
) {
    let out = ca_server(db_url, data_dir)
        .args([
            "create-superuser",
            "--email",
            email,
            "--name",
            "Staff",
            "--phone",
            "+91 9000000009",
            "--password",
            password,
        ])
        .output()
        .expect("run");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

// The commands run as blocking child processes: the server under test keeps
// running on worker threads meanwhile, so none of its transactions is left
// holding the write lock while the test thread waits.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn create_superuser_demo_outbox_and_openapi() {
    let app = spawn_app().await;
    let data = std::env::temp_dir().join(format!("ca-cli-{}", uuid::Uuid::now_v7()));
    std::fs::create_dir_all(&data).expect("dir");

    create_superuser(&app.db.url, &data, "Staff@Example.in", "staff-pass");
    let login = app.login("staff@example.in", "staff-pass").await;
    assert_eq!(login.status, 200);
    assert_eq!(login.body["user"]["role"], "superuser");
    assert_eq!(login.body["user"]["isInTrial"], false);

    // A second account with the same email is refused with the API's message.
    let again = ca_server(&app.db.url, &data)
        .args([
            "create-superuser",
            "--email",
            "staff@example.in",
            "--name",
            "Staff",
            "--phone",
            "+91 9000000009",
            "--password",
            "staff-pass",
        ])
        .output()
        .expect("run");
    assert!(!again.status.success());
    assert!(
        String::from_utf8_lossy(&again.stderr)
            .contains("An account with this email already exists")
    );

    // The demo accounts are created only on a database without accounts.
    let demo = ca_server(&app.db.url, &data)
        .arg("demo")
        .output()
        .expect("run");
    assert!(demo.status.success());
    assert!(String::from_utf8_lossy(&demo.stdout).contains("no demo accounts were created"));

    app.post(
        "/api/auth/forgot-password",
        serde_json::json!({"email": "staff@example.in"}),
    )
    .await;
    let outbox = ca_server(&app.db.url, &data)
        .args(["outbox", "--to", "staff@example.in", "--limit", "1"])
        .output()
        .expect("run");
    let messages: serde_json::Value = serde_json::from_slice(&outbox.stdout).expect("json");
    assert_eq!(messages[0]["to"], "staff@example.in");
    assert!(
        messages[0]["body"]
            .as_str()
            .expect("body")
            .contains("/reset-password?token=")
    );

    let doc = ca_server(&app.db.url, &data)
        .arg("openapi")
        .output()
        .expect("run");
    let doc: serde_json::Value = serde_json::from_slice(&doc.stdout).expect("json");
    assert_eq!(doc["openapi"], "3.1.0");
    let _ = std::fs::remove_dir_all(&data);
}

#[tokio::test]
async fn demo_creates_two_accounts_once_and_prints_them() {
    let data = std::env::temp_dir().join(format!("ca-demo-{}", uuid::Uuid::now_v7()));
    std::fs::create_dir_all(&data).expect("dir");
    let db = ca_migrations::testing::TestDb::new().await.expect("db");
    let first = ca_server(&db.url, &data).arg("demo").output().expect("run");
    assert!(
        first.status.success(),
        "{}",
        String::from_utf8_lossy(&first.stderr)
    );
    let text = String::from_utf8_lossy(&first.stdout).to_string();
    assert!(
        text.contains("superuser: admin@demo.convertassist.local / "),
        "{text}"
    );
    assert!(
        text.contains("owner:     owner@demo.convertassist.local / "),
        "{text}"
    );
    let second = ca_server(&db.url, &data).arg("demo").output().expect("run");
    let again = String::from_utf8_lossy(&second.stdout).to_string();
    assert!(again.contains("created earlier"), "{again}");
    let password = text
        .lines()
        .find(|l| l.contains("owner@demo"))
        .and_then(|l| l.rsplit(" / ").next())
        .expect("password")
        .trim()
        .to_string();
    let svc_user = ca_auth::entities::user::Entity::find()
        .filter(ca_auth::entities::user::Column::Email.eq("owner@demo.convertassist.local"))
        .one(&db.conn)
        .await
        .expect("query")
        .expect("owner exists");
    assert!(ca_auth::password::verify(&password, &svc_user.password_hash).await);
    assert_eq!(svc_user.subscription_status, "trial");
    let _ = std::fs::remove_dir_all(&data);
}
