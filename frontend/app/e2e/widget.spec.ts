import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { expect, test, type APIRequestContext, type Page } from "@playwright/test";
import { expectAccessible } from "./a11y";
import { SCREENSHOTS, shot, uniqueEmail } from "./support";

/**
 * The widget as a visitor meets it, on a sample shop served from another
 * origin (http://localhost:<port>) than the API (E2E_BASE_URL, 127.0.0.1).
 */

const API = process.env.E2E_BASE_URL ?? "http://127.0.0.1:8080";

const KNOWLEDGE_BASE = `Shipping: We ship across India. Delivery takes 3-5 business days to metro cities. Shipping is free on orders above ₹999.

Cash on delivery (COD) is available on orders up to ₹10,000 for a ₹49 handling fee.

Returns: You can return unused products within 7 days of delivery.`;

const HOSTILE = "<style>* { all: unset !important } div { display: none !important }</style>";
const XSS = `<img src=x onerror="window.__xss=1">`;

let site: Server;
let SITE = "";

function page(campaign: string, body: string, head = ""): string {
  const products = Array.from(
    { length: 24 },
    (_, i) => `<div class="p"><h3>Handloom saree ${i + 1}</h3><p>₹${1299 + i * 100}</p></div>`,
  ).join("");
  return `<!doctype html><html><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Kesar sample shop</title>
<style>body{font-family:Georgia,serif;margin:0}.p{padding:40px;border-bottom:1px solid #ddd}</style>${head}</head>
<body><h1>Kesar Handlooms</h1>${body}${products}
<script src="${API}/widget/ca-widget.js" data-campaign-id="${campaign}" data-api-url="${API}" async defer></script></body></html>`;
}

test.beforeAll(async () => {
  site = createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://localhost");
    const campaign = (url.searchParams.get("c") ?? "").replace(/[^0-9a-f-]/g, "");
    res.setHeader("content-type", "text/html; charset=utf-8");
    if (url.pathname === "/thank-you") {
      const order = (url.searchParams.get("order") ?? "").replace(/[^A-Z0-9-]/g, "");
      res.end(
        `<!doctype html><html><body><h1>Thank you for your order</h1>
<script>
  window.caTrack = window.caTrack || function () { (window.caTrackQueue = window.caTrackQueue || []).push(arguments); };
  caTrack('purchase', { value: 1499, currency: 'INR', orderId: '${order}' });
  caTrack('purchase', { value: 1499, currency: 'INR', orderId: '${order}' });
</script>
<script src="${API}/widget/ca-widget.js" data-campaign-id="${campaign}" data-api-url="${API}" data-mode="conversion" async defer></script>
</body></html>`,
      );
      return;
    }
    res.end(page(campaign, "", url.searchParams.has("hostile") ? HOSTILE : ""));
  });
  await new Promise<void>((resolve) => site.listen(0, "127.0.0.1", resolve));
  SITE = `http://localhost:${(site.address() as AddressInfo).port}`;
});

test.afterAll(async () => {
  await new Promise((resolve) => site.close(resolve));
});

async function owner(request: APIRequestContext): Promise<string> {
  const res = await request.post(`${API}/api/auth/register`, {
    data: {
      name: "Asha Verma",
      email: uniqueEmail("widget"),
      password: "kesar-123",
      phone: "9876543210",
    },
  });
  expect(res.status()).toBe(201);
  return (await res.json()).token as string;
}

async function campaign(
  request: APIRequestContext,
  token: string,
  overrides: {
    design?: Record<string, unknown>;
    initialMessage?: string;
    coupon?: Record<string, unknown>;
    delay?: number;
    minTimeOnPage?: number;
    includePages?: string[];
    excludePages?: string[];
    devices?: string[];
  } = {},
): Promise<string> {
  const res = await request.post(`${API}/api/campaigns`, {
    headers: { authorization: `Bearer ${token}` },
    data: {
      name: "Kesar exit offer",
      websiteUrl: SITE,
      settings: {
        exitIntent: {
          enabled: true,
          sensitivity: "high",
          delay: overrides.delay ?? 1500,
          cooldown: 1,
        },
        targeting: {
          minTimeOnPage: overrides.minTimeOnPage ?? 0,
          maxDisplaysPerSession: 2,
          cooldownMinutes: 1,
          includePages: overrides.includePages ?? [],
          excludePages: overrides.excludePages ?? [],
          devices: overrides.devices ?? ["desktop", "mobile", "tablet"],
        },
        popup: {
          design: {
            headerTitle: "Wait! Before you go...",
            headerSubtitle: "Our assistant can help",
            ...overrides.design,
          },
        },
        aiSettings: {
          initialMessage: overrides.initialMessage ?? "Namaste! Looking for a saree?",
          knowledgeBase: KNOWLEDGE_BASE,
          businessInfo: "Kesar Handlooms, Jaipur.",
        },
        forms: {
          conversionForms: [
            {
              id: "coupon",
              name: "10% coupon",
              type: "coupon",
              title: "Unlock 10% off",
              buttonText: "Get my code",
              successMessage: "Your code is KESAR10",
              triggerKeywords: ["discount"],
              fields: [{ name: "email", label: "Email", type: "email", required: true }],
              ...overrides.coupon,
            },
          ],
        },
      },
    },
  });
  expect(res.status(), await res.text()).toBe(201);
  return (await res.json()).campaign._id as string;
}

