import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdtempSync } from "node:fs";
import { request as httpRequest } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect, test, type APIRequestContext, type Page } from "@playwright/test";
import { expectAccessible, settled } from "./a11y";
import {
  PASSWORD,
  loginThroughForm,
  registerThroughForm,
  runSql,
  shot,
  uniqueEmail,
} from "./support";

/**
 * Payments as a merchant running in production meets them (#32): renewing early, every status
 * PayU sends, checkouts nobody completed, staff refunds and the System tab's payments panel; and
 * the dashboard's visitor-quota banners (#38). Everything goes through the real server: the
 * simulator settles payments, PayU's webhook is posted signed as PayU signs it (the simulator's
 * salt derives from the server's secret), the reconciliation expires an abandoned checkout, and
 * visitors arrive as widget page views from many client addresses.
 */

const API = process.env.E2E_BASE_URL ?? "http://127.0.0.1:8080";
const WIDTHS = [1440, 768, 390] as const;
const SITE = "https://kesar-handlooms.example.in";

/** Full-page screenshots at desktop, tablet and phone widths; no sideways scroll; axe at each. */
async function shotsAtWidths(page: Page, name: string) {
  for (const width of WIDTHS) {
    await page.setViewportSize({ width, height: 900 });
    await page.waitForTimeout(250);
    await settled(page);
    const overflow = await page.evaluate(
      () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
    );
    expect(overflow, `${name} scrolls sideways at ${width} px`).toBeLessThanOrEqual(0);
    await shot(page, `${name}-${width}`);
    await expectAccessible(page, `${name} at ${width}px`);
  }
  await page.setViewportSize({ width: 1280, height: 800 });
}

async function tokenOf(page: Page): Promise<string> {
  return (await page.evaluate(() => localStorage.getItem("token"))) ?? "";
}

async function subscriptionEnd(page: Page): Promise<Date> {
  const res = await page.request.get("/api/billing/subscription", {
    headers: { authorization: `Bearer ${await tokenOf(page)}` },
  });
  expect(res.status()).toBe(200);
  return new Date((await res.json()).data.subscriptionEndsAt as string);
}

/** Pays on the simulator's hosted page the browser is on; ends on the success page. */
async function payOnSimulator(page: Page, amount = "₹999.00") {
  await page.waitForURL("**/payment/simulator**");
  await expect(page.getByText("PayU simulator: no real money moves")).toBeVisible();
  await expect(page.getByText(amount, { exact: true })).toBeVisible();
  await page.getByRole("button", { name: /^Pay/ }).click();
  await page.waitForURL("**/payment/success?**");
  await expect(page.getByRole("heading", { name: "Payment Successful!" })).toBeVisible();
  return new URL(page.url()).searchParams.get("txnid") ?? "";
}

/** Starts a checkout through the API, as the billing page does, and returns PayU's form fields. */
async function initialize(page: Page, renew: boolean): Promise<Record<string, string>> {
  const res = await page.request.post("/api/payment/initialize", {
    headers: { authorization: `Bearer ${await tokenOf(page)}` },
    data: { udf2: "basic", udf3: "subscription", udf4: "monthly", renew },
  });
  expect(res.status(), await res.text()).toBe(200);
  return (await res.json()).data.params as Record<string, string>;
}

/** The simulator's salt: the server derives it from its JWT secret. */
function simulatorSalt(): string {
  const secret = process.env.E2E_JWT_SECRET;
  if (!secret) throw new Error("E2E_JWT_SECRET must be set (cargo xtask test sets it)");
  return createHash("sha256").update(`payu-simulator|${secret}`).digest("hex");
}

/**
 * Posts PayU's webhook for a checkout, signed the way PayU signs its response
 * (sha512 of salt|status||||||udf5|udf4|udf3|udf2|udf1|email|firstname|productinfo|amount|txnid|key).
 */
