import { expect, test, type Page, type Response } from "@playwright/test";
import { expectAccessible } from "./a11y";
import { PASSWORD, registerThroughForm, shot, uniqueEmail } from "./support";

// The budgets of scripts/check-budget.mjs, as the browser sees them (bytes on the wire).
const KB = 1024;
const HOME_BUDGET = 100 * KB;
const LOGIN_BUDGET = 100 * KB;

const WIDTHS = [1440, 768, 375];

for (const width of WIDTHS) {
  test(`landing and sign-in pages at ${width} px`, async ({ page }) => {
    await page.setViewportSize({ width, height: 900 });
    await page.goto("/home");
    await expect(
      page.getByRole("heading", { name: /Turn visitors who are about to leave/ }),
    ).toBeVisible();
    await expect(page.getByRole("heading", { name: "Simple pricing" })).toBeVisible();
    await shot(page, `70-home-${width}`);
    await expectAccessible(page, `home-${width}`);

    await page.goto("/login");
    await expect(page.getByRole("heading", { name: "Welcome back" })).toBeVisible();
    await expect(page.getByLabel("Email")).toBeVisible();
    await shot(page, `71-login-${width}`);
    await expectAccessible(page, `login-${width}`);
  });
}

interface Script {
  url: string;
  bytes: number;
  phase: string;
}

/** Records every script the page downloads, with its size on the wire, under the current phase. */
function recordScripts(page: Page) {
  const scripts: Script[] = [];
  const pending: Promise<void>[] = [];
  let phase = "";
  page.on("response", (res: Response) => {
    if (res.request().resourceType() !== "script") return;
    const at = phase;
    pending.push(
      res
        .request()
        .sizes()
        .then((s) => {
          scripts.push({ url: new URL(res.url()).pathname, bytes: s.responseBodySize, phase: at });
        }),
    );
  });
  return {
    start(name: string) {
      phase = name;
    },
    async in(name: string) {
      await Promise.all(pending);
      const list = scripts.filter((s) => s.phase === name);
      return { list, bytes: list.reduce((sum, s) => sum + s.bytes, 0) };
    },
  };
}

const appChunk = /\/assets\/(DashboardPage|AppLayout)-[^/]+\.js$/;
/** The dashboard's entry chunk (React, React Router, Mantine's provider). */
const dashboardEntry = /\/assets\/index-[^/]+\.js$/;

test("the landing page downloads none of the app; signing in loads the dashboard", async ({
  browser,
}) => {
  const email = uniqueEmail("landing");
  const setup = await browser.newContext();
  await registerThroughForm(await setup.newPage(), email);
  await setup.close();

  // A fresh browser: nothing cached, so every script shows up on the wire.
  const context = await browser.newContext();
  const page = await context.newPage();
  const scripts = recordScripts(page);

  scripts.start("home");
  await page.goto("/home");
  await page.waitForLoadState("networkidle");
  const home = await scripts.in("home");
  expect(home.bytes, JSON.stringify(home.list)).toBeLessThanOrEqual(HOME_BUDGET);
  expect(home.list.filter((s) => appChunk.test(s.url))).toEqual([]);

  scripts.start("login");
  await page.getByRole("link", { name: "Login" }).click();
  await expect(page.getByRole("heading", { name: "Welcome back" })).toBeVisible();
  await page.waitForLoadState("networkidle");
  const login = await scripts.in("login");
  // The sign-in build's own entry (vite.signin.config.ts), not the dashboard's React one.
  expect(login.list.some((s) => /\/assets\/login-[^/]+\.js$/.test(s.url))).toBe(true);
  expect(login.bytes, JSON.stringify(login.list)).toBeLessThanOrEqual(LOGIN_BUDGET);
  expect(login.list.filter((s) => appChunk.test(s.url) || dashboardEntry.test(s.url))).toEqual([]);

  scripts.start("dashboard");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel(/^Password/).fill(PASSWORD);
  await page.getByRole("button", { name: "Sign in" }).click();
  await page.waitForURL("**/dashboard");
  await expect(page.getByRole("heading", { name: "Dashboard" })).toBeVisible();
  const dashboard = await scripts.in("dashboard");
  const loaded = dashboard.list.map((s) => s.url);
  expect(loaded.filter((u) => appChunk.test(u))).toHaveLength(2);
  console.log(
    `scripts on the wire: /home ${home.list.length} (${home.bytes} B), /login ${login.list.length} ` +
      `(${login.bytes} B), then /dashboard ${dashboard.list.length} more (${dashboard.bytes} B)`,
  );
  await context.close();
});

test("a page whose code fails to load offers a reload", async ({ browser }) => {
  const email = uniqueEmail("chunk");
  const context = await browser.newContext();
  const page = await context.newPage();
  await registerThroughForm(page, email);

  // As after a deploy that removed the chunk this tab asks for.
  await page.route(/\/assets\/CampaignsPage-[^/]+\.js$/, (route) => route.abort());
  await page.getByRole("link", { name: "Campaigns" }).first().click();

  const alert = page.getByRole("alert");
  await expect(alert.getByRole("heading", { name: "This page could not be loaded" })).toBeVisible();
  await shot(page, "72-chunk-load-failed");
  await expectAccessible(page, "chunk-load-failed");

  await page.unroute(/\/assets\/CampaignsPage-[^/]+\.js$/);
  await alert.getByRole("button", { name: "Reload" }).click();
  await expect(page.getByRole("heading", { name: "Your campaigns" })).toBeVisible();
  await context.close();
});
