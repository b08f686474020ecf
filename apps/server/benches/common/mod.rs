//! What the webhooks and chat-start benchmarks share: their knobs, the
//! percentile they print, and a server on a fresh database with every
//! widget rate limit out of the way.

#![allow(dead_code, clippy::expect_used)]

use std::net::TcpListener;
use std::path::PathBuf;
use std::time::Duration;

/// The shop the benchmark's visitors are on.
pub const SITE: &str = "https://www.kesar.example.in";

/// A positive whole number from the environment variable `name`, or `default`.
pub fn env_or(name: &str, default: usize) -> usize {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .filter(|n| *n > 0)
        .unwrap_or(default)
}

/// The `p` quantile of `sorted`, in milliseconds.
pub fn pct(sorted: &[Duration], p: f64) -> f64 {
    if sorted.is_empty() {
        return 0.0;
    }
    sorted[((sorted.len() as f64 - 1.0) * p).round() as usize].as_secs_f64() * 1000.0
}

/// A server started for a benchmark.
pub struct Bench {
    pub db: ca_migrations::testing::TestDb,
    /// `SQLite` or `PostgreSQL`.
    pub backend: &'static str,
    /// `http://127.0.0.1:PORT`.
    pub base: String,
    /// Its data folder, removed by [`Bench::finish`].
    pub data: PathBuf,
    /// The background workers, as `ca-server serve` starts them (the
    /// webhook deliveries among them), when asked for.
    pub workers: Option<ca_server::workers::Workers>,
    /// The running server's state.
    pub state: actix_web::web::Data<ca_server::state::AppState>,
}

impl Bench {
    /// Starts the server on a fresh database (SQLite, or PostgreSQL with
    /// `CA_TEST_POSTGRES_URL`), with its workers when `workers`; private
    /// webhook destinations are allowed (receivers listen on this machine).
    pub async fn start(workers: bool) -> Self {
        let db = ca_migrations::testing::TestDb::new().await.expect("db");
        let backend = if db.url.starts_with("postgres") {
            "PostgreSQL"
        } else {
            "SQLite"
        };
        let listener = TcpListener::bind("127.0.0.1:0").expect("bind");
        let base = format!("http://{}", listener.local_addr().expect("addr"));
        let data = std::env::temp_dir().join(format!("ca-bench-{}", uuid::Uuid::now_v7()));
        let config = ca_core::Config {
            database_url: db.url.clone(),
            bind: base.trim_start_matches("http://").to_string(),
            public_url: Some(base.clone()),
            data_dir: data.clone(),
            jwt_secret: Some("bench-secret-bench-secret-bench-secret-0000".into()),
            static_dir: data.join("none"),
            widget_ip_per_minute: u32::MAX,
            widget_campaign_per_minute: u32::MAX,
            widget_events_ip_per_minute: u32::MAX,
            widget_events_campaign_per_minute: u32::MAX,
            widget_new_visitors_per_address: u32::MAX,
            webhooks_allow_private: true,
            log: "warn".into(),
            ..ca_core::Config::default()
        };
        ca_server::cli::init_tracing(&config);
        let state = ca_server::prepare(config).await.expect("prepare");
        let workers = workers.then(|| ca_server::workers::Workers::start(&state));
        tokio::spawn(ca_server::serve(state.clone(), listener).expect("serve"));
        Self {
            db,
            backend,
            base,
            data,
            workers,
            state,
        }
    }

    /// Starts the background workers now, when they were not started with the server.
    pub fn start_workers(&mut self) {
        if self.workers.is_none() {
            self.workers = Some(ca_server::workers::Workers::start(&self.state));
        }
    }

    /// Stops the workers and removes the data folder.
    pub async fn finish(self) {
        if let Some(w) = self.workers {
            w.stop().await;
        }
        let _ = std::fs::remove_dir_all(self.data);
    }
}
