import { createHmac, timingSafeEqual } from "node:crypto";
import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { expect, test, type Page } from "@playwright/test";
import { checkScreen, expectAccessible, settled } from "./a11y";
import { shot, uniqueEmail } from "./support";

/**
 * Settings → Integrations against a real receiver: a webhook endpoint pointing at a local HTTP
 * server started here, a test event, a lead submitted through the real widget on a sample shop,
 * "Resend" (the same webhook-id again) and a secret rotation (both secrets sign), with every
 * delivery's Standard Webhooks signature checked by the receiver.
 */

const API = process.env.E2E_BASE_URL ?? "http://127.0.0.1:8080";

interface Received {
  headers: IncomingHttpHeaders;
  body: string;
  event: { id: string; type: string; timestamp: string; data: Record<string, unknown> };
}

let server: Server;
let PORT = 0;
const received: Received[] = [];

test.beforeAll(async () => {
  server = createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://localhost");
    if (req.method === "POST" && url.pathname === "/hook") {
      let body = "";
      req.setEncoding("utf8");
      req.on("data", (chunk: string) => (body += chunk));
      req.on("end", () => {
        received.push({ headers: req.headers, body, event: JSON.parse(body) });
        res.setHeader("content-type", "application/json");
        res.end(JSON.stringify({ received: true }));
      });
      return;
    }
    // The sample shop, on another origin (localhost) than the API (127.0.0.1).
    const campaign = (url.searchParams.get("c") ?? "").replace(/[^0-9a-f-]/g, "");
    res.setHeader("content-type", "text/html; charset=utf-8");
    res.end(`<!doctype html><html><head><meta charset="utf-8"><title>Kesar sample shop</title></head>
<body><h1>Kesar Handlooms</h1><p>Handloom sarees from Jaipur.</p>
<script src="${API}/widget/ca-widget.js" data-campaign-id="${campaign}" data-api-url="${API}" async defer></script></body></html>`);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  PORT = (server.address() as AddressInfo).port;
});

test.afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
});

/**
 * Whether `r` carries a valid signature by `secret`, checked as the Standard Webhooks
 * specification says: HMAC-SHA256 over `{id}.{timestamp}.{body}` with the secret's decoded bytes,
 * compared against every `v1,` entry of `webhook-signature`, with a fresh timestamp.
 */
function signedBy(r: Received, secret: string): boolean {
  const id = String(r.headers["webhook-id"] ?? "");
  const timestamp = String(r.headers["webhook-timestamp"] ?? "");
  const header = String(r.headers["webhook-signature"] ?? "");
  if (!id || !/^\d+$/.test(timestamp)) return false;
  if (Math.abs(Date.now() / 1000 - Number(timestamp)) > 300) return false;
  const key = Buffer.from(secret.replace(/^whsec_/, ""), "base64");
  const expected = createHmac("sha256", key).update(`${id}.${timestamp}.${r.body}`).digest();
  return header.split(" ").some((entry) => {
    const [version, signature] = entry.split(",");
    if (version !== "v1" || !signature) return false;
    const given = Buffer.from(signature, "base64");
    return given.length === expected.length && timingSafeEqual(given, expected);
  });
}

async function signIn(page: Page): Promise<string> {
  const res = await page.request.post("/api/auth/register", {
    data: {
      name: "Kavya Raghunathan",
      email: uniqueEmail("hooks"),
      password: "kesar-123",
      phone: "9876543210",
    },
  });
  expect(res.status()).toBe(201);
  const token = (await res.json()).token as string;
  await page.goto("/login");
  await page.evaluate((t) => localStorage.setItem("token", t), token);
  return token;
}

