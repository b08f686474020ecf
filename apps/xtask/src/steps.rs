//! `cargo xtask test`: every check in order, a table of steps, one summary line.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use anyhow::{Context, bail};

use crate::counts::{Counts, Runner, read_line};
use crate::tools::{build_server, ensure_npm, sh};

const DEFAULT_TEST_POSTGRES: &str = "postgres://postgres@127.0.0.1:5432/test";

struct StepResult {
    name: &'static str,
    ok: bool,
    counts: Counts,
    took: Duration,
}

/// Runs `cmd`, streaming its output while counting tests with `runner`.
fn run_counted(cmd: &mut Command, runner: Option<Runner>) -> anyhow::Result<(bool, Counts)> {
    let shown = format!("{cmd:?}");
    let mut child = cmd
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .with_context(|| format!("starting {shown}"))?;
    let counts = Arc::new(Mutex::new(Counts::default()));
    let mut readers = Vec::new();
    let streams: [(Option<Box<dyn Read + Send>>, bool); 2] = [
        (
            child
                .stdout
                .take()
                .map(|s| Box::new(s) as Box<dyn Read + Send>),
            false,
        ),
        (
            child
                .stderr
                .take()
                .map(|s| Box::new(s) as Box<dyn Read + Send>),
            true,
        ),
    ];
    for (stream, is_err) in streams {
        let Some(stream) = stream else { continue };
        let counts = Arc::clone(&counts);
        readers.push(std::thread::spawn(move || {
            for line in BufReader::new(stream).lines().map_while(Result::ok) {
                if is_err {
                    eprintln!("{line}");
                } else {
                    println!("{line}");
                }
                if let (Some(r), Ok(mut c)) = (runner, counts.lock()) {
                    read_line(r, &line, &mut c);
                }
            }
        }));
    }
    let status = child.wait()?;
    for r in readers {
        let _ = r.join();
    }
    let counts = counts.lock().map(|c| *c).unwrap_or_default();
    Ok((status.success(), counts))
}

fn step(
    results: &mut Vec<StepResult>,
    name: &'static str,
    f: impl FnOnce() -> anyhow::Result<(bool, Counts)>,
) -> bool {
    println!("\n==> {name}");
    let start = Instant::now();
    let (ok, counts) = match f() {
        Ok(r) => r,
        Err(err) => {
            eprintln!("{name}: {err:#}");
            (false, Counts::default())
        }
    };
    results.push(StepResult {
        name,
        ok,
        counts,
        took: start.elapsed(),
    });
    ok
}

fn plain(cmd: &mut Command) -> anyhow::Result<(bool, Counts)> {
    run_counted(cmd, None)
}

/// `npm run <script>` in the dashboard only.
fn npm(root: &Path, script: &str) -> Command {
    npm_in(root, "app", script)
}

/// `npm run <script>` in one frontend package (`app` or `widget`).
fn npm_in(root: &Path, workspace: &str, script: &str) -> Command {
    let mut cmd = Command::new("npm");
    cmd.args(["run", script, "--workspace", workspace])
        .current_dir(root.join("frontend"));
    cmd
}

/// `npm run <script>` in every frontend package that has it (dashboard, widget).
fn npm_all(root: &Path, script: &str) -> Command {
    let mut cmd = Command::new("npm");
    cmd.args(["run", script, "--workspaces", "--if-present"])
        .current_dir(root.join("frontend"));
    cmd
}

