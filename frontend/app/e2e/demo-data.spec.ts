import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { expect, test } from "@playwright/test";
import { expectAccessible } from "./a11y";
import { shot } from "./support";

/**
 * What `cargo xtask run` gives a newcomer: a server of its own on a new database, prepared with
 * `ca-server demo` and CA_DEMO_DATA (the other journeys share a server whose database starts
 * empty, so this one starts its own).
 */
const OWNER = "owner@demo.convertassist.local";
/** The demo data's figures (apps/server/src/demo_data.rs). */
const DEMO = {
  impressions: 78,
  conversions: 60,
  revenue: "₹61,988",
  conversionRate: "76.92%",
  customers: { lead: 24, prospect: 12, customer: 16, churned: 8 },
};

let server: ChildProcess | undefined;
let base = "";
let password = "";

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

test.beforeAll(async () => {
  const bin = process.env.E2E_SERVER_BIN;
  if (!bin) throw new Error("E2E_SERVER_BIN must be set (cargo xtask test sets it)");
  const dir = mkdtempSync(join(tmpdir(), "ca-e2e-demo-"));
  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
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
  password = found[1];
  server = spawn(bin, ["serve"], { env, stdio: "ignore" });
  const deadline = Date.now() + 30_000;
  for (;;) {
    const ok = await fetch(`${base}/healthz`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) break;
    if (Date.now() > deadline) throw new Error("the demo server did not start");
    await new Promise((r) => setTimeout(r, 200));
  }
});

test.afterAll(() => {
  server?.kill();
});

test("the demo owner's first sign-in shows a month of the product at work", async ({ page }) => {
  await page.goto(`${base}/login`);
  await page.getByLabel("Email").fill(OWNER);
  await page.getByLabel(/^Password/).fill(password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await page.waitForURL("**/dashboard");

  const metric = (label: string) =>
    page.getByText(label, { exact: true }).locator("xpath=following-sibling::*[1]");
  await expect(metric("Total Revenue")).toHaveText(DEMO.revenue);
  await expect(metric("Total Conversions")).toHaveText(String(DEMO.conversions));
  await expect(metric("Active Campaigns")).toHaveText("1");
  await expect(metric("Conversion Rate")).toHaveText(DEMO.conversionRate);
  await expect(page.getByRole("row", { name: /Demo: Exit offer/ })).toBeVisible();
  await expect(page.getByText("No campaigns found")).toHaveCount(0);
  for (const [width, height] of [
    [1440, 900],
    [768, 1024],
    [390, 844],
  ] as const) {
    await page.setViewportSize({ width, height });
    await expect(metric("Total Conversions")).toHaveText(String(DEMO.conversions));
    await shot(page, `demo-dashboard-${width}`);
  }
  await page.setViewportSize({ width: 1440, height: 900 });
  await expectAccessible(page, "demo-dashboard");

  // Customers across the four statuses.
  await page.goto(`${base}/customers`);
  const total = Object.values(DEMO.customers).reduce((a, b) => a + b, 0);
  await expect(metric("Total Customers")).toHaveText(String(total));
  const token = await page.evaluate(() => localStorage.getItem("token"));
  for (const [status, n] of Object.entries(DEMO.customers)) {
    const res = await page.request.get(`${base}/api/customers/user?status=${status}`, {
      headers: { Authorization: `Bearer ${token}` },
    });
    const body = (await res.json()) as { pagination: { total: number } };
    expect(body.pagination.total, status).toBe(n);
  }
  await shot(page, "demo-customers-1440");

  // Conversations: converted, dismissed and active ones, some long.
  await page.goto(`${base}/conversations`);
  await expect(page.getByText(/@example\.com/).first()).toBeVisible();
  await shot(page, "demo-conversations-1440");

  // The paid Basic plan and its invoice.
  await page.goto(`${base}/settings/billing`);
  await expect(page.getByText(/Basic/).first()).toBeVisible();
  await shot(page, "demo-billing-1440");
});