async function createCampaign(page: Page, token: string): Promise<string> {
  const res = await page.request.post("/api/campaigns", {
    headers: { authorization: `Bearer ${token}` },
    data: {
      name: "Kesar exit offer",
      websiteUrl: `http://localhost:${PORT}`,
      settings: {
        exitIntent: { enabled: true, sensitivity: "high", delay: 500, cooldown: 1 },
        targeting: {
          minTimeOnPage: 0,
          maxDisplaysPerSession: 2,
          cooldownMinutes: 1,
          includePages: [],
          excludePages: [],
          devices: ["desktop", "mobile", "tablet"],
        },
        aiSettings: {
          initialMessage: "Namaste! Looking for a saree?",
          knowledgeBase: "Shipping: We ship across India in 3-5 business days.",
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
              fields: [
                { name: "name", label: "Name", type: "text", required: false },
                { name: "email", label: "Email", type: "email", required: true },
              ],
            },
          ],
        },
      },
    },
  });
  expect(res.status(), await res.text()).toBe(201);
  return (await res.json()).campaign._id as string;
}

/** A visible row of the delivery log (the table on wide screens, the list on narrow ones). */
function logRows(page: Page, text: string) {
  return page.getByTestId("delivery-row").filter({ hasText: text }).filter({ visible: true });
}

