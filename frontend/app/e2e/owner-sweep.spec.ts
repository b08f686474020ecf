import { expect, test, type Locator, type Page } from "@playwright/test";
import { expectAccessible, expectFits, settled } from "./a11y";
import { DEMO_OWNER, startDemoServer, type DemoServer } from "./demo-server";
import { loginThroughForm, shot } from "./support";

/**
 * Every owner page, with the demo owner's month of data on it (not the empty states), at every
 * width from a small phone to a desktop: nothing reaches past the element it sits in, no label
 * is cut, the page never scrolls sideways, and axe-core finds nothing serious at a phone, a tablet
 * and a desktop width. One browser context per width, every page visited in it.
 */
const WIDTHS = [360, 390, 768, 1024, 1280, 1440] as const;
/** Where axe runs and screenshots are taken (the others only check the layout). */
const LOOKED_AT = new Set<number>([390, 768, 1440]);
/** Below this the sidebar folds into a drawer behind the burger. */
const DRAWER_BELOW = 768;

let server: DemoServer | undefined;
/**
 * The demo payment page as the owner saw it when buying Basic (the address the server's checkout
 * gives; it offers the demo owner nothing more to buy: Beta is by invitation, Enterprise through
 * sales). Nothing is paid until Complete Payment.
 */
const CHECKOUT = "/mock-payment?planId=basic&planName=Basic&price=999";
/** Whether the first width has given the Integrations tab its endpoint. */
let prepared = false;
/** Addresses of one of each: found by following the pages' own links at the first width. */
const found = { campaign: "", conversation: "", invoice: "" };

test.beforeAll(async () => {
  server = await startDemoServer();
});

test.afterAll(() => {
  server?.stop();
});

/** Layout at every width; screenshot and axe at the widths looked at. */
async function check(page: Page, screen: string) {
  await settled(page);
  const width = page.viewportSize()?.width ?? 0;
  await expectFits(page, `${screen} at ${width}px`, { containers: true });
  if (LOOKED_AT.has(width)) {
    await shot(page, `sweep-${screen}-${width}`);
    await expectAccessible(page, `${screen} at ${width}px`);
  }
}

async function visit(page: Page, path: string, ready: Locator) {
  await page.goto(path);
  await expect(ready).toBeVisible();
}

/** Gives the Integrations tab something to list: a webhook endpoint and one test delivery. */
async function addEndpoint(page: Page) {
  const token = await page.evaluate(() => localStorage.getItem("token"));
  const headers = { Authorization: `Bearer ${token}` };
  const made = await page.request.post("/api/webhooks/endpoints", {
    headers,
    data: {
      url: "https://crm.kesar-handlooms.example.in/hooks/convertassist/leads",
      description: "Leads into the shop's CRM",
      eventTypes: ["lead.created", "lead.updated", "purchase.attributed"],
    },
  });
  expect(made.ok(), await made.text()).toBe(true);
  const body = (await made.json()) as { data: { id: string } };
  const sent = await page.request.post(`/api/webhooks/endpoints/${body.data.id}/test`, { headers });
  expect(sent.ok(), await sent.text()).toBe(true);
}

