import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";

/** The demo owner `ca-server demo` creates. */
export const DEMO_OWNER = "owner@demo.convertassist.local";

/** A server of a journey's own, on a new database prepared like `cargo xtask run`. */
export interface DemoServer {
  base: string;
  /** The demo owner's password, as `ca-server demo` printed it. */
  password: string;
  stop: () => void;
}

function freePort(): Promise<number> {
  return new Promise((done, fail) => {
    const s = createServer();
    s.once("error", fail);
    s.listen(0, "127.0.0.1", () => {
      const address = s.address();
      const port = typeof address === "object" && address ? address.port : 0;
      s.close(() => done(port));
    });
  });
}

/**
 * Starts what `cargo xtask run` gives a newcomer: a server of its own on a new database, prepared
 * with `ca-server demo` and CA_DEMO_DATA, so the demo owner has a month of data (the other
 * journeys share a server whose database starts empty).
 */
export async function startDemoServer(): Promise<DemoServer> {
  const bin = process.env.E2E_SERVER_BIN;
  if (!bin) throw new Error("E2E_SERVER_BIN must be set (cargo xtask test sets it)");
  const dir = mkdtempSync(join(tmpdir(), "ca-e2e-demo-"));
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    CA_DATABASE_URL: `sqlite://${dir}/demo.db?mode=rwc`,
    CA_DATA_DIR: dir,
    CA_BIND: `127.0.0.1:${port}`,
    CA_PUBLIC_URL: base,
    CA_JWT_SECRET: randomBytes(32).toString("hex"),
    CA_STATIC_DIR: resolve("dist"),
    CA_WIDGET_DIR: resolve("../widget/dist"),
    CA_LOG: "warn",
  };
  for (const name of [
    "CA_PAYU_KEY",
    "CA_PAYU_SALT",
    "CA_SMTP_URL",
    "CA_REDIS_URL",
    "CA_LLM_BASE_URL",
  ])
    delete env[name];
  const out = execFileSync(bin, ["demo"], {
    env: { ...env, CA_DEMO_DATA: "true" },
    encoding: "utf8",
  });
  const found = out.match(/owner:\s+\S+ \/ (\S+)/);
  if (!found?.[1]) throw new Error(`no owner credentials in: ${out}`);
  const server: ChildProcess = spawn(bin, ["serve"], { env, stdio: "ignore" });
  const deadline = Date.now() + 30_000;
  for (;;) {
    const ok = await fetch(`${base}/healthz`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) break;
    if (Date.now() > deadline) {
      server.kill();
      throw new Error("the demo server did not start");
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  return { base, password: found[1], stop: () => server.kill() };
}