test("an endpoint gets a signed test event and a lead from the widget, Resend repeats its webhook-id, rotation signs with both secrets", async ({
  page,
  context,
}) => {
  test.setTimeout(120_000);
  await page.setViewportSize({ width: 1440, height: 900 });
  const token = await signIn(page);
  const campaignId = await createCampaign(page, token);
  const hook = `http://127.0.0.1:${PORT}/hook`;

  // The settings navigation leads to the screen, which has its own address.
  await page.goto("/settings");
  await page.getByRole("tab", { name: "Integrations" }).click();
  await page.waitForURL("**/settings/integrations");
  await expect(page.getByRole("heading", { name: "Webhooks" })).toBeVisible();
  await expect(page.getByText("No endpoints yet")).toBeVisible();
  await expect(page.getByText("No deliveries yet")).toBeVisible();
  await shot(page, "integrations-empty-1440");

  // The server's own messages show under the fields, and nothing is saved.
  await page.getByRole("button", { name: "Add endpoint" }).click();
  const form = page.getByRole("dialog", { name: "Add endpoint" });
  await form.getByRole("button", { name: "Add endpoint" }).click();
  await expect(form.getByText("Enter the URL to send events to")).toBeVisible();
  await form.getByLabel("Endpoint URL").fill("ftp://files.example.in/leads");
  await form.getByRole("checkbox", { name: /lead\.created/ }).uncheck();
  await form.getByRole("button", { name: "Add endpoint" }).click();
  await expect(form.getByText("The URL must be a valid http(s) address")).toBeVisible();
  await expect(form.getByText("Choose at least one event")).toBeVisible();
  await expectAccessible(page, "integrations-endpoint-form-errors");

  await form.getByLabel("Endpoint URL").fill(hook);
  await form.getByLabel("Description").fill("Kesar CRM");
  await form.getByRole("checkbox", { name: /lead\.created/ }).check();
  await form.getByRole("checkbox", { name: /conversation\.completed/ }).check();
  await form.getByRole("button", { name: "Add endpoint" }).click();

  // The secret, shown once with a copy button.
  const added = page.getByRole("dialog", { name: "Endpoint added" });
  await expect(added).toBeVisible();
  const secret = ((await added.getByLabel("Signing secret").textContent()) ?? "").trim();
  expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
  await expect(added.getByRole("button", { name: "Copy secret" })).toBeVisible();
  await shot(page, "integrations-secret-1440");
  await expectAccessible(page, "integrations-secret");
  await added.getByRole("button", { name: "Done" }).click();

  const card = page.getByRole("listitem", { name: "Kesar CRM" });
  await expect(card).toContainText(hook);
  await expect(card.getByText("Enabled", { exact: true })).toBeVisible();

  // A test event reaches the receiver, signed, and the log says so.
  await card.getByRole("button", { name: "Send test event" }).click();
  await expect(page.getByRole("status")).toContainText("Test event");
  await expect.poll(() => received.filter((r) => r.event.type === "webhook.test").length).toBe(1);
  const testEvent = received.find((r) => r.event.type === "webhook.test")!;
  expect(signedBy(testEvent, secret)).toBe(true);
  expect(signedBy(testEvent, "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw")).toBe(false);
  expect(testEvent.headers["webhook-id"]).toBe(testEvent.event.id);
  const testRow = logRows(page, "webhook.test");
  await expect(testRow).toHaveCount(1, { timeout: 15_000 });
  await expect(testRow).toContainText("Delivered");
  await expect(testRow).toContainText("200");
  await expect(testRow).toContainText('{"received":true}');

  // A lead through the real widget on the shop.
  const shop = await context.newPage();
  const config = shop.waitForResponse((r) => r.url().includes(`/campaigns/${campaignId}/config`));
  await shop.goto(`http://localhost:${PORT}/?c=${campaignId}`);
  await config;
  await shop.waitForTimeout(700);
  await shop.evaluate(() =>
    document.dispatchEvent(
      new MouseEvent("mouseout", { clientX: 600, clientY: 2, bubbles: true, relatedTarget: null }),
    ),
  );
  const popup = shop.locator("convertassist-widget").getByRole("dialog");
  await expect(popup).toBeVisible();
  const message = popup.getByLabel("Your message");
  await message.fill("Is there any discount on silk sarees?");
  await message.press("Enter");
  const coupon = popup.getByRole("form", { name: "Unlock 10% off" });
  await expect(coupon).toBeVisible();
  await coupon.getByLabel("Name").fill("Kavya Rao");
  await coupon.getByLabel("Email").fill("kavya.rao@example.in");
  await coupon.getByRole("button", { name: "Get my code" }).click();
  await expect(popup.getByText("Your code is KESAR10")).toBeVisible();
  await shop.close();

  await expect.poll(() => received.filter((r) => r.event.type === "lead.created").length).toBe(1);
  const lead = received.find((r) => r.event.type === "lead.created")!;
  expect(signedBy(lead, secret)).toBe(true);
  const data = lead.event.data as {
    customer: { email: string; name: string | null };
    campaign: { id: string; name: string };
    fields: Record<string, unknown>;
  };
  expect(data.customer.email).toBe("kavya.rao@example.in");
  expect(data.campaign).toEqual({ id: campaignId, name: "Kesar exit offer" });
  expect(data.fields.email).toBe("kavya.rao@example.in");
  const leadRow = logRows(page, "lead.created");
  await expect(leadRow).toHaveCount(1, { timeout: 15_000 });
  await expect(leadRow).toContainText("Delivered");
  await expect(leadRow).toContainText(lead.event.id);

  // Resend: the same event, the same webhook-id, a second attempt in the log.
  await leadRow.getByRole("button", { name: /^Resend lead\.created/ }).click();
  await expect.poll(() => received.filter((r) => r.event.type === "lead.created").length).toBe(2);
  const again = received.filter((r) => r.event.type === "lead.created")[1]!;
  expect(again.headers["webhook-id"]).toBe(lead.headers["webhook-id"]);
  expect(again.body).toBe(lead.body);
  expect(signedBy(again, secret)).toBe(true);
  await expect(logRows(page, "lead.created")).toHaveCount(2, { timeout: 15_000 });
  // Newest first: the resent attempt is number 2.
  await expect(
    logRows(page, "lead.created").first().getByRole("cell", { name: "2", exact: true }),
  ).toBeVisible();

  // The filter keeps one endpoint's deliveries; this owner has one, so all of them stay.
  await page.getByRole("textbox", { name: "Endpoint" }).click();
  await page.getByRole("option", { name: "Kesar CRM" }).click();
  await expect(logRows(page, "lead.created")).toHaveCount(2);
  await expect(logRows(page, "webhook.test")).toHaveCount(1);

  // Rotation: the new secret is shown once; for 24 hours both secrets sign.
  await card.getByRole("button", { name: "Rotate secret" }).click();
  const confirm = page.getByRole("dialog", { name: "Rotate the signing secret?" });
  await expect(confirm).toContainText("For the next 24 hours the current secret signs too");
  await confirm.getByRole("button", { name: "Rotate secret" }).click();
  const rotated = page.getByRole("dialog", { name: "New signing secret" });
  await expect(rotated).toContainText("Both secrets sign for 24 hours");
  const newSecret = ((await rotated.getByLabel("Signing secret").textContent()) ?? "").trim();
  expect(newSecret).toMatch(/^whsec_/);
  expect(newSecret).not.toBe(secret);
  await shot(page, "integrations-rotated-1440");
  await rotated.getByRole("button", { name: "Done" }).click();
  await expect(card).toContainText("The previous signing secret also signs until");
  await card.getByRole("button", { name: "Send test event" }).click();
  await expect.poll(() => received.filter((r) => r.event.type === "webhook.test").length).toBe(2);
  const afterRotation = received.filter((r) => r.event.type === "webhook.test")[1]!;
  expect(String(afterRotation.headers["webhook-signature"]).split(" ")).toHaveLength(2);
  expect(signedBy(afterRotation, newSecret)).toBe(true);
  expect(signedBy(afterRotation, secret)).toBe(true);
  await expect(logRows(page, "webhook.test")).toHaveCount(2, { timeout: 15_000 });

  // The screen at desktop, tablet and phone widths, with endpoints and a log.
  for (const width of [1440, 768, 390]) {
    await page.setViewportSize({ width, height: width === 390 ? 844 : 900 });
    await expect(logRows(page, "lead.created")).toHaveCount(2);
    await settled(page);
    await checkScreen(page, "integrations");
  }

  // The form at phone width.
  await card.getByRole("button", { name: "Edit" }).click();
  const edit = page.getByRole("dialog", { name: "Edit endpoint" });
  await expect(edit.getByLabel("Endpoint URL")).toHaveValue(hook);
  await settled(page);
  await page.screenshot({ path: "e2e-screenshots/6x-integrations-edit-390.png" });
  await edit.getByRole("switch", { name: "Enabled" }).click();
  await edit.getByRole("button", { name: "Save changes" }).click();
  await expect(card.getByText("Disabled", { exact: true })).toBeVisible();

  // Deleting asks first, then the endpoint and its log are gone.
  await card.getByRole("button", { name: "Delete Kesar CRM" }).click();
  await page
    .getByRole("dialog", { name: "Delete this endpoint?" })
    .getByRole("button", { name: "Delete endpoint" })
    .click();
  await expect(page.getByText("No endpoints yet")).toBeVisible();
  await expect(page.getByText("No deliveries yet")).toBeVisible();
});