async function analytics(request: APIRequestContext, token: string, id: string) {
  const res = await request.get(`${API}/api/campaigns/${id}/analytics`, {
    headers: { authorization: `Bearer ${token}` },
  });
  return (await res.json()).analytics as {
    impressions: number;
    conversions: number;
    revenue: number;
  };
}

/** Opens the shop and waits until the widget has its configuration. */
async function visit(p: Page, id: string, query = "", path = "/") {
  const config = p.waitForResponse((r) => r.url().includes(`/campaigns/${id}/config`));
  await p.goto(`${SITE}${path}?c=${id}${query}`);
  await config;
  await p.waitForTimeout(100);
}

/** The pointer leaves through the top edge of the window. */
async function exitThroughTop(p: Page) {
  await p.evaluate(() =>
    document.dispatchEvent(
      new MouseEvent("mouseout", { clientX: 600, clientY: 2, bubbles: true, relatedTarget: null }),
    ),
  );
}

function popup(p: Page) {
  return p.locator("convertassist-widget").getByRole("dialog");
}

test("desktop exit intent opens the popup, the chat answers, the coupon form converts, the thank-you page adds revenue once", async ({
  page: p,
  request,
}) => {
  const token = await owner(request);
  const id = await campaign(request, token);
  await visit(p, id);
  // Before the delay nothing happens.
  await exitThroughTop(p);
  await p.waitForTimeout(300);
  await expect(p.locator("convertassist-widget")).toHaveCount(0);

  await p.waitForTimeout(1300);
  await exitThroughTop(p);
  const dialog = popup(p);
  await expect(dialog).toBeVisible();
  await expect(dialog.getByRole("heading", { name: "Wait! Before you go..." })).toBeVisible();
  await expect(dialog.getByText("Namaste! Looking for a saree?")).toBeVisible();
  await expect(dialog.getByLabel("Close")).toBeVisible();
  await expect.poll(async () => (await analytics(request, token, id)).impressions).toBe(1);
  await p.screenshot({ path: `${SCREENSHOTS}/widget-desktop-open.png` });
  await expectAccessible(p, "widget-popup-open", "convertassist-widget");

  const message = dialog.getByLabel("Your message");
  await message.fill("Do you have cash on delivery?");
  await message.press("Enter");
  await expect(dialog.getByText(/Cash on delivery \(COD\) is available/)).toBeVisible();

  await message.fill("Is there any discount on silk sarees?");
  await message.press("Enter");
  const coupon = dialog.getByRole("form", { name: "Unlock 10% off" });
  await expect(coupon).toBeVisible();
  // The knowledge base says nothing about discounts: the assistant points to the offer.
  await expect(
    dialog.getByText("Good news: Unlock 10% off! Fill in the form below and it's yours."),
  ).toBeVisible();
  await p.screenshot({ path: `${SCREENSHOTS}/widget-desktop-coupon.png` });
  await expectAccessible(p, "widget-popup-coupon-form", "convertassist-widget");
  await coupon.getByLabel("Email").fill("meera.iyer@example.in");
  await coupon.getByRole("button", { name: "Get my code" }).click();
  await expect(dialog.getByText("Your code is KESAR10")).toBeVisible();
  await expectAccessible(p, "widget-popup-converted", "convertassist-widget");
  await expect.poll(async () => (await analytics(request, token, id)).conversions).toBe(1);
  const db = (process.env.E2E_DATABASE_URL ?? "").replace(/^sqlite:\/\//, "").split("?")[0] ?? "";
  const customers = execFileSync(
    "python3",
    [
      "-c",
      "import sqlite3,sys; print(sqlite3.connect(sys.argv[1]).execute('SELECT conversion_status, source_campaign FROM customers WHERE email=?', (sys.argv[2],)).fetchall())",
      db,
      "meera.iyer@example.in",
    ],
    { encoding: "utf8" },
  );
  expect(customers.trim()).toBe("[('lead', 'Kesar exit offer')]");

  // Esc closes; a converted visitor does not see the popup again.
  await p.keyboard.press("Escape");
  await expect(p.locator("convertassist-widget")).toHaveCount(0);
  await p.evaluate((key) => localStorage.removeItem(key), `ca_last_${id}`);
  await exitThroughTop(p);
  await p.waitForTimeout(300);
  await expect(p.locator("convertassist-widget")).toHaveCount(0);

  // The thank-you page reports the same order twice; it counts once.
  await p.goto(`${SITE}/thank-you?c=${id}&order=KES-1001`);
  await expect.poll(async () => (await analytics(request, token, id)).revenue).toBe(1499);
  await p.reload();
  await p.waitForTimeout(800);
  expect((await analytics(request, token, id)).revenue).toBe(1499);
});

test("displays per session and the cooldown are respected", async ({ page: p, request }) => {
  const token = await owner(request);
  const id = await campaign(request, token);
  await visit(p, id);
  await p.waitForTimeout(1500);
  await exitThroughTop(p);
  await expect(popup(p)).toBeVisible();
  // Focus stays inside the dialog.
  for (let i = 0; i < 8; i += 1) await p.keyboard.press("Tab");
  expect(await p.evaluate(() => document.activeElement?.tagName)).toBe("CONVERTASSIST-WIDGET");
  await p.keyboard.press("Shift+Tab");
  expect(await p.evaluate(() => document.activeElement?.tagName)).toBe("CONVERTASSIST-WIDGET");
  await popup(p).getByLabel("Close").click();
  await expect(p.locator("convertassist-widget")).toHaveCount(0);
  // Within the cooldown: nothing.
  await exitThroughTop(p);
  await p.waitForTimeout(300);
  await expect(p.locator("convertassist-widget")).toHaveCount(0);
  // Cooldown over (time moved on): the second display of the session.
  const age = (key: string) => localStorage.setItem(key, String(Date.now() - 2 * 60 * 60 * 1000));
  await p.evaluate(age, `ca_last_${id}`);
  await exitThroughTop(p);
  await expect(popup(p)).toBeVisible();
  await p.keyboard.press("Escape");
  // maxDisplaysPerSession is 2: no third.
  await p.evaluate(age, `ca_last_${id}`);
  await exitThroughTop(p);
  await p.waitForTimeout(300);
  await expect(p.locator("convertassist-widget")).toHaveCount(0);
  await expect.poll(async () => (await analytics(request, token, id)).impressions).toBe(2);
});

test("a fast scroll up on a phone opens a popup that fits 390 px", async ({ browser, request }) => {
  const token = await owner(request);
  const id = await campaign(request, token);
  const context = await browser.newContext({
    viewport: { width: 390, height: 844 },
    isMobile: true,
    hasTouch: true,
  });
  const p = await context.newPage();
  await visit(p, id);
  await p.evaluate(() => window.scrollTo(0, 2400));
  await p.waitForTimeout(1600);
  // A finger flicks the page back up (several fast touch reports, uneven as a
  // phone sends them); a scroll by a script or a link would not count.
  const cdp = await context.newCDPSession(p);
  const touch = (type: "touchStart" | "touchMove" | "touchEnd", y?: number) =>
    cdp.send("Input.dispatchTouchEvent", {
      type,
      touchPoints: y === undefined ? [] : [{ x: 200, y }],
    });
  let y = 180;
  await touch("touchStart", y);
  const steps: [number, number][] = [
    [20, 45],
    [25, 60],
    [20, 40],
    [70, 16],
    [80, 16],
    [3, 1],
    [90, 16],
    [80, 16],
  ];
  for (const [dy, gap] of steps) {
    await p.waitForTimeout(gap);
    y += dy;
    await touch("touchMove", y);
  }
  await p.waitForTimeout(250);
  await touch("touchEnd");
  const dialog = popup(p);
  await expect(dialog).toBeVisible();
  const box = await dialog.boundingBox();
  expect(box?.width ?? 0).toBeLessThanOrEqual(390);
  expect(box?.width ?? 0).toBeGreaterThan(300);
  await p.screenshot({ path: `${SCREENSHOTS}/widget-mobile-390.png` });
  await expectAccessible(p, "widget-popup-390", "convertassist-widget");
  await context.close();
});

test("a hostile stylesheet cannot break the popup and campaign text is never markup", async ({
  page: p,
  request,
}) => {
  const token = await owner(request);
  const id = await campaign(request, token, {
    design: {
      headerTitle: XSS,
      headerSubtitle: `<script>window.__xss=2</script>`,
      formTitle: `<b onmouseover="window.__xss=3">Get updates</b>`,
      formSubtitle: `<iframe src="javascript:window.__xss=7"></iframe>`,
      submitButtonText: `<i onclick="window.__xss=8">Go</i>`,
      trustBadges: [{ icon: "*", text: `<svg onload="window.__xss=4">` }],
    },
    initialMessage: `<img src=y onerror="window.__xss=5">Hello`,
    coupon: {
      title: `<u onmouseover="window.__xss=9">Coupon</u>`,
      subtitle: `<video src=x onerror="window.__xss=10">`,
      buttonText: `<s>Claim</s>`,
      successMessage: `<img src=q onerror="window.__xss=11">Done`,
      fields: [
        {
          name: "email",
          label: `<em>Mail</em>`,
          type: "email",
          required: true,
          placeholder: `<p>you</p>`,
        },
      ],
    },
  });
  await visit(p, id, "&hostile=1");
  await p.waitForTimeout(1500);
  await exitThroughTop(p);
  const dialog = popup(p);
  await expect(dialog).toBeVisible();
  const box = await dialog.boundingBox();
  expect(box?.width ?? 0).toBeGreaterThan(400);
  expect(box?.height ?? 0).toBeGreaterThan(400);
  await expect(dialog.getByRole("heading", { name: XSS })).toBeVisible();
  await expect(dialog.getByText(`<img src=y onerror="window.__xss=5">Hello`)).toBeVisible();
  await expect(dialog.getByText(`<b onmouseover="window.__xss=3">Get updates</b>`)).toBeVisible();
  await p.screenshot({ path: `${SCREENSHOTS}/widget-hostile-page.png` });
  const xss = await p.evaluate(() => (window as unknown as { __xss?: number }).__xss);
  expect(xss).toBeUndefined();
  const injected = await p.evaluate(
    () =>
      document
        .querySelector("convertassist-widget")
        ?.shadowRoot?.querySelectorAll("img,script,svg,b,i,u,s,em,p > p,iframe,video").length,
  );
  expect(injected).toBe(0);
  await expect(dialog.getByText(`<iframe src="javascript:window.__xss=7"></iframe>`)).toBeVisible();
  await expect(
    dialog.getByRole("button", { name: `<i onclick="window.__xss=8">Go</i>` }),
  ).toBeVisible();
  // A conversion form's texts too.
  await dialog.getByLabel("Your message").fill("any discount?");
  await dialog.getByLabel("Your message").press("Enter");
  const form = dialog.getByRole("form", { name: `<u onmouseover="window.__xss=9">Coupon</u>` });
  await expect(form).toBeVisible();
  await expect(form.getByText(`<video src=x onerror="window.__xss=10">`)).toBeVisible();
  await form.getByLabel("<em>Mail</em>").fill("xss@example.in");
  await form.getByRole("button", { name: "<s>Claim</s>" }).click();
  await expect(dialog.getByText(`<img src=q onerror="window.__xss=11">Done`)).toBeVisible();
  // The visitor's own text is text too.
  const message = dialog.getByLabel("Your message");
  await message.fill(`<img src=z onerror="window.__xss=6">`);
  await message.press("Enter");
  await expect(dialog.getByText(`<img src=z onerror="window.__xss=6">`)).toBeVisible();
  expect(await p.evaluate(() => (window as unknown as { __xss?: number }).__xss)).toBeUndefined();
});

test("the Preview page shows the campaign's widget on a sample shop", async ({
  page: p,
  request,
}) => {
  const token = await owner(request);
  const id = await campaign(request, token);
  const config = p.waitForResponse((r) => r.url().includes(`/campaigns/${id}/config`));
  await p.goto(`/test-widget?campaign=${id}`);
  await config;
  await expect(p.getByRole("heading", { name: "Handwoven in Jaipur since 1998" })).toBeVisible();
  await p.waitForTimeout(1600);
  await exitThroughTop(p);
  await expect(popup(p)).toBeVisible();
  await p.screenshot({ path: `${SCREENSHOTS}/widget-preview-page.png` });
  await expectAccessible(p, "widget-preview-page-popup", "convertassist-widget");
  // The owner's own Preview is not a visitor (#21; preview-figures.spec.ts checks every figure).
  await p.waitForTimeout(1000);
  const usage = await request.get(`${API}/api/billing/usage`, {
    headers: { authorization: `Bearer ${token}` },
  });
  expect((await usage.json()).data.visitors.current).toBe(0);
  await p.goto("/test-widget");
  await expect(p.getByText(/Open this page from a campaign's Preview button/)).toBeVisible();
  await expect(p.locator("script[data-campaign-id]")).toHaveCount(0);
});

test("nothing shows before the minimum time on the page", async ({ page: p, request }) => {
  const token = await owner(request);
  const id = await campaign(request, token, { delay: 0, minTimeOnPage: 2 });
  await visit(p, id);
  await exitThroughTop(p);
  await p.waitForTimeout(300);
  await expect(p.locator("convertassist-widget")).toHaveCount(0);
  await p.waitForTimeout(1800);
  await exitThroughTop(p);
  await expect(popup(p)).toBeVisible();
});

test("targeting: included and excluded pages, and devices", async ({ page: p, request }) => {
  const token = await owner(request);
  const id = await campaign(request, token, {
    delay: 0,
    includePages: ["/sarees/*", "/offers"],
    excludePages: ["/sarees/checkout*"],
  });
  const shows = async (path: string) => {
    await visit(p, id, "", path);
    await exitThroughTop(p);
    await p.waitForTimeout(400);
    const count = await p.locator("convertassist-widget").count();
    // Forget the display so the next page may show it again.
    await p.evaluate(() => {
      localStorage.clear();
      sessionStorage.clear();
    });
    return count > 0;
  };
  expect(await shows("/sarees/silk")).toBe(true);
  expect(await shows("/offers")).toBe(true);
  expect(await shows("/sarees/checkout/step-1")).toBe(false);
  expect(await shows("/about")).toBe(false);
  // A phones-only campaign does nothing on a desktop.
  const mobileOnly = await campaign(request, await owner(request), {
    delay: 0,
    devices: ["mobile"],
  });
  await visit(p, mobileOnly);
  await exitThroughTop(p);
  await p.waitForTimeout(400);
  await expect(p.locator("convertassist-widget")).toHaveCount(0);
});

/** Starts a conversation the way the widget does and leaves an email. */
async function leadThroughWidgetApi(
  request: APIRequestContext,
  id: string,
  n: number,
  values: Record<string, string>,
) {
  const start = await request.post(`${API}/api/widget/conversations`, {
    data: {
      campaignId: id,
      visitorId: `v_e2e_${n}_${Date.now()}`,
      userContext: { deviceType: "desktop", currentUrl: `${SITE}/` },
    },
  });
  expect(start.status(), await start.text()).toBe(201);
  const conversationId = (await start.json()).conversationId as string;
  const form = await request.post(`${API}/api/widget/conversations/${conversationId}/forms`, {
    data: { values },
  });
  expect(form.status(), await form.text()).toBe(200);
}

test("a lead captured through the widget appears in Customers: search, filter, sort, pages, View, export", async ({
  page: p,
  request,
}) => {
  const token = await owner(request);
  const id = await campaign(request, token);
  // One lead through the real popup.
  await visit(p, id);
  await p.waitForTimeout(1600);
  await exitThroughTop(p);
  const dialog = popup(p);
  const message = dialog.getByLabel("Your message");
  await message.fill("Is there any discount on silk sarees?");
  await message.press("Enter");
  const coupon = dialog.getByRole("form", { name: "Unlock 10% off" });
  await coupon.getByLabel("Email").fill("meera.iyer@example.in");
  await coupon.getByRole("button", { name: "Get my code" }).click();
  await expect(dialog.getByText("Your code is KESAR10")).toBeVisible();
  // 22 more through the widget's calls.
  await leadThroughWidgetApi(request, id, 0, { email: "rohan@example.in" });
  for (let i = 1; i <= 21; i++) {
    await leadThroughWidgetApi(request, id, i, {
      email: `buyer${String(i).padStart(2, "0")}@example.in`,
    });
  }
  // The owner marks one as a prospect and completes another's details.
  const auth = { authorization: `Bearer ${token}` };
  const find = async (q: string) =>
    (await (await request.get(`${API}/api/customers/user?search=${q}`, { headers: auth })).json())
      .customers[0]._id as string;
  let put = await request.put(`${API}/api/customers/${await find("buyer07")}`, {
    headers: auth,
    data: { conversionStatus: "prospect" },
  });
  expect(put.status()).toBe(200);
  put = await request.put(`${API}/api/customers/${await find("rohan")}`, {
    headers: auth,
    data: { name: "Rohan Mehta", phone: "+919829012345" },
  });
  expect(put.status()).toBe(200);

  await p.goto("/dashboard");
  await p.evaluate((t) => localStorage.setItem("token", t), token);
  await p.goto("/customers");
  // The shell's header names the page, once.
  await expect(p.getByRole("heading", { name: "Customers" })).toHaveCount(1);
  await expect(p.getByRole("banner").getByRole("heading", { name: "Customers" })).toBeVisible();
  const metric = (label: string) =>
    p.getByText(label, { exact: true }).locator("xpath=following-sibling::*[1]");
  await expect(metric("Total Customers")).toHaveText("23");
  await expect(metric("New Customers")).toHaveText("23");
  await expect(p.getByText("+23 from last period").first()).toBeVisible();
  await expect(p.getByTestId("status-prospect")).toContainText("1");
  await expect(p.getByTestId("status-lead")).toContainText("22");
  await expect(p.getByRole("row", { name: /Kesar exit offer 23/ })).toBeVisible();
  const rows = p.locator("tbody tr").filter({ has: p.getByRole("button", { name: /^View / }) });
  await expect(rows).toHaveCount(20);
  await shot(p, "60-customers");
  await expectAccessible(p, "customers");

  // Page 2 holds the other three.
  await p.getByRole("button", { name: "2", exact: true }).click();
  await expect(rows).toHaveCount(3);

  // Lead Score sorts the richest lead first; clicking again flips it.
  await p.getByRole("button", { name: "Lead Score" }).click();
  await expect(rows).toHaveCount(20);
  await expect(rows.first()).toContainText("rohan@example.in");
  await p.getByRole("button", { name: "Lead Score" }).click();
  await expect(rows.first()).not.toContainText("rohan@example.in");
  await expect(p.getByRole("button", { name: "Lead Score" })).toHaveAttribute(
    "aria-pressed",
    "true",
  );

  // The status filter returns to page 1 with the one prospect.
  await p.getByRole("button", { name: "2", exact: true }).click();
  await p.getByRole("textbox", { name: "Status filter" }).click();
  await p.getByRole("option", { name: "Prospect" }).click();
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toContainText("buyer07@example.in");
  await p.getByRole("textbox", { name: "Status filter" }).click();
  await p.getByRole("option", { name: "All Statuses" }).click();

  // Search, then View.
  await p.getByLabel("Search customers").fill("MEHTA");
  await expect(rows).toHaveCount(1);
  await rows
    .first()
    .getByRole("button", { name: /^View / })
    .click();
  const view = p.getByRole("dialog", { name: "Rohan Mehta" });
  await expect(view).toContainText("rohan@example.in");
  await expect(view).toContainText("+919829012345");
  await expect(view).toContainText("Kesar exit offer");
  await expect(view).toContainText("Customer Since");
  await p.waitForTimeout(400); // the dialog's opening transition
  await shot(p, "61-customer-view");
  await expectAccessible(p, "customer-view");
  await p.keyboard.press("Escape");
  await p.getByLabel("Search customers").fill("nobody-like-this");
  await expect(p.getByText("No customers found")).toBeVisible();
  await expect(p.getByText("Try adjusting your search filters or check back later")).toBeVisible();
  await expectAccessible(p, "customers-none-found");

  // Export CSV downloads every customer.
  const download = p.waitForEvent("download");
  await p.getByRole("button", { name: "Export CSV" }).click();
  const file = await download;
  expect(file.suggestedFilename()).toBe("customers.csv");
  const csv = readFileSync(await file.path(), "utf8")
    .trim()
    .split("\n");
  expect(csv[0]).toMatch(/^Name,Email,Phone/);
  expect(csv).toHaveLength(24);
  expect(csv.some((line) => line.includes("meera.iyer@example.in"))).toBe(true);

  // 375 px: the customers are cards, each with its status and View in sight; nothing scrolls sideways.
  await p.setViewportSize({ width: 375, height: 800 });
  await p.getByLabel("Search customers").fill("");
  const cards = p.getByTestId("customer-card");
  await expect(cards).toHaveCount(20);
  await expect(p.locator("table").filter({ hasText: "Lead Score" })).toBeHidden();
  const first = cards.first();
  // The page may still be scrolled to where the wide layout's controls were: bring the card
  // up, then its status and View must be in sight (not cut off at the side).
  await first.scrollIntoViewIfNeeded();
  await expect(first.getByRole("button", { name: /^View / })).toBeInViewport();
  await expect(first.getByText(/^(Lead|Prospect|Customer|Churned)$/)).toBeInViewport();
  await shot(p, "62-customers-375");
  await expectAccessible(p, "customers at 375px");
  const overflow = await p.evaluate(() => document.documentElement.scrollWidth);
  expect(overflow).toBeLessThanOrEqual(375);
});

test("conversations: the popup's chat in the split view, older messages to the beginning, resize, 375 px", async ({
  page: p,
  request,
}) => {
  const token = await owner(request);
  const id = await campaign(request, token);
  // A chat through the real popup that ends with the coupon form.
  await visit(p, id);
  await p.waitForTimeout(1600);
  await exitThroughTop(p);
  const dialog = popup(p);
  const input = dialog.getByLabel("Your message");
  await input.fill("Do you have cash on delivery?");
  await input.press("Enter");
  await expect(dialog.getByText(/Cash on delivery \(COD\) is available/)).toBeVisible();
  await input.fill("Any discount?");
  await input.press("Enter");
  const coupon = dialog.getByRole("form", { name: "Unlock 10% off" });
  await coupon.getByLabel("Email").fill("meera.iyer@example.in");
  await coupon.getByRole("button", { name: "Get my code" }).click();
  await expect(dialog.getByText("Your code is KESAR10")).toBeVisible();
  // A long chat (1 greeting + 20 questions and answers = 41 messages) and a dismissed one.
  const start = async () => {
    const r = await request.post(`${API}/api/widget/conversations`, {
      data: {
        campaignId: id,
        visitorId: `v_long_${Date.now()}`,
        userContext: { deviceType: "mobile" },
      },
    });
    expect(r.status()).toBe(201);
    return (await r.json()).conversationId as string;
  };
  const long = await start();
  for (let i = 1; i <= 20; i++) {
    const r = await request.post(`${API}/api/widget/conversations/${long}/messages`, {
      data: { message: `Question ${i}: how long does shipping take, and is it free?` },
    });
    expect(r.status(), await r.text()).toBe(200);
  }
  const dismissed = await start();
  await request.post(`${API}/api/widget/conversations/${dismissed}/dismiss`, { data: {} });

  await p.goto("/dashboard");
  await p.evaluate((t) => localStorage.setItem("token", t), token);
  await p.goto("/conversations");
  await expect(p.getByText("Select a conversation")).toBeVisible();
  const items = p.getByTestId("conversation-item");
  await expect(items).toHaveCount(3);
  await expect(items.nth(0)).toContainText("Dismissed");
  await expect(items.nth(1)).toContainText("Active");
  // The last message (the assistant's answer, a sentence for each part) cut at 80 characters.
  await expect(items.nth(1)).toContainText(
    "Delivery takes 3-5 business days to metro cities. Shipping is free on orders abo…",
  );
  await expect(items.nth(2)).toContainText("Converted");
  await expect(items.nth(2)).toContainText("meera.iyer@example.in");
  await p.getByText("Today", { exact: true }).click();
  await expect(p.getByRole("radio", { name: "Today" })).toBeChecked();
  await expect(items).toHaveCount(3);
  await expectAccessible(p, "conversations");

  // The popup's chat, with its collected data and context.
  await items.nth(2).click();
  await expect(p).toHaveURL(/\/conversations\/conv_/);
  const messages = p.getByTestId("message");
  await expect(messages.filter({ hasText: "Do you have cash on delivery?" })).toHaveCount(1);
  await expect(p.getByText("Beginning of conversation")).toBeVisible();
  await expect(p.getByText("Your code is KESAR10").or(p.getByText(/COD/).first())).toBeVisible();
  await expect(p.getByText("desktop", { exact: true })).toBeVisible();
  await shot(p, "70-conversation-converted");
  await expectAccessible(p, "conversation-converted");

  // The long chat: the latest 20, then 20 older, then the first one and the marker.
  await items.nth(1).click();
  await expect(messages).toHaveCount(20);
  await expect(messages.filter({ hasText: "Question 20:" })).toHaveCount(1);
  await expect(messages.filter({ hasText: "Question 11:" })).toHaveCount(1);
  await expect(messages.filter({ hasText: "Question 10:" })).toHaveCount(0);
  await expect(p.getByText("Beginning of conversation")).toHaveCount(0);
  const pane = p.getByTestId("messages");
  await pane.evaluate((el) => el.scrollTo({ top: 0 }));
  await expect(messages).toHaveCount(40);
  await pane.evaluate((el) => el.scrollTo({ top: 0 }));
  await expect(messages).toHaveCount(41);
  await expect(p.getByText("Beginning of conversation")).toBeVisible();
  await expect(messages.first()).toContainText("Namaste! Looking for a saree?");
  // Scroll-to-top after 300 px.
  await pane.evaluate((el) => el.scrollTo({ top: 0 }));
  await expect(p.getByRole("button", { name: "Scroll to top" })).toHaveCount(0);
  await pane.evaluate((el) => el.scrollTo({ top: 800 }));
  await p.getByRole("button", { name: "Scroll to top" }).click();
  await expect.poll(() => pane.evaluate((el) => el.scrollTop)).toBeLessThan(5);
  // The demonstration input sends nothing.
  const send = p.getByRole("button", { name: "Send" });
  await expect(send).toBeDisabled();
  await p.getByLabel("Message", { exact: true }).fill("Hello from the owner");
  await expect(send).toBeEnabled();
  await send.click();
  await expect(messages).toHaveCount(41);
  await expect(
    p.getByText(
      "This conversation is for monitoring purposes. New messages are demonstration only.",
    ),
  ).toBeVisible();
  await shot(p, "71-conversation-beginning");
  await expectAccessible(p, "conversation-beginning");

  // The split resizes, within 25–50 % for the list.
  const list = p.locator("#conversation-list");
  const before = (await list.boundingBox())!.width;
  const handle = (await p
    .getByRole("separator", { name: "Resize the conversation list" })
    .boundingBox())!;
  await p.mouse.move(handle.x + handle.width / 2, handle.y + 100);
  await p.mouse.down();
  await p.mouse.move(handle.x + 120, handle.y + 100, { steps: 8 });
  await p.mouse.up();
  const after = (await list.boundingBox())!.width;
  expect(after).toBeGreaterThan(before + 60);
  const group = (await p.locator("#conversations-split").boundingBox())!.width;
  await p.mouse.move(handle.x + 120, handle.y + 100);
  await p.mouse.down();
  await p.mouse.move(handle.x + 900, handle.y + 100, { steps: 8 });
  await p.mouse.up();
  expect((await list.boundingBox())!.width).toBeLessThanOrEqual(group * 0.5 + 2);
  await shot(p, "72-conversations-resized");

  // Unknown conversation.
  await p.goto("/conversations/conv_doesnotexist000000000000");
  await expect(p.getByText("Conversation not found")).toBeVisible();
  await expectAccessible(p, "conversation-not-found");
  await p.getByRole("button", { name: "Back to Conversations" }).click();
  await expect(p.getByText("Select a conversation")).toBeVisible();

  // 375 px: the list, then the detail with a way back.
  await p.setViewportSize({ width: 375, height: 760 });
  await expect(items).toHaveCount(3);
  await items.nth(2).click();
  await expect(messages.filter({ hasText: "Do you have cash on delivery?" })).toHaveCount(1);
  await shot(p, "73-conversation-375");
  await expectAccessible(p, "conversation at 375px");
  await p.getByRole("button", { name: "All conversations" }).click();
  await expect(items).toHaveCount(3);
  await expectAccessible(p, "conversations at 375px");
});

test("a visit of known length shows as the customer's session time", async ({
  page: p,
  request,
}) => {
  const token = await owner(request);
  const id = await campaign(request, token);
  const loaded = Date.now();
  await visit(p, id);
  await p.waitForTimeout(1600);
  await exitThroughTop(p);
  const dialog = popup(p);
  const message = dialog.getByLabel("Your message");
  await message.fill("Is there any discount on silk sarees?");
  await message.press("Enter");
  const coupon = dialog.getByRole("form", { name: "Unlock 10% off" });
  await coupon.getByLabel("Email").fill("reader@example.in");
  await coupon.getByRole("button", { name: "Get my code" }).click();
  await expect(dialog.getByText("Your code is KESAR10")).toBeVisible();
  // The visitor keeps reading (moving the pointer now and then) until about
  // 14 s after the page loaded, then leaves: the widget reports the engaged
  // time as the page hides.
  while (Date.now() - loaded < 14_000) {
    await p.mouse.move(300 + Math.random() * 400, 300 + Math.random() * 200);
    await p.waitForTimeout(2000);
  }
  const left = Date.now();
  await p.goto("about:blank");
  const spent = Math.floor((left - loaded) / 1000);

  // The owner's customer: one session of that length.
  const auth = { authorization: `Bearer ${token}` };
  let seconds = 0;
  await expect
    .poll(async () => {
      const res = await request.get(`${API}/api/customers/user?search=reader`, { headers: auth });
      seconds = (await res.json()).customers[0]?.averageSessionDuration ?? 0;
      return seconds;
    })
    .toBeGreaterThan(0);
  expect(seconds).toBeGreaterThanOrEqual(spent - 3);
  expect(seconds).toBeLessThanOrEqual(spent + 1);
  await p.goto("/dashboard");
  await p.evaluate((t) => localStorage.setItem("token", t), token);
  await p.goto("/customers");
  await p
    .getByRole("button", { name: /^View / })
    .first()
    .click();
  const view = p.getByRole("dialog");
  await expect(view).toContainText("reader@example.in");
  // The page the visitor read before leaving their email counts too.
  await expect(view.getByText("Page Views").locator("xpath=following-sibling::*[1]")).toHaveText(
    "1",
  );
  await expect(
    view.getByText("Avg. Session Time").locator("xpath=following-sibling::*[1]"),
  ).toHaveText(`${seconds}s`);
  await p.waitForTimeout(400);
  await shot(p, "63-customer-session-time");
  await expectAccessible(p, "customer-view-session-time");
});
