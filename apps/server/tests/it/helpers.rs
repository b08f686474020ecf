use std::net::TcpListener;

use ca_core::Config;
use ca_migrations::testing::TestDb;
use reqwest::{Client, Response, StatusCode};
use serde_json::{Value, json};

pub const SECRET: &str = "integration-test-secret-integration-test-secret";

pub struct TestApp {
    pub base: String,
    pub client: Client,
    pub db: TestDb,
    /// The server's widget event writer: on SQLite an event is answered once
    /// journalled and stored just after, so a test that reads counts waits
    /// for it with `events.flush()`.
    pub events: ca_tracking::writer::EventWriter,
    workers: ca_server::workers::Workers,
    _data: DataDir,
}

struct DataDir(std::path::PathBuf);

impl Drop for DataDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// How many migrations `Migrator::down` must undo to go back to before the
/// migration whose name contains `name`, whatever came after it.
pub fn steps_back_to(name: &str) -> u32 {
    use ca_migrations::MigratorTrait;
    let all = ca_migrations::Migrator::migrations();
    let at = all
        .iter()
        .position(|m| m.name().contains(name))
        .expect("the migration");
    u32::try_from(all.len() - at).expect("steps")
}

pub async fn spawn_app() -> TestApp {
    spawn_app_with(|_| {}).await
}

/// Like [`spawn_app`], with a change to the configuration.
pub async fn spawn_app_with(change: impl FnOnce(&mut Config)) -> TestApp {
    let db = TestDb::new().await.expect("test database");
    let listener = TcpListener::bind("127.0.0.1:0").expect("bind");
    let port = listener.local_addr().expect("addr").port();
    let base = format!("http://127.0.0.1:{port}");
    let data = std::env::temp_dir().join(format!("ca-it-{}", uuid::Uuid::now_v7()));
    std::fs::create_dir_all(&data).expect("data dir");
    let mut config = Config {
        database_url: db.url.clone(),
        bind: format!("127.0.0.1:{port}"),
        public_url: Some(base.clone()),
        data_dir: data.clone(),
        jwt_secret: Some(SECRET.to_string()),
        static_dir: data.join("no-dashboard"),
        body_limit: 16 * 1024,
        // Webhook receivers of the tests listen on 127.0.0.1.
        webhooks_allow_private: true,
        ..Config::default()
    };
    change(&mut config);
    let state = ca_server::prepare(config).await.expect("prepare");
    ca_server::seal_stored_secrets(&state)
        .await
        .expect("seal stored secrets");
    let events = state.tracking.writer().clone();
    let workers = ca_server::workers::Workers::start(&state);
    let server = ca_server::serve(state, listener).expect("serve");
    tokio::spawn(server);
    TestApp {
        base,
        client: Client::builder()
            .redirect(reqwest::redirect::Policy::none())
            // The server closes a connection idle for 5 s (actix-web's
            // keep-alive); a test that pauses about that long (seeding
            // thousands of rows) must not reuse one it may be closing.
            .pool_idle_timeout(std::time::Duration::from_secs(2))
            .build()
            .expect("client"),
        db,
        events,
        workers,
        _data: DataDir(data),
    }
}

pub struct Reply {
    pub status: StatusCode,
    pub headers: reqwest::header::HeaderMap,
    pub body: Value,
}

impl Reply {
    pub async fn from(res: Response) -> Self {
        let status = res.status();
        let headers = res.headers().clone();
        let text = res.text().await.expect("body");
        let body = serde_json::from_str(&text).unwrap_or(Value::String(text));
        Self {
            status,
            headers,
            body,
        }
    }

    /// Asserts the status and that the body is an error in the API's shape.
    pub fn error(&self, status: u16, code: &str) -> &str {
        assert_eq!(self.status.as_u16(), status, "body: {}", self.body);
        assert_eq!(self.body["success"], false, "body: {}", self.body);
        assert_eq!(self.body["code"], code, "body: {}", self.body);
        self.body["message"].as_str().expect("message")
    }
}

impl TestApp {
    /// Stops one of the server's background workers, for a test that runs
    /// its rounds itself and must not race it.
    pub async fn stop_worker(&mut self, name: &str) {
        assert!(self.workers.stop_one(name).await, "no worker called {name}");
    }

    pub fn url(&self, path: &str) -> String {
        format!("{}{}", self.base, path)
    }

    pub async fn get(&self, path: &str, token: Option<&str>) -> Reply {
        let mut req = self.client.get(self.url(path));
        if let Some(t) = token {
            req = req.bearer_auth(t);
        }
        Reply::from(req.send().await.expect("send")).await
    }

    pub async fn send(&self, method: &str, path: &str, token: Option<&str>, body: Value) -> Reply {
        let method = reqwest::Method::from_bytes(method.as_bytes()).expect("method");
        let mut req = self.client.request(method, self.url(path)).json(&body);
        if let Some(t) = token {
            req = req.bearer_auth(t);
        }
        Reply::from(req.send().await.expect("send")).await
    }

    pub async fn post(&self, path: &str, body: Value) -> Reply {
        self.send("POST", path, None, body).await
    }

    /// Registers an owner and returns `(token, user)`.
    /// The `/metrics` text (this machine may read it without a token).
    pub async fn metrics(&self) -> String {
        self.client
            .get(self.url("/metrics"))
            .send()
            .await
            .expect("metrics")
            .text()
            .await
            .expect("text")
    }

    /// One figure of `/metrics` (a series without labels).
    pub async fn metric(&self, name: &str) -> f64 {
        let metrics = self.metrics().await;
        metrics
            .lines()
            .find_map(|l| l.strip_prefix(name)?.strip_prefix(' ')?.trim().parse().ok())
            .unwrap_or_else(|| panic!("{name} missing from /metrics:\n{metrics}"))
    }

    pub async fn register(&self, email: &str, password: &str) -> (String, Value) {
        let reply = self
            .post(
                "/api/auth/register",
                json!({"name": "Asha Verma", "email": email, "password": password, "phone": "+91 9876543210"}),
            )
            .await;
        assert_eq!(reply.status, 201, "{}", reply.body);
        (
            reply.body["token"].as_str().expect("token").to_string(),
            reply.body["user"].clone(),
        )
    }

    pub async fn login(&self, email: &str, password: &str) -> Reply {
        self.post(
            "/api/auth/login",
            json!({"email": email, "password": password}),
        )
        .await
    }

    /// The token in the newest reset email to `email`.
    pub async fn reset_token_from_outbox(&self, email: &str) -> String {
        let messages = ca_auth::mailer::outbox(&self.db.conn, Some(email), 1)
            .await
            .expect("outbox");
        let body = &messages.first().expect("a reset email").body;
        let marker = "/reset-password?token=";
        let start = body.find(marker).expect("link in email") + marker.len();
        body[start..]
            .chars()
            .take_while(|c| c.is_ascii_hexdigit())
            .collect()
    }

    pub async fn outbox_count(&self, email: &str) -> usize {
        ca_auth::mailer::outbox(&self.db.conn, Some(email), 100)
            .await
            .expect("outbox")
            .len()
    }
}
