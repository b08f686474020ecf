//! `cargo xtask soak`: starts release servers on a fresh database, drives the
//! mixed widget traffic of a busy site through them for a set time (60 %
//! configuration reads, 35 % page views and impressions, 5 % new
//! conversations), samples each server's resident memory, the SQLite log's
//! size and the log output, and at the end compares the events the servers
//! acknowledged with the events stored. Prints a table and writes
//! `summary.json`; exits non-zero when a request got a 5xx, an acknowledged
//! event is missing, or memory kept growing.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use anyhow::{Context, bail};
use clap::Parser;
use rand::{Rng, SeedableRng};
use sea_orm::{ConnectionTrait, Database, DatabaseConnection, Statement};
use serde_json::{Value, json};

/// The site the soak campaign belongs to; events carry it as their origin.
const SITE: &str = "https://soak.example.in";
/// Distinct visitors the traffic is drawn from (under the Enterprise plan's
/// 100,000 monthly visitors, so the campaign stays live all along).
const VISITORS: usize = 50_000;
const SAMPLE_EVERY: Duration = Duration::from_secs(10);
/// Memory is compared from here on (the database's page caches and the
/// connection pools fill up first).
const WARM_UP: Duration = Duration::from_secs(5 * 60);

#[derive(Debug, Parser)]
#[command(
    name = "ca-soak",
    about = "Sustained mixed widget traffic against release servers"
)]
struct Args {
    /// The ca-server binary to run (a release build).
    #[arg(long)]
    server_bin: PathBuf,
    /// How long to drive traffic.
    #[arg(long, default_value_t = 30.0)]
    minutes: f64,
    /// A PostgreSQL server (`postgres://user@host:port/db`): a new database
    /// is created on it for the run. SQLite (a new file) when omitted.
    #[arg(long)]
    database_url: Option<String>,
    /// Server instances sharing the load (over one database and Redis).
    #[arg(long, default_value_t = 1)]
    instances: usize,
    /// Redis for the shared rate-limit counters when there is more than one instance.
    #[arg(long, default_value = "redis://127.0.0.1:6379")]
    redis_url: String,
    /// Give a single instance Redis too, as a scaled-out install's instances
    /// have it (to compare one instance and several on the same setup).
    #[arg(long)]
    with_redis: bool,
    /// Concurrent connections of the load generator.
    #[arg(long, default_value_t = 16)]
    connections: usize,
    /// Where the database, server logs and summary go (a new folder under
    /// the system's temporary folder when omitted).
    #[arg(long)]
    out: Option<PathBuf>,
}

#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Debug)]
enum Op {
    Config,
    PageView,
    Impression,
    Conversation,
}

impl Op {
    fn name(self) -> &'static str {
        match self {
            Op::Config => "config",
            Op::PageView => "pageview",
            Op::Impression => "impression",
            Op::Conversation => "conversation",
        }
    }
}

/// What one load task saw.
#[derive(Default)]
struct Tally {
    latencies_us: Vec<u32>,
    /// The same latencies per operation.
    by_op: BTreeMap<Op, Vec<u32>>,
    /// Per operation: answers by status (0 = no answer).
    statuses: BTreeMap<Op, BTreeMap<u16, u64>>,
}

struct Instance {
    base: String,
    child: Child,
    log: PathBuf,
}

