//! What the commands share: running a command, the npm packages, building
//! the server and finding what cargo built.

use std::path::{Path, PathBuf};
use std::process::Command;

use anyhow::{Context, bail};

/// Runs a command with inherited output; fails on a non-zero exit.
pub fn sh(cmd: &mut Command) -> anyhow::Result<()> {
    let shown = format!("{cmd:?}");
    let status = cmd.status().with_context(|| format!("starting {shown}"))?;
    if !status.success() {
        bail!("{shown} failed with {status}");
    }
    Ok(())
}

/// Installs the frontend's npm packages when they are missing or older than the lock file.
pub fn ensure_npm(root: &Path) -> anyhow::Result<()> {
    let frontend = root.join("frontend");
    let stamp = frontend.join("node_modules/.package-lock.json");
    let lock = frontend.join("package-lock.json");
    let fresh = match (stamp.metadata(), lock.metadata()) {
        (Ok(s), Ok(l)) => match (s.modified(), l.modified()) {
            (Ok(s), Ok(l)) => s >= l,
            _ => false,
        },
        _ => false,
    };
    if !fresh {
        println!("==> installing the dashboard's npm packages (npm ci)");
        sh(Command::new("npm")
            .args(["ci", "--no-audit", "--no-fund"])
            .current_dir(&frontend))?;
    }
    Ok(())
}

/// Builds ca-server and returns the binary's path.
pub fn build_server(root: &Path) -> anyhow::Result<PathBuf> {
    sh(Command::new("cargo")
        .args(["build", "--quiet", "--package", "ca-server"])
        .current_dir(root))?;
    built(root, "debug", "ca-server")
}

/// The path of a binary cargo built in `profile`.
pub fn built(root: &Path, profile: &str, name: &str) -> anyhow::Result<PathBuf> {
    let target = std::env::var_os("CARGO_TARGET_DIR")
        .map(PathBuf::from)
        .map(|p| if p.is_absolute() { p } else { root.join(p) })
        .unwrap_or_else(|| root.join("target"));
    let bin = target.join(profile).join(name);
    if !bin.exists() {
        bail!("built {name} but cannot find it at {}", bin.display());
    }
    Ok(bin)
}