async function payuWebhook(
  request: APIRequestContext,
  params: Record<string, string>,
  fields: { status: string; unmappedstatus: string; error_Message?: string },
) {
  const p = (k: string) => params[k] ?? "";
  const base = [
    simulatorSalt(),
    fields.status,
    "",
    "",
    "",
    "",
    "",
    p("udf5"),
    p("udf4"),
    p("udf3"),
    p("udf2"),
    p("udf1"),
    p("email"),
    p("firstname"),
    p("productinfo"),
    p("amount"),
    p("txnid"),
    p("key"),
  ].join("|");
  const hash = createHash("sha512").update(base).digest("hex");
  const res = await request.post(`${API}/api/payment/payu/webhook`, {
    form: {
      key: p("key"),
      txnid: p("txnid"),
      amount: p("amount"),
      productinfo: p("productinfo"),
      firstname: p("firstname"),
      email: p("email"),
      udf1: p("udf1"),
      udf2: p("udf2"),
      udf3: p("udf3"),
      udf4: p("udf4"),
      udf5: p("udf5"),
      mihpayid: `40399${Date.now() % 100000}`,
      mode: "CC",
      hash,
      ...fields,
    },
  });
  expect(res.status(), await res.text()).toBe(200);
}

/** Creates a superuser with the server binary's own command, on the e2e server's database. */
function createSuperuser(email: string) {
  const bin = process.env.E2E_SERVER_BIN;
  const db = process.env.E2E_DATABASE_URL;
  const secret = process.env.E2E_JWT_SECRET;
  if (!bin || !db || !secret) {
    throw new Error(
      "E2E_SERVER_BIN, E2E_DATABASE_URL and E2E_JWT_SECRET must be set (cargo xtask test sets them)",
    );
  }
  execFileSync(
    bin,
    [
      "create-superuser",
      ...["--email", email, "--name", "Asha Verma", "--phone", "+91 9000000001"],
      ...["--password", PASSWORD],
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

test("renew early, every PayU status in the history, a staff refund and the System tab", async ({
  page,
  browser,
  request,
}) => {
  test.setTimeout(240_000);
  const ownerEmail = uniqueEmail("pay-ops");
  await registerThroughForm(page, ownerEmail, "Meera Iyer");

  // Buy Basic through the simulator.
  await page.goto("/billing");
  await page
    .getByTestId("plan-basic")
    .getByRole("button", { name: /^Choose/ })
    .click();
  const first = await payOnSimulator(page);

  // Renew now: the plan card keeps "Current Plan"; the subscription card renews the same plan
  // and cycle, and the period grows by a month from its end.
  await page.goto("/billing");
  await expect(page.getByTestId("plan-basic").getByRole("button")).toHaveText("Current Plan");
  await expect(page.getByTestId("plan-basic").getByRole("button")).toBeDisabled();
  const renew = page.getByRole("button", { name: "Renew now" });
  await expect(renew).toBeVisible();
  await expect(page.getByText(/^Pay for another month of Basic now; it starts when/)).toBeVisible();
  const before = await subscriptionEnd(page);
  await shotsAtWidths(page, "88-billing-renew-now");
  await renew.click();
  const renewal = await payOnSimulator(page);
  expect(renewal).not.toBe(first);
  const after = await subscriptionEnd(page);
  const days = (after.getTime() - before.getTime()) / 86_400_000;
  expect(days).toBeGreaterThanOrEqual(28);
  expect(days).toBeLessThanOrEqual(31);
  await page.goto("/billing");
  await expect(page.getByText(/^Next billing date: /)).toContainText(
    new Intl.DateTimeFormat("en-IN", { day: "numeric", month: "short", year: "numeric" }).format(
      after,
    ),
  );

  // What PayU sends for checkouts that did not go through, each on its own payment.
  const statuses = [
    { unmappedstatus: "userCancelled", reason: "Cancelled on PayU's page" },
    {
      unmappedstatus: "dropped",
      reason: "Not completed: the buyer left PayU's page before paying",
    },
    {
      unmappedstatus: "bounced",
      reason: "Not completed: the bank's verification step was not finished",
    },
    { unmappedstatus: "autoRefund", reason: "Refunded automatically by PayU" },
    {
      unmappedstatus: "failed",
      reason: "Bank declined the card",
      message: "Bank declined the card",
    },
  ];
  const failed: Record<string, string> = {};
  for (const s of statuses) {
    const params = await initialize(page, true);
    await payuWebhook(request, params, {
      status: "failure",
      unmappedstatus: s.unmappedstatus,
      ...(s.message ? { error_Message: s.message } : {}),
    });
    failed[s.unmappedstatus] = params.txnid ?? "";
  }
  // PayU later says the declined one was paid after all: applied, and marked for staff. PayU's
  // page did take the money (the simulator's, which PayU's own answer then comes from, since a
  // success is applied only as the provider states it), but the first word was a failure.
  const lateParams = await initialize(page, true);
  const taken = await request.post(`${API}/payment/simulator/complete`, {
    form: { ...lateParams, outcome: "success" },
  });
  expect(taken.status()).toBe(200);
  await payuWebhook(request, lateParams, { status: "failure", unmappedstatus: "failed" });
  await payuWebhook(request, lateParams, { status: "success", unmappedstatus: "captured" });
  const late = lateParams.txnid ?? "";

  // One checkout left on PayU's page 20 minutes ago (pending, and stuck for staff), and one
  // abandoned 31 minutes ago, which the reconciliation finds unpaid past PayU's window. (Ten
  // checkouts in all: the most an owner may start in a minute.)
  const stuck = (await initialize(page, true)).txnid ?? "";
  const abandoned = (await initialize(page, true)).txnid ?? "";
  const ago = (minutes: number) =>
    new Date(Date.now() - minutes * 60_000).toISOString().replace("Z", "+00:00");
  runSql("UPDATE payments SET created_at = ? WHERE txnid = ?", ago(20), stuck);
  runSql("UPDATE payments SET created_at = ? WHERE txnid = ?", ago(31), abandoned);
  await expect
    .poll(
      async () => {
        const res = await page.request.get("/api/payment/history", {
          headers: { authorization: `Bearer ${await tokenOf(page)}` },
        });
        const list = (await res.json()).data as { txnid: string; status: string }[];
        return list.find((p) => p.txnid === abandoned)?.status;
      },
      { timeout: 90_000, intervals: [2_000] },
    )
    .toBe("expired");

  // Recent Transactions: real payments only.
  await page.goto("/billing");
  const recent = page.getByTestId("recent-transactions");
  await expect(recent.getByRole("listitem")).toHaveCount(5);
  await expect(recent).not.toContainText("Not completed");

  // History: every status with a readable label and PayU's reason; the abandoned checkout reads
  // "Not completed" and stays out of the totals.
  await page.goto("/billing/history");
  const row = (txnid: string) => page.getByRole("row", { name: new RegExp(txnid) });
  for (const s of statuses) {
    await expect(row(failed[s.unmappedstatus] ?? "")).toContainText("Failed");
    await expect(row(failed[s.unmappedstatus] ?? "")).toContainText(s.reason);
  }
  await expect(row(late)).toContainText("Success");
  await expect(row(stuck)).toContainText("Pending");
  await expect(row(abandoned)).toContainText("Not completed");
  await expect(row(abandoned)).toContainText("no payment arrived within 30 minutes");
  await expect(row(abandoned).getByRole("link", { name: "Invoice" })).toHaveCount(0);
  const tile = (label: string) =>
    page.getByText(label, { exact: true }).locator("xpath=following-sibling::*[1]");
  // Ten checkouts; the abandoned one is no payment made.
  await expect(page.locator("tbody tr")).toHaveCount(10);
  await expect(tile("Total Transactions")).toHaveText("9");
  await expect(tile("Total Amount")).toHaveText("₹2,997");
  await expect(tile("Successful")).toHaveText("3");
  await expect(tile("Failed")).toHaveText("5");
  await shotsAtWidths(page, "89-payment-history-statuses");
  await page.getByRole("textbox", { name: "Status" }).click();
  await page.getByRole("option", { name: "Not completed" }).click();
  await expect(page.locator("tbody tr")).toHaveCount(1);
  await expect(tile("Total Transactions")).toHaveText("0");

  // Staff: the owner's payments, where each was made, the late success, and a refund.
  const staff = await browser.newContext();
  const admin = await staff.newPage();
  const rootEmail = uniqueEmail("root");
  createSuperuser(rootEmail);
  await loginThroughForm(admin, rootEmail);
  await admin.waitForURL("**/dashboard");
  await admin.goto("/admin");
  await admin.getByRole("textbox", { name: "Search users" }).fill(ownerEmail);
  await admin
    .getByTestId(`user-row-${ownerEmail}`)
    .getByRole("link", { name: "Meera Iyer" })
    .click();
  await admin.getByRole("tab", { name: "Payments" }).click();
  const paymentRow = (txnid: string) => admin.getByTestId(`payment-${txnid}`);
  await expect(paymentRow(late)).toContainText("Late success");
  await expect(paymentRow(late)).toContainText("Paid late, on");
  await expect(paymentRow(first)).toContainText("Simulator");
  await expect(paymentRow(first)).not.toContainText("Late success");
  await expect(paymentRow(failed.bounced ?? "")).toContainText(
    "Not completed: the bank's verification step was not finished",
  );
  await expect(paymentRow(abandoned)).toContainText("Not completed");
  await expect(
    paymentRow(failed.dropped ?? "").getByRole("button", { name: /^Refund/ }),
  ).toHaveCount(0);
  await shotsAtWidths(admin, "90-admin-user-payments");

  await paymentRow(renewal)
    .getByRole("button", { name: `Refund ${renewal}` })
    .click();
  const dialog = admin.getByRole("dialog", { name: "Refund this payment?" });
  await expect(dialog).toContainText("₹999");
  await expect(dialog).toContainText("ends now");
  await dialog.getByRole("checkbox", { name: /Keep access/ }).check();
  await expect(dialog).toContainText("keeps the plan until the end of the period");
  await shotsAtWidths(admin, "90-admin-refund-confirm");
  await dialog.getByRole("button", { name: "Refund", exact: true }).click();
  await expect(dialog).toBeHidden();
  await expect(
    admin.getByRole("status").filter({ hasText: `Refunded ₹999 for ${renewal}` }),
  ).toBeVisible();
  await expect(paymentRow(renewal)).toContainText("Refunded");
  await expect(paymentRow(renewal)).toContainText("The owner kept the period it paid for.");
  await expect(paymentRow(renewal).getByRole("button", { name: /^Refund/ })).toHaveCount(0);
  await shotsAtWidths(admin, "90-admin-user-payments-refunded");

  // A refund PayU queued and has not made yet, then one PayU failed: the payment stays paid,
  // staff see where the refund stands, and may ask again only after a failure. (A simulated
  // payment is refunded at once, so the row is put in the state PayU's path leaves it.)
  runSql(
    "UPDATE payments SET refund_requested_at = ?, refund_id = '130412345' WHERE txnid = ?",
    new Date().toISOString(),
    first,
  );
  await admin.reload();
  await admin.getByRole("tab", { name: "Payments" }).click();
  await expect(paymentRow(first)).toContainText("Refund pending");
  await expect(paymentRow(first)).toContainText("PayU is making it");
  await expect(paymentRow(first).getByRole("button", { name: /^Refund/ })).toHaveCount(0);
  await shotsAtWidths(admin, "90-admin-user-payments-refund-pending");
  runSql(
    "UPDATE payments SET refund_requested_at = NULL, refund_error = ? WHERE txnid = ?",
    "PayU could not make the refund: Insufficient balance in the merchant account",
    first,
  );
  await admin.reload();
  await admin.getByRole("tab", { name: "Payments" }).click();
  await expect(paymentRow(first)).toContainText(
    "PayU could not make the refund: Insufficient balance in the merchant account. No money went back; you can refund it again.",
  );
  await expect(paymentRow(first)).not.toContainText("Refund pending");
  await expect(paymentRow(first).getByRole("button", { name: `Refund ${first}` })).toBeVisible();
  await shotsAtWidths(admin, "90-admin-user-payments-refund-failed");
  runSql("UPDATE payments SET refund_error = NULL, refund_id = NULL WHERE txnid = ?", first);

  // The owner sees it as refunded; their plan is still Basic (staff kept access).
  await page.goto("/billing/history");
  await expect(row(renewal)).toContainText("Refunded");
  await expect(tile("Total Amount")).toHaveText("₹1,998");
  await page.goto("/billing");
  await expect(page.getByTestId("plan-basic").getByRole("button")).toHaveText("Current Plan");

  // The System tab: the stuck payment and the last reconciliation run.
  await admin.goto("/admin/superadmin");
  await admin.getByRole("tab", { name: "System" }).click();
  const panel = admin.getByTestId("payments-health");
  await expect(panel.getByRole("heading", { name: "Payments" })).toBeVisible();
  await expect(panel).toContainText("Pending over 15 minutes");
  await expect(panel.getByTestId("payments-stuck")).not.toHaveText("0");
  await expect(panel).toContainText(/\d+ stuck/);
  await expect(panel).toContainText("Last reconciliation with PayU");
  await expect(panel.getByTestId("reconciliation-counts")).toHaveText(
    /^\d+ checked · \d+ settled · \d+ expired$/,
  );
  await expect(panel).toContainText("OK");
  await admin.waitForLoadState("networkidle");
  await shotsAtWidths(admin, "91-admin-system-payments");
  await staff.close();
});

/** Posts widget page views of new visitors from one client address (a loopback alias). */
function pageViews(campaignId: string, address: string, visitors: number, tag: string) {
  const url = new URL("/api/widget/events", API);
  const one = (n: number) =>
    new Promise<number>((done, fail) => {
      const body = JSON.stringify({
        campaignId,
        visitorId: `v_${tag}_${address.replaceAll(".", "_")}_${n}`,
        type: "pageview",
      });
      const req = httpRequest(
        {
          host: url.hostname,
          port: url.port,
          path: url.pathname,
          method: "POST",
          localAddress: address,
          headers: {
            "content-type": "application/json",
            "content-length": Buffer.byteLength(body),
            origin: SITE,
          },
        },
        (res) => {
          res.resume();
          res.on("end", () => done(res.statusCode ?? 0));
        },
      );
      req.on("error", fail);
      req.end(body);
    });
  return Promise.all(Array.from({ length: visitors }, (_, n) => one(n)));
}

/**
 * Visitors from `count / 20` addresses, 20 each: the server counts at most 20 new visitors per
 * address per campaign a day, so a real crowd comes from many addresses.
 */
async function crowd(campaignId: string, from: number, count: number, tag: string) {
  const perAddress = 20;
  const addresses = Array.from(
    { length: Math.ceil(count / perAddress) },
    (_, i) => `127.0.${Math.floor((from + i) / 250) + 1}.${((from + i) % 250) + 2}`,
  );
  for (let i = 0; i < addresses.length; i += 10) {
    const statuses = await Promise.all(
      addresses.slice(i, i + 10).map((a) => pageViews(campaignId, a, perAddress, tag)),
    );
    for (const s of statuses.flat()) expect(s).toBeLessThan(300);
  }
  return from + addresses.length;
}

/**
 * The visitors counted this month, once the server has stored what it answered: events are
 * answered once journalled and stored a moment later, so the count is awaited, not read once.
 */
async function expectVisitors(request: APIRequestContext, token: string, count: number) {
  await expect
    .poll(async () => (await visitorsNow(request, token)).current, { timeout: 10_000 })
    .toBe(count);
}

async function visitorsNow(request: APIRequestContext, token: string) {
  const res = await request.get(`${API}/api/billing/usage`, {
    headers: { authorization: `Bearer ${token}` },
  });
  return (await res.json()).data.visitors as { current: number; limit: number; stopAt: number };
}

test("the visitor quota: a warning at 80 %, the grace at the limit, red once the popup stops", async ({
  page,
  request,
}) => {
  test.setTimeout(240_000);
  const email = uniqueEmail("quota");
  const reg = await request.post(`${API}/api/auth/register`, {
    data: { name: "Kabir Rao", email, password: PASSWORD, phone: "+91 9876543210" },
  });
  expect(reg.status()).toBe(201);
  const token = (await reg.json()).token as string;
  const created = await request.post(`${API}/api/campaigns`, {
    headers: { authorization: `Bearer ${token}` },
    data: { name: "Kesar exit offer", websiteUrl: SITE, settings: {} },
  });
  expect(created.status(), await created.text()).toBe(201);
  const campaignId = (await created.json()).campaign._id as string;
  const tag = `${Date.now()}`;

  const usage = await visitorsNow(request, token);
  expect(usage.current).toBe(0);
  const { limit, stopAt } = usage;
  expect(limit).toBeGreaterThan(0);
  const grace = stopAt - limit;
  expect(grace).toBeGreaterThan(0);

  // Below 80 %: nothing.
  await loginThroughForm(page, email);
  await page.waitForURL("**/dashboard");
  let next = await crowd(campaignId, 0, limit * 0.8 - 20, tag);
  await page.reload();
  await expect(page.getByRole("heading", { name: /^Welcome back/ })).toBeVisible();
  await expect(page.getByTestId("visitor-quota")).toHaveCount(0);

  // 80 %: a warning with the server's figures.
  next = await crowd(campaignId, next, 20, tag);
  await expectVisitors(request, token, limit * 0.8);
  await page.reload();
  const banner = page.getByTestId("visitor-quota");
  await expect(banner).toHaveAttribute("data-level", "warning");
  await expect(banner).toContainText("You've used 80% of this month's visitors");
  await expect(banner).toContainText(
    `${(limit * 0.8).toLocaleString("en-IN")} of ${limit.toLocaleString("en-IN")} visitors`,
  );
  await expect(banner.getByRole("link", { name: "Upgrade Plan" })).toHaveAttribute(
    "href",
    "/billing",
  );
  await shotsAtWidths(page, "99-dashboard-quota-warning");

  // The limit: the grace, saying where the popup stops.
  next = await crowd(campaignId, next, limit * 0.2, tag);
  await expectVisitors(request, token, limit);
  await page.reload();
  await expect(banner).toHaveAttribute("data-level", "grace");
  await expect(banner).toContainText("You've reached this month's visitor limit");
  await expect(banner).toContainText(`stops at ${stopAt.toLocaleString("en-IN")} visitors`);
  const config = await request.get(`${API}/api/widget/campaigns/${campaignId}/config`, {
    headers: { origin: SITE },
  });
  expect((await config.json()).active).toBe(true);
  await shotsAtWidths(page, "99-dashboard-quota-grace");

  // The grace used up: the popup stops, and the banner turns red.
  await crowd(campaignId, next, grace, tag);
  await expectVisitors(request, token, stopAt);
  await page.reload();
  await expect(banner).toHaveAttribute("data-level", "stopped");
  await expect(page.getByRole("alert")).toContainText("Your popup has stopped for this month");
  await expect(banner).toContainText(`the grace up to ${stopAt.toLocaleString("en-IN")}`);
  await expect
    .poll(
      async () => {
        const res = await request.get(`${API}/api/widget/campaigns/${campaignId}/config`, {
          headers: { origin: SITE },
        });
        return (await res.json()).reason as string | undefined;
      },
      { timeout: 10_000 },
    )
    .toBe("visitor_limit");
  await shotsAtWidths(page, "99-dashboard-quota-stopped");
  await banner.getByRole("link", { name: "Upgrade Plan" }).click();
  await page.waitForURL("**/billing");
});