struct Sample {
    at: Duration,
    rss_mib: Vec<f64>,
    wal_mib: f64,
    log_mib: f64,
}

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let args = Args::parse();
    if args.instances == 0 || args.connections == 0 || args.minutes <= 0.0 {
        bail!("--instances, --connections and --minutes must be above 0");
    }
    if args.instances > 1 && args.database_url.is_none() {
        bail!("several instances share one PostgreSQL database: give --database-url");
    }
    let out = args.out.clone().unwrap_or_else(|| {
        std::env::temp_dir().join(format!(
            "ca-soak-{}",
            chrono::Utc::now().format("%Y%m%d-%H%M%S")
        ))
    });
    std::fs::create_dir_all(&out).with_context(|| format!("creating {}", out.display()))?;
    let (database_url, backend) = match &args.database_url {
        Some(url) => (fresh_postgres(url).await?, "PostgreSQL"),
        None => (
            format!("sqlite://{}?mode=rwc", out.join("soak.db").display()),
            "SQLite",
        ),
    };
    println!(
        "soak: {backend}, {} instance(s){}, {} connections, {} min; files in {}",
        args.instances,
        if args.instances > 1 || args.with_redis {
            " with Redis"
        } else {
            ""
        },
        args.connections,
        args.minutes,
        out.display()
    );
    let secret = format!(
        "{:032x}{:016x}",
        rand::random::<u128>(),
        rand::random::<u64>()
    );
    let env = ServerEnv {
        bin: args.server_bin.clone(),
        database_url: database_url.clone(),
        secret,
        redis: (args.instances > 1 || args.with_redis).then(|| args.redis_url.clone()),
        out: out.clone(),
    };
    let setup_log = std::fs::File::create(out.join("setup.log"))?;
    env.command(0, "127.0.0.1:0")
        .arg("migrate")
        .stdout(setup_log.try_clone()?)
        .stderr(setup_log.try_clone()?)
        .status()
        .context("migrating")?
        .success()
        .then_some(())
        .context("migrate failed")?;
    let staff_password = "soak-staff-password-1";
    let created = env
        .command(0, "127.0.0.1:0")
        .args([
            "create-superuser",
            "--email",
            "soak-staff@example.in",
            "--name",
            "Soak Staff",
            "--phone",
            "+91 9876543210",
            "--password",
            staff_password,
        ])
        .stdout(Stdio::null())
        .stderr(setup_log)
        .status()
        .context("creating the staff account")?;
    if !created.success() {
        bail!("create-superuser failed");
    }
    let mut instances = Vec::new();
    for i in 0..args.instances {
        instances.push(env.start(i)?);
    }
    let client = reqwest::Client::builder()
        .pool_max_idle_per_host(args.connections)
        .timeout(Duration::from_secs(60))
        .build()?;
    for instance in &instances {
        wait_ready(&client, &instance.base).await?;
    }
    let campaign = setup(&client, &instances[0].base, staff_password).await?;
    let pids: Vec<u32> = instances.iter().map(|i| i.child.id()).collect();
    let logs: Vec<PathBuf> = instances.iter().map(|i| i.log.clone()).collect();
    let sqlite_file = args.database_url.is_none().then(|| out.join("soak.db"));

    let run_for = Duration::from_secs_f64(args.minutes * 60.0);
    let started = Instant::now();
    let stop = Arc::new(AtomicBool::new(false));
    let sampler = {
        let stop = stop.clone();
        tokio::spawn(async move {
            let mut samples = Vec::new();
            let mut tick = tokio::time::interval(SAMPLE_EVERY);
            let mut last_print = Duration::ZERO;
            loop {
                tick.tick().await;
                let sample = Sample {
                    at: started.elapsed(),
                    rss_mib: pids.iter().map(|p| rss_mib(*p)).collect(),
                    wal_mib: sqlite_file.as_deref().map_or(0.0, wal_mib),
                    log_mib: logs.iter().map(|l| file_mib(l)).sum(),
                };
                if sample.at >= last_print + Duration::from_secs(60) {
                    last_print = sample.at;
                    println!(
                        "  {:>5.1} min  RSS {:?} MiB  WAL {:.1} MiB  log {:.2} MiB",
                        sample.at.as_secs_f64() / 60.0,
                        sample
                            .rss_mib
                            .iter()
                            .map(|r| r.round() as i64)
                            .collect::<Vec<_>>(),
                        sample.wal_mib,
                        sample.log_mib
                    );
                }
                samples.push(sample);
                if stop.load(Ordering::Relaxed) {
                    return samples;
                }
            }
        })
    };
    let bases: Arc<Vec<String>> = Arc::new(instances.iter().map(|i| i.base.clone()).collect());
    let mut tasks = Vec::new();
    for n in 0..args.connections {
        let client = client.clone();
        let bases = bases.clone();
        let campaign = campaign.clone();
        tasks.push(tokio::spawn(async move {
            drive(n, client, bases, campaign, started + run_for).await
        }));
    }
    let mut tally = Tally::default();
    for task in tasks {
        let t = task.await?;
        tally.latencies_us.extend(t.latencies_us);
        for (op, l) in t.by_op {
            tally.by_op.entry(op).or_default().extend(l);
        }
        for (op, by_status) in t.statuses {
            for (status, n) in by_status {
                *tally
                    .statuses
                    .entry(op)
                    .or_default()
                    .entry(status)
                    .or_default() += n;
            }
        }
    }
    let elapsed = started.elapsed();
    stop.store(true, Ordering::Relaxed);
    let samples = sampler.await?;

    let mut writer_figures = Vec::new();
    for base in bases.iter() {
        writer_figures.push(metrics(&client, base).await.unwrap_or_default());
    }
    let db = Database::connect(&database_url).await?;
    let stored_at_stop = stored(&db, &campaign).await?;
    // A graceful stop writes whatever is still queued or, on SQLite,
    // journalled and not yet stored (on PostgreSQL nothing should be: events
    // are answered only once stored there).
    for instance in &mut instances {
        let _ = Command::new("kill")
            .args(["-TERM", &instance.child.id().to_string()])
            .status();
    }
    for instance in &mut instances {
        let _ = instance.child.wait();
    }
    let stored_after = stored(&db, &campaign).await?;
    let wal_final = args
        .database_url
        .is_none()
        .then(|| wal_mib(&out.join("soak.db")));

    let report = Report {
        backend,
        instances: args.instances,
        connections: args.connections,
        elapsed,
        tally,
        samples,
        stored_at_stop,
        stored_after,
        writer_figures,
        wal_final,
        log_bytes: instances.iter().map(|i| file_bytes(&i.log)).sum(),
    };
    let ok = report.print();
    std::fs::write(
        out.join("summary.json"),
        serde_json::to_vec_pretty(&report.json())?,
    )?;
    println!("summary: {}", out.join("summary.json").display());
    if !ok {
        std::process::exit(1);
    }
    Ok(())
}

