import { execFileSync } from "node:child_process";
import { createHmac } from "node:crypto";
import { mkdirSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Page } from "@playwright/test";

export const SCREENSHOTS = "e2e-screenshots";
mkdirSync(SCREENSHOTS, { recursive: true });

export async function shot(page: Page, name: string) {
  await page.screenshot({ path: `${SCREENSHOTS}/${name}.png`, fullPage: true });
}

/** An email no earlier run used. */
export function uniqueEmail(tag: string): string {
  return `${tag}-${Date.now()}-${Math.floor(Math.random() * 1e6)}@example.in`;
}

export const PASSWORD = "kesar-123";

/** Registers through the form and lands on the dashboard. */
export async function registerThroughForm(page: Page, email: string, name = "Priya Sharma") {
  await page.goto("/register");
  await page.getByLabel("Full name").fill(name);
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Phone number").fill("9876543210");
  await page.getByLabel(/^Password/).fill(PASSWORD);
  await page.getByLabel("Confirm password").fill(PASSWORD);
  await page.getByRole("button", { name: "Create account" }).click();
  await page.waitForURL("**/dashboard");
}

export async function loginThroughForm(page: Page, email: string, password = PASSWORD) {
  await page.goto("/login");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel(/^Password/).fill(password);
  await page.getByRole("button", { name: "Sign in" }).click();
}

/** The newest password-reset link the server put in its local outbox for `email`. */
export function resetLinkFromOutbox(email: string): string {
  const bin = process.env.E2E_SERVER_BIN;
  const db = process.env.E2E_DATABASE_URL;
  if (!bin || !db)
    throw new Error("E2E_SERVER_BIN and E2E_DATABASE_URL must be set (cargo xtask test sets them)");
  const out = execFileSync(bin, ["outbox", "--to", email, "--limit", "1"], {
    env: { ...process.env, CA_DATABASE_URL: db, CA_LOG: "warn" },
    encoding: "utf8",
  });
  const messages = JSON.parse(out) as { body: string }[];
  const body = messages[0]?.body ?? "";
  const match = body.match(/https?:\/\/\S+\/reset-password\?token=[0-9a-f]+/);
  if (!match) throw new Error(`no reset link in the outbox for ${email}`);
  return match[0];
}

function b64url(data: string | Buffer): string {
  return Buffer.from(data).toString("base64url");
}

/** A correctly signed session token that expired an hour ago. */
export function expiredToken(userId: string): string {
  const secret = process.env.E2E_JWT_SECRET;
  if (!secret) throw new Error("E2E_JWT_SECRET must be set (cargo xtask test sets it)");
  const now = Math.floor(Date.now() / 1000);
  const header = b64url(JSON.stringify({ alg: "HS256", typ: "JWT" }));
  const payload = b64url(
    JSON.stringify({
      sub: userId,
      ver: 0,
      iss: "convertassist",
      aud: "convertassist-dashboard",
      iat: now - 7200,
      exp: now - 3600,
    }),
  );
  const signature = createHmac("sha256", secret).update(`${header}.${payload}`).digest("base64url");
  return `${header}.${payload}.${signature}`;
}

/** Creates a campaign with the wizard's defaults and waits for the list. */
export async function createThroughWizard(page: Page, name: string) {
  await page.goto("/campaigns/create");
  await page.getByLabel(/^Campaign Name/).fill(name);
  await page.getByLabel(/^Website URL/).fill("https://kesar-handlooms.example.in");
  for (let i = 0; i < 3; i += 1) await page.getByRole("button", { name: "Next" }).click();
  await page.getByRole("button", { name: "Create Campaign" }).click();
}

/** Writes a campaign's counters straight into the test database, as the widget will. */
export function seedCounters(
  campaignName: string,
  impressions: number,
  conversions: number,
  revenuePaise: number,
) {
  const url = process.env.E2E_DATABASE_URL ?? "";
  const path = url.replace(/^sqlite:\/\//, "").split("?")[0];
  if (!path) throw new Error("E2E_DATABASE_URL must name the SQLite test database");
  execFileSync("python3", [
    "-c",
    "import sqlite3,sys; c=sqlite3.connect(sys.argv[1]); c.execute('UPDATE campaigns SET impressions=?, conversions=?, revenue_paise=? WHERE name=?', (int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4]), sys.argv[5])); c.commit()",
    path,
    String(impressions),
    String(conversions),
    String(revenuePaise),
    campaignName,
  ]);
}

/** Runs one SQL statement with `?` parameters on the SQLite test database (setting up a case). */
export function runSql(sql: string, ...params: (string | number)[]) {
  const url = process.env.E2E_DATABASE_URL ?? "";
  const path = url.replace(/^sqlite:\/\//, "").split("?")[0];
  if (!path) throw new Error("E2E_DATABASE_URL must name the SQLite test database");
  execFileSync("python3", [
    "-c",
    "import sqlite3,sys,json; c=sqlite3.connect(sys.argv[1]); c.execute(sys.argv[2], json.loads(sys.argv[3])); c.commit()",
    path,
    sql,
    JSON.stringify(params),
  ]);
}

/** Creates a superuser with the server binary's own command, on the database the e2e server uses. */
export function createSuperuser(email: string, name: string) {
  const bin = process.env.E2E_SERVER_BIN;
  const db = process.env.E2E_DATABASE_URL;
  const secret = process.env.E2E_JWT_SECRET;
  if (!bin || !db || !secret) {
    throw new Error("E2E_SERVER_BIN, E2E_DATABASE_URL and E2E_JWT_SECRET must be set");
  }
  execFileSync(
    bin,
    [
      "create-superuser",
      "--email",
      email,
      "--name",
      name,
      "--phone",
      "+91 9000000001",
      "--password",
      PASSWORD,
    ],
    {
      env: {
        ...process.env,
        CA_DATABASE_URL: db,
        CA_JWT_SECRET: secret,
        CA_DATA_DIR: mkdtempSync(join(tmpdir(), "ca-e2e-cli-")),
        CA_LOG: "warn",
      },
      encoding: "utf8",
    },
  );
}