test("a Mailchimp audience is set up with the server checking its key", async ({ page }) => {
  await signIn(page);
  await page.goto("/settings/integrations");
  await page.getByRole("button", { name: "Connect Mailchimp" }).click();
  const form = page.getByRole("dialog", { name: "Connect a Mailchimp audience" });
  await expect(form.getByRole("checkbox")).toHaveCount(2);
  await form.getByLabel("Mailchimp API key").fill("not-a-key!");
  await form.getByLabel("Audience ID").fill("a1b2c3d4e5");
  await form.getByRole("button", { name: "Connect" }).click();
  await expect(
    form.getByText("A Mailchimp API key ends with its data centre, like …-us21"),
  ).toBeVisible();
  await form.getByLabel("Mailchimp API key").fill("0123456789abcdef0123456789abcdef-us21");
  await form.getByRole("button", { name: "Connect" }).click();
  await expect(page.getByRole("status")).toContainText("was connected");
  const card = page.getByRole("listitem", { name: "Mailchimp audience a1b2c3d4e5" });
  await expect(card.getByText("Mailchimp", { exact: true })).toBeVisible();
  await expect(card).toContainText("lead.created");
  await expect(card).toContainText("lead.updated");
  // A Mailchimp push has no signing secret.
  await expect(card.getByRole("button", { name: "Rotate secret" })).toHaveCount(0);
  await page.setViewportSize({ width: 390, height: 844 });
  await settled(page);
  await checkScreen(page, "integrations-mailchimp");
});