struct ServerEnv {
    bin: PathBuf,
    database_url: String,
    secret: String,
    redis: Option<String>,
    out: PathBuf,
}

impl ServerEnv {
    fn command(&self, n: usize, bind: &str) -> Command {
        let mut cmd = Command::new(&self.bin);
        let public = format!("http://{bind}");
        cmd.env("CA_DATABASE_URL", &self.database_url)
            .env("CA_BIND", bind)
            .env("CA_PUBLIC_URL", public)
            .env("CA_DATA_DIR", self.out.join(format!("data-{n}")))
            .env("CA_STATIC_DIR", self.out.join("no-dashboard"))
            .env("CA_JWT_SECRET", &self.secret)
            // Instances on one database share the key sealing its secrets.
            .env("CA_DATA_KEY", format!("data-key|{}", self.secret))
            // Every rate limit out of the way: one machine sends it all.
            .env("CA_WIDGET_IP_PER_MINUTE", "100000000")
            .env("CA_WIDGET_CAMPAIGN_PER_MINUTE", "100000000")
            .env("CA_WIDGET_EVENTS_IP_PER_MINUTE", "100000000")
            .env("CA_WIDGET_EVENTS_CAMPAIGN_PER_MINUTE", "100000000")
            .env("CA_WIDGET_NEW_VISITORS_PER_ADDRESS", "100000000")
            .env("CA_REGISTRATIONS_PER_IP_PER_HOUR", "1000")
            .env_remove("CA_LOG")
            .env_remove("RUST_LOG");
        match &self.redis {
            Some(url) => cmd.env("CA_REDIS_URL", url),
            None => cmd.env_remove("CA_REDIS_URL"),
        };
        cmd
    }

    fn start(&self, n: usize) -> anyhow::Result<Instance> {
        let port = std::net::TcpListener::bind("127.0.0.1:0")?
            .local_addr()?
            .port();
        let bind = format!("127.0.0.1:{port}");
        let log = self.out.join(format!("server-{n}.log"));
        let file = std::fs::File::create(&log)?;
        let child = self
            .command(n, &bind)
            .arg("serve")
            .stdout(file.try_clone()?)
            .stderr(file)
            .spawn()
            .with_context(|| format!("starting {}", self.bin.display()))?;
        Ok(Instance {
            base: format!("http://{bind}"),
            child,
            log,
        })
    }
}