for (const width of WIDTHS) {
  test(`every owner page with the demo data fits at ${width}px`, async ({ browser }) => {
    test.setTimeout(240_000);
    const context = await browser.newContext({
      baseURL: server?.base,
      viewport: { width, height: width < DRAWER_BELOW ? 844 : 900 },
    });
    const page = await context.newPage();
    await loginThroughForm(page, DEMO_OWNER, server?.password);
    await page.waitForURL("**/dashboard");

    if (!prepared) {
      await addEndpoint(page);
      prepared = true;
    }

    // Overview.
    await visit(
      page,
      "/dashboard",
      page.getByText("Demo: Exit offer").filter({ visible: true }).first(),
    );
    await check(page, "dashboard");
    if (width < DRAWER_BELOW) {
      await page.getByRole("button", { name: "Open navigation" }).click();
      await expect(page.getByRole("dialog")).toBeVisible();
      await check(page, "navigation-drawer");
      await page.keyboard.press("Escape");
      await expect(page.getByRole("dialog")).toHaveCount(0);
    }

    // Campaigns, one campaign's editor tab by tab, and the creation wizard step by step.
    await visit(
      page,
      "/campaigns",
      page.getByText("Demo: Exit offer").filter({ visible: true }).first(),
    );
    await check(page, "campaigns");
    if (!found.campaign) {
      found.campaign =
        (await page.getByRole("link", { name: "Edit campaign" }).first().getAttribute("href")) ??
        "";
    }
    await visit(page, found.campaign, page.getByRole("tab", { name: "Basic Settings" }));
    for (const tab of [
      "Basic Settings",
      "Popup Design",
      "Targeting",
      "AI Settings",
      "Conversion Forms",
    ]) {
      await page.getByRole("tab", { name: tab }).click();
      await expect(page.getByRole("tab", { name: tab })).toHaveAttribute("aria-selected", "true");
      await check(page, `campaign-edit-${tab.toLowerCase().replace(/ /g, "-")}`);
    }
    await visit(page, "/campaigns/create", page.getByRole("tablist", { name: "Wizard steps" }));
    const steps = page.getByRole("tablist", { name: "Wizard steps" }).getByRole("tab");
    for (let i = 0; i < (await steps.count()); i += 1) {
      await steps.nth(i).click();
      await expect(steps.nth(i)).toHaveAttribute("aria-selected", "true");
      await check(page, `campaign-create-step-${i + 1}`);
    }

    // Customers, and one customer's dialog.
    const view = page.getByRole("button", { name: /^View / }).filter({ visible: true });
    await visit(page, "/customers", view.first());
    await check(page, "customers");
    await view.first().click();
    await expect(page.getByRole("dialog")).toBeVisible();
    await check(page, "customer-dialog");
    await page.keyboard.press("Escape");

    // Conversations, and one conversation open.
    await visit(page, "/conversations", page.getByTestId("conversation-item").first());
    await check(page, "conversations");
    if (!found.conversation) {
      // A converted one: the visitor's details are filled in.
      found.conversation =
        (await page
          .getByTestId("conversation-item")
          .filter({ hasText: "Converted" })
          .first()
          .getAttribute("href")) ?? "";
    }
    await visit(page, found.conversation, page.getByTestId("message").first());
    await check(page, "conversation-detail");

    // Billing: the overview, the payment history, an invoice, the plans, the demo payment.
    await visit(page, "/billing", page.getByText(/Basic/).first());
    await check(page, "billing");
    await visit(page, "/billing/history", page.getByRole("link", { name: /Invoice/ }).first());
    await check(page, "billing-history");
    if (!found.invoice) {
      found.invoice =
        (await page
          .getByRole("link", { name: /Invoice/ })
          .first()
          .getAttribute("href")) ?? "";
    }
    await visit(page, found.invoice, page.getByText("TAX INVOICE"));
    await check(page, "invoice");
    await visit(page, "/settings/billing", page.getByRole("button", { name: "Current Plan" }));
    await check(page, "settings-billing");
    await visit(page, CHECKOUT, page.getByRole("button", { name: "Complete Payment" }));
    await check(page, "mock-payment");

    // Settings, tab by tab, and two-factor sign-in.
    await visit(page, "/settings", page.getByRole("tab", { name: "Account" }));
    for (const tab of ["Account", "Appearance", "Notifications", "Security", "Integrations"]) {
      await page.getByRole("tab", { name: tab }).click();
      await expect(page.getByRole("tab", { name: tab })).toHaveAttribute("aria-selected", "true");
      if (tab === "Integrations")
        await expect(page.getByText("Leads into the shop's CRM").first()).toBeVisible();
      await check(page, `settings-${tab.toLowerCase()}`);
    }
    await visit(
      page,
      "/account/two-factor",
      page.getByRole("button", { name: /Set up two-factor sign-in/ }),
    );
    await check(page, "two-factor");

    // An address that is not a page, inside the shell.
    await visit(page, "/no-such-page", page.getByRole("link", { name: "Go back home" }));
    await check(page, "not-found");

    await context.close();
  });
}
