import { expect, test, type APIRequestContext, type Page } from "@playwright/test";
import { expectAccessible, expectFits, settled } from "./a11y";
import { PASSWORD, shot, uniqueEmail } from "./support";

/**
 * The owner's screens telling the truth: a lost session on the billing screen asks to sign in
 * and comes back; "Payment successful" only after a real payment; a deep link survives signing
 * in; a customer's dialog leads to their conversations, email and phone; the conversations
 * screen fits a tablet.
 */

const WIDTHS = [1440, 768, 390] as const;
const VISITOR_EMAIL = "meera.iyer@kesar-handlooms.example.in";
const VISITOR_PHONE = "+91 98290 12345";

/** A new owner signed in through the API, with their token in the page. */
async function signUp(page: Page, email: string): Promise<string> {
  const res = await page.request.post("/api/auth/register", {
    data: { name: "Meera Iyer", email, password: PASSWORD, phone: "9876543210" },
  });
  expect(res.status()).toBe(201);
  const token = (await res.json()).token as string;
  await page.goto("/login");
  await page.evaluate((t) => localStorage.setItem("token", t), token);
  return token;
}

async function signInWithForm(page: Page, email: string) {
  await page.getByLabel("Email").fill(email);
  await page.getByLabel(/^Password/).fill(PASSWORD);
  await page.getByRole("button", { name: "Sign in" }).click();
}

/** Pays for Basic through the demo payment page; ends on /settings/billing?success=true. */
async function payForBasic(page: Page) {
  const checkoutUrl = await page.evaluate(async () => {
    const response = await fetch("/api/billing/checkout", {
      method: "POST",
      headers: {
        "Content-Type": "application/json",
        Authorization: `Bearer ${localStorage.getItem("token") ?? ""}`,
      },
      body: JSON.stringify({ planId: "basic" }),
    });
    return ((await response.json()) as { data: { checkoutUrl: string } }).data.checkoutUrl;
  });
  await page.goto(checkoutUrl);
  await page.getByRole("button", { name: "Complete Payment" }).click();
  await page.waitForURL("**/settings/billing?success=true", { timeout: 10_000 });
}