/// Creates a new database on the PostgreSQL server at `url` and returns its URL.
async fn fresh_postgres(url: &str) -> anyhow::Result<String> {
    let admin = Database::connect(url)
        .await
        .with_context(|| format!("connecting to {url}"))?;
    let name = format!(
        "ca_soak_{}",
        &uuid::Uuid::now_v7().simple().to_string()[20..]
    );
    admin
        .execute_unprepared(&format!("CREATE DATABASE {name}"))
        .await?;
    let (server, _) = url
        .rsplit_once('/')
        .context("the PostgreSQL URL needs a database name")?;
    Ok(format!("{server}/{name}"))
}

async fn wait_ready(client: &reqwest::Client, base: &str) -> anyhow::Result<()> {
    for _ in 0..300 {
        if let Ok(r) = client.get(format!("{base}/readyz")).send().await
            && r.status().is_success()
        {
            return Ok(());
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    bail!("{base} did not become ready in 30 s")
}

async fn call(req: reqwest::RequestBuilder) -> anyhow::Result<Value> {
    let res = req.send().await?;
    let status = res.status();
    let body: Value = res.json().await.unwrap_or(Value::Null);
    if !status.is_success() {
        bail!("{status}: {body}");
    }
    Ok(body)
}

/// An owner on the Enterprise plan with one live campaign; returns its id.
async fn setup(
    client: &reqwest::Client,
    base: &str,
    staff_password: &str,
) -> anyhow::Result<String> {
    let owner = call(
        client
            .post(format!("{base}/api/auth/register"))
            .json(&json!({
                "name": "Soak Owner", "email": "soak-owner@example.in",
                "password": "soak-owner-password-1", "phone": "+91 9876543210"
            })),
    )
    .await?;
    let owner_token = owner["token"].as_str().context("owner token")?.to_string();
    let owner_id = owner["user"]["_id"]
        .as_str()
        .or_else(|| owner["user"]["id"].as_str())
        .context("owner id")?
        .to_string();
    let staff = call(client.post(format!("{base}/api/auth/login")).json(&json!({
        "email": "soak-staff@example.in", "password": staff_password
    })))
    .await?;
    let staff_token = staff["token"].as_str().context("staff token")?;
    call(
        client
            .post(format!("{base}/api/admin/users/{owner_id}/change-plan"))
            .bearer_auth(staff_token)
            .json(&json!({
                "planId": "enterprise", "subscriptionStatus": "active",
                "subscriptionEndsAt": (chrono::Utc::now() + chrono::Duration::days(365)).to_rfc3339()
            })),
    )
    .await?;
    let created = call(
        client
            .post(format!("{base}/api/campaigns"))
            .bearer_auth(&owner_token)
            .json(&json!({"name": "Soak", "websiteUrl": SITE})),
    )
    .await?;
    Ok(created["campaign"]["_id"]
        .as_str()
        .context("campaign id")?
        .to_string())
}

/// One connection's closed loop of requests until `until`.
async fn drive(
    n: usize,
    client: reqwest::Client,
    bases: Arc<Vec<String>>,
    campaign: String,
    until: Instant,
) -> Tally {
    let mut tally = Tally::default();
    let mut rng = rand::rngs::StdRng::seed_from_u64(n as u64 + 1);
    let mut i = n;
    while Instant::now() < until {
        let base = &bases[i % bases.len()];
        i += 1;
        let roll: f64 = rng.r#gen();
        let visitor = format!("v_soak_{:06}", rng.gen_range(0..VISITORS));
        let (op, req) = if roll < 0.60 {
            (
                Op::Config,
                client.get(format!("{base}/api/widget/campaigns/{campaign}/config")),
            )
        } else if roll < 0.95 {
            let op = if roll < 0.775 {
                Op::PageView
            } else {
                Op::Impression
            };
            let body = json!({"campaignId": campaign, "visitorId": visitor, "type": op.name()});
            (
                op,
                client
                    .post(format!("{base}/api/widget/events"))
                    .header("origin", SITE)
                    .header("content-type", "text/plain")
                    .body(body.to_string()),
            )
        } else {
            (
                Op::Conversation,
                client
                    .post(format!("{base}/api/widget/conversations"))
                    .header("origin", SITE)
                    .json(&json!({
                        "campaignId": campaign, "visitorId": visitor,
                        "sessionId": format!("s_soak_{}", uuid::Uuid::now_v7().simple()),
                        "userContext": {"page": format!("{SITE}/pricing"), "referrer": "https://www.google.com/"}
                    })),
            )
        };
        let t = Instant::now();
        let status = match req.send().await {
            Ok(res) => {
                let status = res.status().as_u16();
                // Read the whole answer, as a browser would.
                let _ = res.bytes().await;
                status
            }
            Err(_) => 0,
        };
        let us = u32::try_from(t.elapsed().as_micros()).unwrap_or(u32::MAX);
        tally.latencies_us.push(us);
        tally.by_op.entry(op).or_default().push(us);
        *tally
            .statuses
            .entry(op)
            .or_default()
            .entry(status)
            .or_default() += 1;
    }
    tally
}

#[derive(Default, Debug, Clone, Copy)]
struct Stored {
    impressions: i64,
    page_views: i64,
    conversations: i64,
}

async fn count(db: &DatabaseConnection, sql: &str, campaign: &str) -> anyhow::Result<i64> {
    let backend = db.get_database_backend();
    let sql = if backend == sea_orm::DbBackend::Postgres {
        sql.replace('?', "$1")
    } else {
        sql.to_string()
    };
    let row = db
        .query_one_raw(Statement::from_sql_and_values(
            backend,
            sql,
            [campaign.into()],
        ))
        .await?
        .context("no row")?;
    Ok(row.try_get_by_index::<Option<i64>>(0)?.unwrap_or(0))
}

async fn stored(db: &DatabaseConnection, campaign: &str) -> anyhow::Result<Stored> {
    Ok(Stored {
        impressions: count(db, "SELECT impressions FROM campaigns WHERE id = ?", campaign).await?,
        page_views: count(
            db,
            "SELECT CAST(SUM(page_views) AS BIGINT) FROM visitor_activity WHERE owner_id = (SELECT owner_id FROM campaigns WHERE id = ?)",
            campaign,
        )
        .await?,
        conversations: count(
            db,
            "SELECT COUNT(*) FROM conversations WHERE campaign_id = ?",
            campaign,
        )
        .await?,
    })
}

/// The writer's figures from `/metrics` (this machine may read them).
async fn metrics(client: &reqwest::Client, base: &str) -> anyhow::Result<BTreeMap<String, f64>> {
    let text = client
        .get(format!("{base}/metrics"))
        .send()
        .await?
        .text()
        .await?;
    Ok(text
        .lines()
        .filter(|l| l.starts_with("convertassist_widget_event"))
        .filter_map(|l| {
            let (name, value) = l.split_once(' ')?;
            Some((
                name.trim_start_matches("convertassist_").to_string(),
                value.trim().parse().ok()?,
            ))
        })
        .collect())
}

fn rss_mib(pid: u32) -> f64 {
    std::fs::read_to_string(format!("/proc/{pid}/status"))
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("VmRSS:"))
                .and_then(|l| l.split_whitespace().nth(1))
                .and_then(|kb| kb.parse::<f64>().ok())
        })
        .map_or(0.0, |kb| kb / 1024.0)
}

