import { expect, test } from "@playwright/test";
import { expectAccessible } from "./a11y";
import { DEMO_OWNER as OWNER, startDemoServer, type DemoServer } from "./demo-server";
import { shot } from "./support";

/**
 * What `cargo xtask run` gives a newcomer, on a server of its own (`startDemoServer`). The demo
 * data's figures (apps/server/src/demo_data.rs):
 */
const DEMO = {
  impressions: 78,
  conversions: 60,
  revenue: "₹61,988",
  conversionRate: "76.92%",
  customers: { lead: 24, prospect: 12, customer: 16, churned: 8 },
};

let server: DemoServer | undefined;
let base = "";
let password = "";

test.beforeAll(async () => {
  server = await startDemoServer();
  ({ base, password } = server);
});

test.afterAll(() => {
  server?.stop();
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