/** A campaign whose form asks for name, email and phone. */
async function createCampaign(request: APIRequestContext, token: string): Promise<string> {
  const res = await request.post("/api/campaigns", {
    headers: { authorization: `Bearer ${token}` },
    data: {
      name: "Kesar exit offer",
      websiteUrl: "https://kesar-handlooms.example.in",
      settings: {
        forms: {
          conversionForms: [
            {
              id: "callback",
              name: "Call me back",
              type: "custom",
              title: "We'll call you",
              buttonText: "Call me",
              successMessage: "We will call you soon",
              triggerKeywords: ["call"],
              fields: [
                { name: "name", label: "Name", type: "text", required: false },
                { name: "email", label: "Email", type: "email", required: true },
                { name: "phone", label: "Phone", type: "phone", required: false },
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

/** A visitor's chat that leaves their name, email and phone. */
async function chat(request: APIRequestContext, campaignId: string, visitor: string) {
  const start = await request.post("/api/widget/conversations", {
    data: {
      campaignId,
      visitorId: visitor,
      userContext: { deviceType: "desktop", currentUrl: "https://kesar-handlooms.example.in/" },
    },
  });
  expect(start.status(), await start.text()).toBe(201);
  const id = (await start.json()).conversationId as string;
  for (let i = 1; i <= 3; i++) {
    const r = await request.post(`/api/widget/conversations/${id}/messages`, {
      data: { message: `Question ${i}: is the zari border hand-woven?` },
    });
    expect(r.status(), await r.text()).toBe(200);
  }
  return id;
}

test("a lost session on billing asks to sign in and comes back; thanks only for a real payment", async ({
  page,
}) => {
  test.setTimeout(120_000);
  const email = uniqueEmail("honest-billing");
  await signUp(page, email);

  // Typing the success address proves nothing: no payment, no thanks.
  await page.goto("/settings/billing?success=true");
  await expect(page.getByRole("button", { name: "Current Plan" })).toBeVisible();
  await page.waitForLoadState("networkidle");
  await expect(page.getByText("Payment successful")).toHaveCount(0);
  await shot(page, "120-settings-billing-typed-success");

  // After a real payment it thanks the owner…
  await payForBasic(page);
  await expect(page.getByRole("status").filter({ hasText: "Payment successful" })).toContainText(
    "Your plan is active",
  );
  for (const width of WIDTHS) {
    await page.setViewportSize({ width, height: 900 });
    await shot(page, `121-settings-billing-paid-${width}`);
  }
  await page.setViewportSize({ width: 1440, height: 900 });

  // …and an hour later the same address no longer does.
  await page.clock.install({ time: Date.now() + 2 * 60 * 60 * 1000 });
  await page.goto("/settings/billing?success=true");
  await expect(page.getByRole("button", { name: "Current Plan" })).toBeVisible();
  await page.waitForLoadState("networkidle");
  await expect(page.getByText("Payment successful")).toHaveCount(0);

  // The billing page with a payment in it passes axe (its list holds payments only).
  await page.goto("/billing");
  await expect(page.getByTestId("recent-transactions").getByRole("listitem")).toHaveCount(1);
  await expectAccessible(page, "billing-with-transactions");

  // The usage call answers 401: the owner stays, is told to log in again, and comes back.
  await page.route("**/api/billing/usage", (route) =>
    route.fulfill({
      status: 401,
      json: {
        success: false,
        message: "Your session has expired. Please sign in again.",
        code: "invalid_token",
      },
    }),
  );
  for (const width of WIDTHS) {
    await page.setViewportSize({ width, height: 900 });
    await page.goto("/billing");
    await expect(page.getByText("Please log in again to view billing information.")).toBeVisible();
    await expect(page).toHaveURL(/\/billing$/);
    await shot(page, `122-billing-usage-401-${width}`);
    await expectFits(page, `billing usage 401 at ${width}px`);
  }
  expect(await page.evaluate(() => localStorage.getItem("token"))).not.toBeNull();
  await expectAccessible(page, "billing-usage-401");
  const signIn = page.getByRole("link", { name: "Sign in again" });
  await expect(signIn).toHaveAttribute("href", "/login?next=%2Fbilling");
  await page.unroute("**/api/billing/usage");
  await signIn.click();
  await page.waitForURL("**/login?next=%2Fbilling");
  await signInWithForm(page, email);
  await page.waitForURL(/\/billing$/);
  await expect(page.getByText("Visitors this month")).toBeVisible();
});

test("signing in after a deep link opens the page asked for, never another site", async ({
  page,
}) => {
  test.setTimeout(90_000);
  const email = uniqueEmail("honest-deeplink");
  await signUp(page, email);
  await payForBasic(page);
  const txnid = await page.evaluate(async () => {
    const response = await fetch("/api/payment/history", {
      headers: { Authorization: `Bearer ${localStorage.getItem("token") ?? ""}` },
    });
    return ((await response.json()) as { data: { txnid: string }[] }).data[0]!.txnid;
  });

  // Signed out, the invoice's address asks to sign in, then shows the invoice.
  await page.evaluate(() => localStorage.removeItem("token"));
  for (const width of WIDTHS) {
    await page.setViewportSize({ width, height: 900 });
    await page.goto(`/billing/invoice/${txnid}`);
    await page.waitForURL(`**/login?next=${encodeURIComponent(`/billing/invoice/${txnid}`)}`);
    await shot(page, `123-login-with-next-${width}`);
  }
  await signInWithForm(page, email);
  await page.waitForURL(`**/billing/invoice/${txnid}`);
  await expect(page.getByText(txnid).first()).toBeVisible();
  await shot(page, "124-invoice-after-sign-in");

  // A `next` that leads elsewhere is ignored: the dashboard opens.
  const own = new URL(page.url()).host;
  for (const next of ["//evil.com", "https://evil.com/", "/\\evil.com"]) {
    await page.goto(`/login?next=${encodeURIComponent(next)}`);
    await signInWithForm(page, email);
    await page.waitForURL("**/dashboard");
    expect(new URL(page.url()).host).toBe(own);
  }
});

test("a customer leads to their conversations, email and phone; conversations fit a tablet", async ({
  page,
}) => {
  test.setTimeout(120_000);
  const token = await signUp(page, uniqueEmail("honest-customers"));
  const campaignId = await createCampaign(page.request, token);
  const first = await chat(page.request, campaignId, `v_honest_${Date.now()}`);
  const form = await page.request.post(`/api/widget/conversations/${first}/forms`, {
    data: {
      formId: "callback",
      values: { name: "Meera Iyer", email: VISITOR_EMAIL, phone: VISITOR_PHONE },
    },
  });
  expect(form.status(), await form.text()).toBe(200);
  // Another visitor's chat, not this customer's.
  await chat(page.request, campaignId, `v_other_${Date.now()}`);

  for (const width of WIDTHS) {
    await page.setViewportSize({ width, height: 900 });
    await page.goto("/customers");
    // Last active today, with the time of day.
    const holder =
      width < 1200
        ? page.getByTestId("customer-card")
        : page.getByRole("row").filter({ hasText: VISITOR_EMAIL });
    await expect(holder.getByText(/Today, \d{2}:\d{2}/)).toBeVisible();
    await page.getByRole("button", { name: `View ${VISITOR_EMAIL}` }).click();
    const dialog = page.getByRole("dialog");
    await expect(dialog.getByRole("link", { name: VISITOR_EMAIL })).toHaveAttribute(
      "href",
      `mailto:${VISITOR_EMAIL}`,
    );
    await expect(dialog.getByRole("link", { name: VISITOR_PHONE })).toHaveAttribute(
      "href",
      "tel:+919829012345",
    );
    await settled(page);
    await shot(page, `125-customer-dialog-${width}`);
    await expectAccessible(page, `customer-dialog at ${width}px`);
    await dialog.getByRole("link", { name: "View conversations" }).click();
    await page.waitForURL(`**/conversations?search=${encodeURIComponent(VISITOR_EMAIL)}`);
    await expect(page.getByTestId("conversation-search")).toContainText(VISITOR_EMAIL);
    await expect(page.getByTestId("conversation-item")).toHaveCount(1);
    await expect(page.getByTestId("conversation-item")).toContainText("Meera Iyer");
    await shot(page, `126-customer-conversations-${width}`);
  }

  // The CSV: the phone as it is, dates to the second.
  const csv = await page.evaluate(async () => {
    const response = await fetch("/api/customers/export/data?format=csv", {
      headers: { Authorization: `Bearer ${localStorage.getItem("token") ?? ""}` },
    });
    return response.text();
  });
  const row = csv.split("\n").find((l) => l.includes(VISITOR_EMAIL)) ?? "";
  expect(row).toContain(`,${VISITOR_PHONE},`);
  expect(row).toMatch(
    /,\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z,\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z,/,
  );

  // The conversations screen: nothing cut at any width, the time filter whole, the messages wide.
  for (const width of WIDTHS) {
    await page.setViewportSize({ width, height: 900 });
    await page.goto("/conversations");
    const filter = page.getByRole("radiogroup", { name: "Time filter" });
    await expect(filter.getByText("30 Days")).toBeVisible();
    const fits = await filter.evaluate((el) => el.scrollWidth <= el.clientWidth + 1);
    expect(fits, `time filter at ${width}px`).toBe(true);
    const lastOption = (await filter.getByText("30 Days").boundingBox())!;
    const box = (await filter.boundingBox())!;
    expect(lastOption.x + lastOption.width).toBeLessThanOrEqual(box.x + box.width + 1);
    await expectFits(page, `conversations at ${width}px`);
    await shot(page, `127-conversations-${width}`);

    await page.getByTestId("conversation-item").first().click();
    const messages = page.getByTestId("messages");
    await expect(page.getByTestId("message").first()).toBeVisible();
    const pane = (await messages.boundingBox())!;
    // The messages take most of the content's width, never a strip beside the list.
    expect(pane.width, `messages at ${width}px`).toBeGreaterThanOrEqual(
      Math.min(width - 60, 420) * 0.8,
    );
    await settled(page);
    await expectFits(page, `conversation at ${width}px`);
    await shot(page, `128-conversation-${width}`);
  }
});