/// Runs everything; true when all passed.
pub fn test_all(root: &Path) -> anyhow::Result<bool> {
    let started = Instant::now();
    let mut results = Vec::new();
    let cargo = |args: &[&str]| {
        let mut c = Command::new("cargo");
        c.args(args).current_dir(root);
        c
    };

    step(&mut results, "cargo fmt --check", || {
        plain(&mut cargo(&["fmt", "--all", "--check"]))
    });
    step(&mut results, "clippy -D warnings", || {
        plain(&mut cargo(&[
            "clippy",
            "--workspace",
            "--all-targets",
            "--locked",
            "--",
            "-D",
            "warnings",
        ]))
    });
    step(&mut results, "no module circles", || {
        crate::cycles::check(root).map(|ok| (ok, Counts::default()))
    });
    let npm_ready = step(&mut results, "npm packages", || {
        ensure_npm(root).map(|_| (true, Counts::default()))
    });
    let mut server_bin: Option<PathBuf> = None;
    step(&mut results, "OpenAPI drift check", || {
        let bin = build_server(root)?;
        server_bin = Some(bin.clone());
        drift_check(root, &bin, npm_ready).map(|ok| (ok, Counts::default()))
    });
    step(&mut results, "Rust tests on SQLite", || {
        let mut c = cargo(&["test", "--workspace", "--locked"]);
        c.env_remove("CA_TEST_POSTGRES_URL");
        run_counted(&mut c, Some(Runner::Cargo))
    });
    step(&mut results, "Rust tests on PostgreSQL", || {
        let url = std::env::var("CA_TEST_POSTGRES_URL")
            .ok()
            .filter(|u| !u.is_empty())
            .unwrap_or_else(|| DEFAULT_TEST_POSTGRES.to_string());
        let mut c = cargo(&["test", "--workspace", "--locked"]);
        c.env("CA_TEST_POSTGRES_URL", url);
        run_counted(&mut c, Some(Runner::Cargo))
    });
    if npm_ready {
        step(&mut results, "tsc", || {
            plain(&mut npm_all(root, "typecheck"))
        });
        step(&mut results, "ESLint", || plain(&mut npm_all(root, "lint")));
        step(&mut results, "Prettier", || {
            plain(&mut npm_all(root, "format:check"))
        });
        step(&mut results, "Vitest", || {
            run_counted(&mut npm(root, "test"), Some(Runner::Vitest))
        });
        step(&mut results, "Vitest (widget)", || {
            run_counted(&mut npm_in(root, "widget", "test"), Some(Runner::Vitest))
        });
        // The widget's build fails when its gzipped size is over budget.
        let built = step(&mut results, "dashboard + widget build", || {
            plain(&mut npm_all(root, "build"))
        });
        match (&server_bin, built) {
            (Some(bin), true) => {
                step(&mut results, "Playwright end to end", || {
                    e2e(root, bin, "app", "e2e")
                });
                // The widget on real site templates and a hostile page, desktop and Pixel 7.
                step(&mut results, "widget on real sites", || {
                    e2e(root, bin, "widget", "e2e")
                });
                // The stagewise toolbar under the Vite dev server, and no stagewise in dist/.
                step(&mut results, "dev overlay (stagewise)", || {
                    e2e(root, bin, "app", "e2e:dev")
                });
            }
            _ => println!(
                "\n(skipping the end-to-end tests: the server or the dashboard did not build)"
            ),
        }
    }

    println!(
        "\n{:<28} {:>8} {:>8} {:>8}  result",
        "step", "seconds", "passed", "failed"
    );
    let mut total = Counts::default();
    for r in &results {
        let mut failed = r.counts.failed;
        if !r.ok && failed == 0 {
            failed = 1;
        }
        total.passed += r.counts.passed;
        total.failed += failed;
        println!(
            "{:<28} {:>8.1} {:>8} {:>8}  {}",
            r.name,
            r.took.as_secs_f64(),
            r.counts.passed,
            failed,
            if r.ok { "ok" } else { "FAILED" }
        );
    }
    println!("total time: {:.0} s", started.elapsed().as_secs_f64());
    let all_ok = results.iter().all(|r| r.ok);
    println!("summary: {} passed, {} failed", total.passed, total.failed);
    Ok(all_ok)
}

fn drift_check(root: &Path, bin: &Path, npm_ready: bool) -> anyhow::Result<bool> {
    let tmp = temp_dir("ca-openapi")?;
    let doc = tmp.join("openapi.json");
    sh(Command::new(bin).arg("openapi").arg("--out").arg(&doc))?;
    let mut ok = true;
    if std::fs::read(&doc)? != std::fs::read(root.join("openapi/openapi.json")).unwrap_or_default()
    {
        eprintln!(
            "openapi/openapi.json differs from what the server generates: run `cargo xtask openapi`"
        );
        ok = false;
    }
    if npm_ready {
        // The dashboard's typed client and the widget's configuration types.
        for workspace in ["app", "widget"] {
            let types = tmp.join(format!("{workspace}-schema.d.ts"));
            sh(Command::new("npx")
                .args(["--no-install", "openapi-typescript"])
                .arg(&doc)
                .arg("-o")
                .arg(&types)
                .current_dir(root.join("frontend").join(workspace)))?;
            let checked_in = format!("frontend/{workspace}/src/api/schema.d.ts");
            if std::fs::read(&types)? != std::fs::read(root.join(&checked_in)).unwrap_or_default() {
                eprintln!(
                    "{checked_in} differs from what openapi-typescript generates: run `cargo xtask openapi`"
                );
                ok = false;
            }
        }
    }
    let _ = std::fs::remove_dir_all(&tmp);
    Ok(ok)
}