fn file_bytes(path: &Path) -> u64 {
    std::fs::metadata(path).map_or(0, |m| m.len())
}

fn file_mib(path: &Path) -> f64 {
    file_bytes(path) as f64 / 1_048_576.0
}

fn wal_mib(db: &Path) -> f64 {
    let mut wal = db.as_os_str().to_owned();
    wal.push("-wal");
    file_mib(Path::new(&wal))
}

/// The `p` percentile (0 to 1) of latencies in µs, in ms (0 when none).
fn percentile_ms(latencies_us: &[u32], p: f64) -> f64 {
    let mut l = latencies_us.to_vec();
    l.sort_unstable();
    if l.is_empty() {
        return 0.0;
    }
    f64::from(l[((l.len() as f64 - 1.0) * p).round() as usize]) / 1000.0
}

struct Report {
    backend: &'static str,
    instances: usize,
    connections: usize,
    elapsed: Duration,
    tally: Tally,
    samples: Vec<Sample>,
    stored_at_stop: Stored,
    stored_after: Stored,
    writer_figures: Vec<BTreeMap<String, f64>>,
    wal_final: Option<f64>,
    log_bytes: u64,
}

impl Report {
    fn answered(&self, op: Op, status: u16) -> i64 {
        self.tally
            .statuses
            .get(&op)
            .and_then(|s| s.get(&status))
            .map_or(0, |n| i64::try_from(*n).unwrap_or(i64::MAX))
    }

