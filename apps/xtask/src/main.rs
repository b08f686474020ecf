//! `cargo xtask run | test | openapi | circles | soak`: the README's commands.

mod counts;
mod cycles;
mod steps;
mod tools;

use tools::{build_server, built, ensure_npm, sh};

use std::path::{Path, PathBuf};
use std::process::Command;

use anyhow::Context;
use clap::{Parser, Subcommand};

#[derive(Parser)]
#[command(name = "xtask", about = "ConvertAssist developer commands")]
struct Cli {
    #[command(subcommand)]
    command: Cmd,
}

#[derive(Subcommand)]
enum Cmd {
    /// Build the dashboard, migrate, create demo accounts (the owner with a month of demo data) on a new database, and serve on CA_BIND.
    Run,
    /// Every check and test; ends with `summary: N passed, M failed`.
    Test,
    /// Only the module-circle check of `test`: prints each circle found.
    Circles,
    /// Regenerate openapi/openapi.json and the dashboard's and the widget's schema.d.ts.
    Openapi,
    /// Sustained mixed widget traffic against release servers on a fresh
    /// database; compares acknowledged with stored events and samples memory.
    Soak {
        /// How long to drive traffic.
        #[arg(long, default_value_t = 30.0)]
        minutes: f64,
        /// A PostgreSQL server to create the run's database on (SQLite when omitted).
        #[arg(long)]
        database_url: Option<String>,
        /// Server instances sharing the load (needs --database-url when above 1).
        #[arg(long, default_value_t = 1)]
        instances: usize,
        /// Concurrent connections of the load generator.
        #[arg(long, default_value_t = 16)]
        connections: usize,
        /// Give a single instance Redis too (to compare it with several).
        #[arg(long)]
        with_redis: bool,
    },
}

fn main() -> anyhow::Result<()> {
    let cli = Cli::parse();
    let root = repo_root()?;
    match cli.command {
        Cmd::Run => run(&root),
        Cmd::Test => {
            let ok = steps::test_all(&root)?;
            std::process::exit(if ok { 0 } else { 1 });
        }
        Cmd::Openapi => openapi(&root),
        Cmd::Circles => {
            let ok = cycles::check(&root)?;
            std::process::exit(if ok { 0 } else { 1 });
        }
        Cmd::Soak {
            minutes,
            database_url,
            instances,
            connections,
            with_redis,
        } => soak(
            &root,
            minutes,
            database_url,
            instances,
            connections,
            with_redis,
        ),
    }
}

/// The checkout to work on: the nearest folder, from the current one upwards,
/// that holds this workspace. Found at run time (not compiled in), so a target
/// directory shared by several checkouts never points xtask at another one.
pub fn repo_root() -> anyhow::Result<PathBuf> {
    let cwd = std::env::current_dir().context("reading the current folder")?;
    cwd.ancestors()
        .find(|dir| dir.join("apps/xtask/Cargo.toml").is_file() && dir.join("Cargo.toml").is_file())
        .map(Path::to_path_buf)
        .context("run cargo xtask from inside the ConvertAssist checkout")
}

fn soak(
    root: &Path,
    minutes: f64,
    database_url: Option<String>,
    instances: usize,
    connections: usize,
    with_redis: bool,
) -> anyhow::Result<()> {
    println!("==> building the server and the load generator (release)");
    sh(Command::new("cargo")
        .args([
            "build",
            "--quiet",
            "--release",
            "--package",
            "ca-server",
            "--package",
            "ca-soak",
        ])
        .current_dir(root))?;
    let server = built(root, "release", "ca-server")?;
    let mut cmd = Command::new(built(root, "release", "ca-soak")?);
    cmd.arg("--server-bin")
        .arg(server)
        .args(["--minutes", &minutes.to_string()])
        .args(["--instances", &instances.to_string()])
        .args(["--connections", &connections.to_string()]);
    if let Some(url) = database_url {
        cmd.args(["--database-url", &url]);
    }
    if with_redis {
        cmd.arg("--with-redis");
    }
    sh(&mut cmd)
}

fn build_dashboard(root: &Path) -> anyhow::Result<()> {
    ensure_npm(root)?;
    println!("==> building the dashboard and the widget");
    sh(Command::new("npm")
        .args(["run", "build", "--workspaces"])
        .current_dir(root.join("frontend")))
}

fn run(root: &Path) -> anyhow::Result<()> {
    build_dashboard(root)?;
    println!("==> building the server");
    let bin = build_server(root)?;
    // A newcomer's first sign-in shows the product at work: the demo owner
    // gets a month of sample activity (only on a new database).
    let mut demo = Command::new(&bin);
    demo.arg("demo").current_dir(root);
    if std::env::var_os("CA_DEMO_DATA").is_none() {
        demo.env("CA_DEMO_DATA", "true");
    }
    sh(&mut demo)?;
    let bind = std::env::var("CA_BIND").unwrap_or_else(|_| "127.0.0.1:8080".into());
    println!("\nDashboard: http://{bind}  (sign in with the owner account above; Ctrl-C stops)\n");
    // Development: owners' webhooks may point at receivers on this machine.
    let mut serve = Command::new(&bin);
    serve.arg("serve").current_dir(root);
    if std::env::var_os("CA_WEBHOOKS_ALLOW_PRIVATE").is_none() {
        serve.env("CA_WEBHOOKS_ALLOW_PRIVATE", "true");
    }
    sh(&mut serve)
}

fn openapi(root: &Path) -> anyhow::Result<()> {
    let bin = build_server(root)?;
    sh(Command::new(&bin)
        .args(["openapi", "--out", "openapi/openapi.json"])
        .current_dir(root))?;
    ensure_npm(root)?;
    for workspace in ["app", "widget"] {
        sh(Command::new("npm")
            .args(["run", "gen:api", "--workspace", workspace])
            .current_dir(root.join("frontend")))?;
    }
    println!(
        "Wrote openapi/openapi.json, frontend/app/src/api/schema.d.ts and frontend/widget/src/api/schema.d.ts"
    );
    Ok(())
}