fn temp_dir(prefix: &str) -> anyhow::Result<PathBuf> {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)?
        .as_nanos();
    let dir = std::env::temp_dir().join(format!("{prefix}-{}-{nanos}", std::process::id()));
    std::fs::create_dir_all(&dir)?;
    Ok(dir)
}

fn random_hex(bytes: usize) -> anyhow::Result<String> {
    let mut buf = vec![0u8; bytes];
    std::fs::File::open("/dev/urandom")?.read_exact(&mut buf)?;
    Ok(buf.iter().map(|b| format!("{b:02x}")).collect())
}

const CHROMIUM: &str = "/usr/bin/chromium";

fn ensure_chromium() -> anyhow::Result<()> {
    if Path::new(CHROMIUM).exists() {
        return Ok(());
    }
    println!("==> installing Debian's chromium for the end-to-end tests");
    sh(Command::new("apt-get").arg("update"))?;
    sh(Command::new("apt-get")
        .args(["install", "-y", "--no-install-recommends", "chromium"])
        .env("DEBIAN_FRONTEND", "noninteractive"))
}

struct Server(Child);

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

fn ready(port: u16) -> bool {
    let Ok(mut s) = TcpStream::connect(("127.0.0.1", port)) else {
        return false;
    };
    let _ = s.set_read_timeout(Some(Duration::from_secs(2)));
    if s.write_all(b"GET /readyz HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
        .is_err()
    {
        return false;
    }
    let mut head = [0u8; 12];
    s.read_exact(&mut head).is_ok() && head.starts_with(b"HTTP/1.1 200")
}

/// Runs `npm run <script>` of a frontend package (a Playwright suite) against a fresh server on a
/// fresh database.
fn e2e(root: &Path, bin: &Path, workspace: &str, script: &str) -> anyhow::Result<(bool, Counts)> {
    ensure_chromium()?;
    let tmp = temp_dir("ca-e2e")?;
    let port = TcpListener::bind("127.0.0.1:0")?.local_addr()?.port();
    let base = format!("http://127.0.0.1:{port}");
    let db_url = format!("sqlite://{}/e2e.db?mode=rwc", tmp.display());
    let secret = random_hex(32)?;
    let log_path = tmp.join("server.log");
    let log = std::fs::File::create(&log_path)?;
    let server = Server(
        Command::new(bin)
            .arg("serve")
            .env("CA_DATABASE_URL", &db_url)
            .env("CA_BIND", format!("127.0.0.1:{port}"))
            .env("CA_PUBLIC_URL", &base)
            .env("CA_DATA_DIR", &tmp)
            .env("CA_JWT_SECRET", &secret)
            .env("CA_STATIC_DIR", root.join("frontend/app/dist"))
            .env("CA_WIDGET_DIR", root.join("frontend/widget/dist"))
            .env("CA_WIDGET_CONFIG_CACHE_SECS", "1")
            // Every simulated visitor of the journeys comes from 127.0.0.1.
            .env("CA_WIDGET_IP_PER_MINUTE", "1000")
            // Every journey signs its owners up from 127.0.0.1 too.
            .env("CA_REGISTRATIONS_PER_IP_PER_HOUR", "1000")
            // The journeys' webhook receivers listen on this machine.
            .env("CA_WEBHOOKS_ALLOW_PRIVATE", "true")
            .env_remove("CA_SMTP_URL")
            .env_remove("CA_REDIS_URL")
            .stdout(log.try_clone()?)
            .stderr(log)
            .spawn()
            .context("starting ca-server for the end-to-end tests")?,
    );
    let deadline = Instant::now() + Duration::from_secs(60);
    while !ready(port) {
        if Instant::now() > deadline {
            bail!(
                "the server did not become ready; log: {}",
                log_path.display()
            );
        }
        std::thread::sleep(Duration::from_millis(200));
    }
    let mut cmd = npm_in(root, workspace, script);
    cmd.env("E2E_BASE_URL", &base)
        .env("E2E_SERVER_BIN", bin)
        .env("E2E_DATABASE_URL", &db_url)
        .env("E2E_JWT_SECRET", &secret)
        .env("CHROMIUM_PATH", CHROMIUM)
        // Where the dev-overlay suite starts its Vite dev server.
        .env(
            "E2E_DEV_PORT",
            TcpListener::bind("127.0.0.1:0")?
                .local_addr()?
                .port()
                .to_string(),
        );
    let result = run_counted(&mut cmd, Some(Runner::Playwright));
    drop(server);
    match &result {
        Ok((true, _)) => {
            let _ = std::fs::remove_dir_all(&tmp);
        }
        _ => eprintln!("server log of the end-to-end run: {}", log_path.display()),
    }
    result
}