    fn requests(&self) -> u64 {
        self.tally.statuses.values().flat_map(|s| s.values()).sum()
    }

    fn count_where(&self, keep: impl Fn(u16) -> bool) -> u64 {
        self.tally
            .statuses
            .values()
            .flat_map(|s| s.iter())
            .filter(|(status, _)| keep(**status))
            .map(|(_, n)| n)
            .sum()
    }

    fn percentile_ms(&self, p: f64) -> f64 {
        percentile_ms(&self.tally.latencies_us, p)
    }

    /// p50, p99 and max of one kind of request, in ms.
    fn op_percentiles(&self, op: Op) -> [f64; 3] {
        let l = self.tally.by_op.get(&op).map_or(&[][..], Vec::as_slice);
        [0.5, 0.99, 1.0].map(|p| percentile_ms(l, p))
    }

    /// Total resident memory of the servers at (or just before) `at`.
    fn rss_at(&self, at: Duration) -> f64 {
        self.samples
            .iter()
            .rfind(|s| s.at <= at + SAMPLE_EVERY / 2)
            .map_or(0.0, |s| s.rss_mib.iter().sum())
    }

    /// First sample after warm-up, and the mean of the last third of the run.
    fn memory_trend(&self) -> (f64, f64) {
        let first = self
            .samples
            .iter()
            .find(|s| s.at >= WARM_UP.min(self.elapsed / 6))
            .map_or(0.0, |s| s.rss_mib.iter().sum());
        let last: Vec<f64> = self
            .samples
            .iter()
            .filter(|s| s.at >= self.elapsed * 2 / 3)
            .map(|s| s.rss_mib.iter().sum())
            .collect();
        let mean = if last.is_empty() {
            0.0
        } else {
            last.iter().sum::<f64>() / last.len() as f64
        };
        (first, mean)
    }

