import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync, mkdtempSync, openSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { homedir, tmpdir } from "node:os";
import { join, resolve } from "node:path";

/**
 * `cargo xtask test` starts a server on a fresh database and sets E2E_BASE_URL. Run on their own
 * (`npm run e2e --workspace widget`, `npm run perf --workspace widget`), the journeys start one
 * here the same way: `ca-server serve` on a new SQLite database in a temporary directory, with
 * the built dashboard and widget. E2E_SERVER_BIN names the binary (default: the debug build in
 * CARGO_TARGET_DIR, ~/.cache/convertassist/target, or the repository's target/).
 */

const repo = resolve(import.meta.dirname, "../../..");

function serverBin(): string {
  const candidates = [
    process.env.E2E_SERVER_BIN,
    process.env.CARGO_TARGET_DIR && join(process.env.CARGO_TARGET_DIR, "debug/ca-server"),
    join(homedir(), ".cache/convertassist/target/debug/ca-server"),
    join(repo, "target/debug/ca-server"),
  ];
  const found = candidates.find((c): c is string => !!c && existsSync(c));
  if (!found) throw new Error("no ca-server binary: run `cargo build -p ca-server` first");
  return found;
}

function freePort(): Promise<number> {
  return new Promise((ok, fail) => {
    const s = createServer();
    s.once("error", fail);
    s.listen(0, "127.0.0.1", () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => ok(port));
    });
  });
}

async function ready(url: string, child: ChildProcess, deadline: number): Promise<void> {
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`ca-server exited with ${child.exitCode}`);
    try {
      if ((await fetch(`${url}/readyz`)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error("ca-server did not become ready");
}

export default async function globalSetup(): Promise<(() => Promise<void>) | void> {
  if (process.env.E2E_BASE_URL) return;
  const bin = serverBin();
  const dir = mkdtempSync(join(tmpdir(), "ca-widget-e2e-"));
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const db = `sqlite://${dir}/e2e.db?mode=rwc`;
  const log = openSync(join(dir, "server.log"), "w");
  const env: NodeJS.ProcessEnv = { ...process.env };
  delete env.CA_SMTP_URL;
  delete env.CA_REDIS_URL;
  const child = spawn(bin, ["serve"], {
    env: {
      ...env,
      CA_DATABASE_URL: db,
      CA_BIND: `127.0.0.1:${port}`,
      CA_PUBLIC_URL: base,
      CA_DATA_DIR: dir,
      CA_JWT_SECRET: randomBytes(32).toString("hex"),
      CA_STATIC_DIR: join(repo, "frontend/app/dist"),
      // Another build of the widget (e.g. an older one, to compare): E2E_WIDGET_DIR.
      CA_WIDGET_DIR: process.env.E2E_WIDGET_DIR ?? join(repo, "frontend/widget/dist"),
      CA_WIDGET_CONFIG_CACHE_SECS: "1",
      CA_WIDGET_IP_PER_MINUTE: "1000",
    },
    stdio: ["ignore", log, log],
  });
  await ready(base, child, Date.now() + 60_000);
  process.env.E2E_BASE_URL = base;
  process.env.E2E_DATABASE_URL = db;
  return async () => {
    child.kill("SIGTERM");
    await new Promise((r) => child.once("exit", r));
    rmSync(dir, { recursive: true, force: true });
  };
}
