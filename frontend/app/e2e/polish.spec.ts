import { expect, test, type APIRequestContext, type Page } from "@playwright/test";
import { expectAccessible, expectFits, settled } from "./a11y";
import { shot, uniqueEmail } from "./support";

/**
 * The owner's screens at desktop, tablet and phone widths: one title per page, the same width
 * for every page, usage bars coloured by meaning, customers as cards on phones, a compact
 * conversation on phones, and the failures that must read as the product's own.
 */

const WIDTHS = [1440, 768, 375] as const;
const LONG_URL =
  "https://kesar-handlooms.example.in/collections/banarasi-silk-sarees/products/pure-katan-silk-saree-with-zari-border?variant=4412&utm_source=newsletter";
const LONG_EMAIL = "meenakshi.subramanian.handloom-orders@kesar-handlooms.example.in";

/** A new owner signed in through the API (no form), with their token in the page. */
async function signIn(page: Page): Promise<string> {
  const res = await page.request.post("/api/auth/register", {
    data: {
      name: "Meenakshi Subramanian",
      email: uniqueEmail("polish"),
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

/** A visitor's chat of 1 + 2 × `questions` messages that left a long email on a long URL. */
async function longChat(request: APIRequestContext, campaignId: string, questions: number) {
  const start = await request.post("/api/widget/conversations", {
    data: {
      campaignId,
      visitorId: `v_polish_${Date.now()}`,
      userContext: { deviceType: "mobile", currentUrl: LONG_URL },
    },
  });
  expect(start.status(), await start.text()).toBe(201);
  const id = (await start.json()).conversationId as string;
  for (let i = 1; i <= questions; i++) {
    const r = await request.post(`/api/widget/conversations/${id}/messages`, {
      data: { message: `Question ${i}: is the zari border hand-woven?` },
    });
    expect(r.status(), await r.text()).toBe(200);
  }
  const form = await request.post(`/api/widget/conversations/${id}/forms`, {
    data: { values: { name: "Meenakshi Subramanian", email: LONG_EMAIL } },
  });
  expect(form.status(), await form.text()).toBe(200);
  return id;
}

/** Where the page's own content sits inside the shell's page box. */
async function contentBox(page: Page) {
  return page.evaluate(() => {
    const box = document.querySelector("[data-testid=page]");
    const first = box?.firstElementChild;
    if (!box || !first) return null;
    const b = box.getBoundingClientRect();
    const c = first.getBoundingClientRect();
    return { left: Math.round(c.left - b.left), right: Math.round(b.right - c.right) };
  });
}

test("each page names itself once, and every page uses the same width", async ({ page }) => {
  await signIn(page);
  const pages = [
    { path: "/dashboard", ready: page.getByText(/Welcome back/) },
    { path: "/campaigns", ready: page.getByRole("heading", { name: "Your campaigns" }) },
    { path: "/customers", ready: page.getByText("Customer Database") },
    { path: "/conversations", ready: page.getByText("No conversations yet.") },
    { path: "/billing", ready: page.getByRole("heading", { name: "Plans" }) },
    { path: "/settings/billing", ready: page.getByRole("heading", { name: "Plans" }) },
    { path: "/settings", ready: page.getByRole("tab", { name: "Account" }) },
  ];
  // 1920 too: there the page box stops growing, and pages used to stop at widths of their own.
  for (const width of [1920, ...WIDTHS]) {
    await page.setViewportSize({ width, height: 900 });
    const boxes: Record<string, unknown> = {};
    for (const p of pages) {
      await page.goto(p.path);
      await expect(p.ready).toBeVisible();
      boxes[p.path] = await contentBox(page);
      const title = (await page.getByRole("banner").getByRole("heading").textContent()) ?? "";
      // The shell's header is the page's title; the page does not say it again.
      await expect(page.getByRole("heading", { name: title, exact: true })).toHaveCount(1);
      await expect(page.getByRole("main").getByText(title, { exact: true })).toHaveCount(0);
    }
    // Every page's content starts at the same place and reaches as far as the others'.
    const first = boxes["/dashboard"];
    for (const p of pages) expect(boxes[p.path], `${p.path} at ${width}px`).toEqual(first);
    await page.goto("/settings");
    await shot(page, `100-settings-${width}`);
    await page.goto("/customers");
    await expect(page.getByText("Customer Database")).toBeVisible();
    await shot(page, `100-customers-empty-${width}`);
  }
});

test("usage bars say a full plan calmly and show a little use", async ({ page }) => {
  const token = await signIn(page);
  await createCampaign(page.request, token);
  await page.goto("/billing");
  const campaigns = page.getByTestId("usage-campaigns");
  const visitors = page.getByTestId("usage-visitors");
  await expect(campaigns).toContainText("1 / 1");
  await expect(campaigns).toHaveAttribute("data-level", "full");
  await expect(campaigns).toContainText("Plan limit reached.");
  const bar = (meter: typeof campaigns) =>
    meter.locator(".mantine-Progress-section").evaluate((el) => ({
      width: el.getBoundingClientRect().width,
      color: getComputedStyle(el).backgroundColor,
    }));
  // Full is yellow, not the red of an error.
  const full = await bar(campaigns);
  expect(full.color).not.toMatch(/rgb\(250, 82, 82\)|rgb\(224, 49, 49\)|rgb\(201, 42, 42\)/);
  await campaigns.getByRole("button", { name: "Upgrade for More" }).click();
  await expect(page.getByRole("heading", { name: "Plans" })).toBeInViewport();

  // A few visitors of a large allowance still draw a visible sliver.
  await page.route("**/api/billing/usage", async (route) => {
    const response = await route.fetch();
    const body = await response.json();
    body.data.visitors = { ...body.data.visitors, current: 38, limit: 10_000 };
    await route.fulfill({ response, json: body });
  });
  for (const width of WIDTHS) {
    await page.setViewportSize({ width, height: 900 });
    await page.goto("/billing");
    await expect(visitors).toContainText("38 / 10,000");
    const sliver = await bar(visitors);
    expect(sliver.width).toBeGreaterThanOrEqual(4);
    await expect(visitors.getByRole("progressbar")).toHaveAttribute("aria-valuenow", "0");
    await page.getByTestId("usage-campaigns").scrollIntoViewIfNeeded();
    await shot(page, `101-billing-usage-${width}`);
    await expectFits(page, `billing usage at ${width}px`);
  }
});

test("a failed customer overview says so and tries again; plans that never arrive say the product's words", async ({
  page,
}) => {
  await signIn(page);
  let failing = true;
  await page.route("**/api/customers/analytics/overview**", (route) =>
    failing
      ? route.fulfill({ status: 500, json: { success: false, message: "boom", code: "internal" } })
      : route.fallback(),
  );
  await page.goto("/customers");
  const error = page.getByTestId("overview-error");
  await expect(error).toContainText("Failed to load the customer overview. Please try again.");
  await expectAccessible(page, "customers-overview-error");
  await shot(page, "102-customers-overview-error");
  failing = false;
  await error.getByRole("button", { name: "Try Again" }).click();
  await expect(error).toHaveCount(0);
  await expect(page.getByText("Total Customers", { exact: true })).toBeVisible();

  await page.route("**/api/billing/plans", (route) => route.abort("internetdisconnected"));
  await page.goto("/billing");
  await expect(page.getByRole("alert").filter({ hasText: "Failed to fetch plans" })).toBeVisible();
  await expect(page.getByText("Failed to fetch", { exact: true })).toHaveCount(0);
  await shot(page, "102-billing-plans-offline");
});

test("customers as cards on phones, the conversation compact, older messages with a loader", async ({
  page,
}) => {
  test.setTimeout(120_000);
  const token = await signIn(page);
  const campaignId = await createCampaign(page.request, token);
  await longChat(page.request, campaignId, 15);

  // Customers: a table from 1200 px, cards below it, status and View always in sight.
  for (const width of WIDTHS) {
    await page.setViewportSize({ width, height: 900 });
    await page.goto("/customers");
    const view = page.getByRole("button", { name: `View ${LONG_EMAIL}` });
    await expect(view).toBeVisible();
    const card = page.getByTestId("customer-card");
    if (width < 1200) await expect(card).toBeVisible();
    else await expect(card).toBeHidden();
    const holder =
      width < 1200
        ? page.getByTestId("customer-card")
        : page.getByRole("row").filter({ hasText: LONG_EMAIL });
    const lead = holder.getByText("Lead", { exact: true });
    await expect(lead).toBeVisible();
    for (const el of [view, lead]) {
      const box = (await el.boundingBox())!;
      expect(box.x + box.width).toBeLessThanOrEqual(width);
    }
    await shot(page, `103-customers-${width}`);
    await expectFits(page, `customers at ${width}px`);
    await expectAccessible(page, `customers-with-lead at ${width}px`);
  }

  // The conversation: the details fold away on phones, long addresses wrap at their separators.
  for (const width of WIDTHS) {
    await page.setViewportSize({ width, height: 800 });
    await page.goto("/conversations");
    await page.getByTestId("conversation-item").first().click();
    const messages = page.getByTestId("messages");
    await expect(page.getByTestId("message")).toHaveCount(20);
    const toggle = page.getByRole("button", { name: "Visitor details" });
    if (width < 768) {
      await expect(toggle).toHaveAttribute("aria-expanded", "false");
      await expect(page.getByText(LONG_URL)).toBeHidden();
      await shot(page, `104-conversation-${width}-folded`);
      await toggle.click();
      await expect(toggle).toHaveAttribute("aria-expanded", "true");
    } else {
      await expect(toggle).toHaveCount(0);
    }
    const url = page.getByTitle(LONG_URL);
    await expect(url).toBeVisible();
    await expect(page.getByRole("main").getByTitle(LONG_EMAIL).last()).toBeVisible();
    await settled(page);
    await shot(page, `104-conversation-${width}`);
    await expectFits(page, `conversation at ${width}px`);
    await expectAccessible(page, `conversation-details at ${width}px`);

    // Older messages: a loader in sight while they come; the scroll-to-top button covers nothing.
    await messages.evaluate((el) => el.scrollTo({ top: 20 }));
    await expect(
      page.getByRole("status").filter({ hasText: "Loading older messages" }),
    ).toBeVisible();
    await expect.poll(() => page.getByTestId("message").count()).toBeGreaterThan(20);
    await expect(
      page.getByRole("status").filter({ hasText: "Loading older messages" }),
    ).toHaveCount(0);
    await messages.evaluate((el) => el.scrollTo({ top: el.scrollHeight }));
    const top = page.getByRole("button", { name: "Scroll to top" });
    await expect(top).toBeVisible();
    const button = (await top.boundingBox())!;
    const pane = (await messages.boundingBox())!;
    expect(button.y + button.height <= pane.y || button.y >= pane.y + pane.height).toBe(true);
    await shot(page, `105-conversation-scrolled-${width}`);
    await top.click();
    await expect.poll(() => messages.evaluate((el) => el.scrollTop)).toBeLessThan(5);
  }
});