    fn print(&self) -> bool {
        let requests = self.requests();
        let secs = self.elapsed.as_secs_f64();
        let fives = self.count_where(|s| s >= 500 || s == 0);
        let other = self.count_where(|s| (400..500).contains(&s));
        let acked = Stored {
            impressions: self.answered(Op::Impression, 202),
            page_views: self.answered(Op::PageView, 202),
            conversations: self.answered(Op::Conversation, 201),
        };
        let (first, last_third) = self.memory_trend();
        let growth = if first > 0.0 {
            (last_third - first) / first * 100.0
        } else {
            0.0
        };
        let minutes = |m: f64| Duration::from_secs_f64((m * 60.0).min(secs));
        let marks = if secs >= 30.0 * 60.0 - 1.0 {
            [5.0, 15.0, 30.0]
        } else {
            [secs / 360.0, secs / 120.0, secs / 60.0]
        };
        println!();
        println!(
            "backend {}, {} instance(s), {} connections, {:.1} min",
            self.backend,
            self.instances,
            self.connections,
            secs / 60.0
        );
        println!("requests            {requests}");
        println!("req/s               {:.0}", requests as f64 / secs);
        println!(
            "p50 / p99 / max ms  {:.2} / {:.2} / {:.2}",
            self.percentile_ms(0.5),
            self.percentile_ms(0.99),
            self.percentile_ms(1.0)
        );
        println!("5xx or no answer    {fives}");
        println!("4xx                 {other}");
        for (op, by_status) in &self.tally.statuses {
            let [p50, p99, max] = self.op_percentiles(*op);
            println!(
                "  {:<13} p50 / p99 / max ms {p50:.2} / {p99:.2} / {max:.2}  {by_status:?}",
                op.name()
            );
        }
        println!(
            "acknowledged        impressions {}, page views {}, conversations {}",
            acked.impressions, acked.page_views, acked.conversations
        );
        println!(
            "stored at the stop  impressions {}, page views {}, conversations {}",
            self.stored_at_stop.impressions,
            self.stored_at_stop.page_views,
            self.stored_at_stop.conversations
        );
        println!(
            "stored after exit   impressions {}, page views {}, conversations {}",
            self.stored_after.impressions,
            self.stored_after.page_views,
            self.stored_after.conversations
        );
        for (i, f) in self.writer_figures.iter().enumerate() {
            println!("writer {i}            {f:?}");
        }
        for m in marks {
            println!(
                "RSS at {:>5.1} min    {:.1} MiB (all instances)",
                m,
                self.rss_at(minutes(m))
            );
        }
        println!(
            "RSS trend           {first:.1} MiB after warm-up, {last_third:.1} MiB over the last third ({growth:+.1} %)"
        );
        let wal_max = self.samples.iter().map(|s| s.wal_mib).fold(0.0, f64::max);
        match self.wal_final {
            Some(w) => {
                println!("WAL                 {w:.1} MiB at the end, {wal_max:.1} MiB at most")
            }
            None => println!("WAL                 (PostgreSQL)"),
        }
        println!(
            "server log          {:.2} MiB ({:.0} bytes/min)",
            self.log_bytes as f64 / 1_048_576.0,
            self.log_bytes as f64 / (secs / 60.0)
        );
        let mut ok = true;
        if fives > 0 {
            println!("FAIL: {fives} requests answered 5xx or not at all");
            ok = false;
        }
        for (name, a, s) in [
            (
                "impressions",
                acked.impressions,
                self.stored_after.impressions,
            ),
            ("page views", acked.page_views, self.stored_after.page_views),
            (
                "conversations",
                acked.conversations,
                self.stored_after.conversations,
            ),
        ] {
            if a != s {
                println!("FAIL: {a} {name} acknowledged, {s} stored");
                ok = false;
            }
        }
        if growth > 10.0 {
            println!("FAIL: memory grew {growth:.1} % after warm-up");
            ok = false;
        }
        if ok {
            println!("PASS: no 5xx, every acknowledged event stored, memory level");
        }
        ok
    }

    fn json(&self) -> Value {
        json!({
            "backend": self.backend,
            "instances": self.instances,
            "connections": self.connections,
            "seconds": self.elapsed.as_secs_f64(),
            "requests": self.requests(),
            "p50_ms": self.percentile_ms(0.5),
            "p99_ms": self.percentile_ms(0.99),
            "statuses": self.tally.statuses.iter().map(|(op, s)| (op.name().to_string(), json!(s))).collect::<serde_json::Map<_, _>>(),
            "latency_ms": self.tally.by_op.keys().map(|op| {
                let [p50, p99, max] = self.op_percentiles(*op);
                (op.name().to_string(), json!({"p50": p50, "p99": p99, "max": max}))
            }).collect::<serde_json::Map<_, _>>(),
            "acknowledged": {
                "impressions": self.answered(Op::Impression, 202),
                "page_views": self.answered(Op::PageView, 202),
                "conversations": self.answered(Op::Conversation, 201),
            },
            "stored": {
                "impressions": self.stored_after.impressions,
                "page_views": self.stored_after.page_views,
                "conversations": self.stored_after.conversations,
            },
            "writer": self.writer_figures,
            "samples": self.samples.iter().map(|s| json!({
                "seconds": s.at.as_secs(), "rss_mib": s.rss_mib, "wal_mib": s.wal_mib, "log_mib": s.log_mib,
            })).collect::<Vec<_>>(),
            "log_bytes": self.log_bytes,
        })
    }
}
