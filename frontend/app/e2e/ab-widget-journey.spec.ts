import { expect, test, type APIRequestContext, type Browser, type Page } from "@playwright/test";
import config from "../playwright.config";
import { checkScreen } from "./a11y";
import {
  SCREENSHOTS,
  createThroughWizard,
  registerThroughForm,
  shot,
  uniqueEmail,
} from "./support";

/**
 * An A/B test from end to end, with its traffic made by visitors on the owner's site through the
 * real embed: the owner writes a variant with another headline in the Tests tab; visitors load a
 * page carrying `<script src=".../widget/ca-widget.js">` at the site's own origin (served by the
 * browser's routing, as the owner's server would), leave it through the top of the window, see
 * their arm's popup, and some leave an email; the Tests tab then counts for each arm exactly the
 * impressions and leads they made, and so does the API.
 */

/**
 * The owner's site is a public origin and the ConvertAssist server runs here on the loopback
 * address; the browser refuses a public page's requests to loopback (Local Network Access). In
 * production both are public and nothing is refused, so the check is off for this file's browser.
 */
const launch = config.use?.launchOptions ?? {};
test.use({
  launchOptions: {
    ...launch,
    args: [...(launch.args ?? []), "--disable-features=LocalNetworkAccessChecks"],
  },
});

const API = process.env.E2E_BASE_URL ?? "http://127.0.0.1:8080";
/** The owner's site, as the wizard saved it: the widget's calls come from there. */
const SITE = "https://kesar-handlooms.example.in";
const NEW_TITLE = "Last chance: 15% off handloom sarees";

/** The owner's product page, with the embed exactly as the dashboard gives it. */
function shopPage(campaignId: string): string {
  const products = Array.from(
    { length: 12 },
    (_, i) => `<div class="p"><h3>Handloom saree ${i + 1}</h3><p>₹${1299 + i * 100}</p></div>`,
  ).join("");
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Kesar Handlooms: sarees</title>
<style>body{font-family:Georgia,serif;margin:0}.p{padding:40px;border-bottom:1px solid #ddd}</style></head>
<body><h1>Kesar Handlooms</h1>${products}
<script src="${API}/widget/ca-widget.js" data-campaign-id="${campaignId}" data-api-url="${API}" async defer></script></body></html>`;
}

interface Arm {
  id: string;
  name: string;
  impressions: number;
  leads: number;
}

interface PublicTest {
  id: string;
  variants: { id: string; weight: number }[];
}

interface PublicCampaign {
  exitIntent: { delay: number };
  targeting: { minTimeOnPage: number };
  test?: PublicTest | null;
}

/** The campaign's tests as the API answers them. */
async function testsOf(request: APIRequestContext, token: string, campaignId: string) {
  const res = await request.get(`/api/campaigns/${campaignId}/tests`, {
    headers: { authorization: `Bearer ${token}` },
  });
  expect(res.status(), await res.text()).toBe(200);
  return (await res.json()).data as { id: string; status: string; variants: Arm[] }[];
}

/**
 * The campaign as the widget reads it, once its config carries the running test's `arms` arms
 * (0: once it carries no test).
 */
async function publicCampaign(
  request: APIRequestContext,
  id: string,
  arms = 2,
): Promise<PublicCampaign> {
  let out: PublicCampaign | undefined;
  await expect
    .poll(async () => {
      const res = await request.get(`/api/widget/campaigns/${id}/config`);
      out = ((await res.json()) as { campaign?: PublicCampaign }).campaign;
      return out?.test?.variants.length ?? 0;
    })
    .toBe(arms);
  return out!;
}

/**
 * The arm the loader gives a visitor: its hash of `<visitor id>:<test id>` walked through the
 * arms' weights (`variantOf` in the widget). Only used to choose visitor ids for an even split;
 * each visitor's arm is then read from what the widget itself stored.
 */
function armOf(t: PublicTest, visitorId: string): string | undefined {
  const key = `${visitorId}:${t.id}`;
  let h = 0;
  for (let i = 0; i < key.length; i += 1) h = Math.imul(h ^ key.charCodeAt(i), 0x9e3779b1);
  let r = ((Math.imul(h ^ (h >>> 16), 0x9e3779b1) >>> 0) / 2 ** 32) * 100;
  for (const arm of t.variants) if ((r -= arm.weight) < 0) return arm.id;
  return undefined;
}

/** The Tests tab's panel: the designer's labels also exist, hidden, on the Popup Design tab. */
function panel(page: Page) {
  return page.getByRole("tabpanel", { name: "Tests" });
}

interface Visit {
  visitorId: string;
  arm: string;
  title: string;
  lead: boolean;
}

/**
 * One visitor in a browser of their own (their own localStorage), at desktop size, on the owner's
 * site: a returning visitor whose stored id is `visitorId`. They read for as long as the campaign
 * waits before exit intent, leave through the top of the window, and, when `email` is given,
 * leave it in the popup's form.
 */
async function visit(
  browser: Browser,
  campaignId: string,
  campaign: PublicCampaign,
  visitorId: string,
  email?: string,
  screenshot?: string,
  /** Whether a test is running, so the widget gives the visitor an arm. */
  armed = true,
): Promise<Visit> {
  const context = await browser.newContext({
    baseURL: API,
    viewport: { width: 1440, height: 900 },
  });
  try {
    const page = await context.newPage();
    // The owner's site is this page; nothing else leaves the machine.
    await context.route(/^https?:\/\/(?!localhost|127\.0\.0\.1)/, (r) => r.abort());
    await page.route(`${SITE}/**`, (r) =>
      r.fulfill({ contentType: "text/html; charset=utf-8", body: shopPage(campaignId) }),
    );
    await page.addInitScript(
      ([origin, vid]) => {
        if (location.origin === origin) localStorage.setItem("ca_vid", vid);
      },
      [SITE, visitorId] as const,
    );
    const impressions: string[] = [];
    page.on("request", (r) => {
      if (r.method() === "POST" && r.url() === `${API}/api/widget/events`) {
        const body = JSON.parse(r.postData() ?? "{}") as { type?: string; variantId?: string };
        if (body.type === "impression") impressions.push(body.variantId ?? "");
      }
    });
    // The visitor's clock: the time they spend reading passes without the test waiting for it.
    await page.clock.install();
    const config = page.waitForResponse((r) => r.url().includes(`/campaigns/${campaignId}/config`));
    await page.goto(`${SITE}/sarees`, { waitUntil: "load" });
    expect((await config).status()).toBe(200);
    // The widget keeps the visitor's arm for the thank-you page.
    let arm = "";
    if (armed)
      await expect
        .poll(async () => {
          arm = await page.evaluate((id) => localStorage.getItem(`ca_var_${id}`) ?? "", campaignId);
          return arm;
        })
        .not.toBe("");
    await page.mouse.move(700, 400);
    const reading = Math.max(campaign.exitIntent.delay, campaign.targeting.minTimeOnPage * 1000);
    await page.clock.fastForward(reading + 1000);

    // Leaving: the pointer goes up and out through the top edge of the window.
    const impression = page.waitForResponse(
      (r) =>
        r.url() === `${API}/api/widget/events` && /"impression"/.test(r.request().postData() ?? ""),
    );
    await page.mouse.move(700, 120, { steps: 3 });
    await page.mouse.move(700, -10, { steps: 3 });
    const dialog = page.locator("convertassist-widget").getByRole("dialog");
    await expect(dialog).toBeVisible();
    const title = (await dialog.getByRole("heading", { level: 2 }).textContent()) ?? "";
    if (screenshot) await page.screenshot({ path: `${SCREENSHOTS}/${screenshot}.png` });
    expect((await impression).ok()).toBe(true);
    expect(impressions).toEqual([arm]);

    if (email) {
      const capture = dialog.locator("form.card").first();
      await capture.locator("input[type=email]").fill(email);
      const sent = page.waitForResponse((r) =>
        /\/api\/widget\/conversations\/[^/]+\/forms$/.test(r.url()),
      );
      await capture.getByRole("button").click();
      expect((await sent).status()).toBe(200);
      await expect(capture.getByRole("status")).toBeVisible();
    }
    return { visitorId, arm, title, lead: Boolean(email) };
  } finally {
    await context.close();
  }
}

test("an A/B test whose traffic comes through the real widget on the owner's site: each visitor sees their arm's popup, and the Tests tab counts what they did", async ({
  page,
  browser,
}) => {
  test.setTimeout(300_000);
  await page.setViewportSize({ width: 1440, height: 900 });
  await registerThroughForm(page, uniqueEmail("abjourney"));
  await createThroughWizard(page, "Banarasi sarees");
  await page.waitForURL("**/campaigns");
  await page.getByRole("link", { name: "Edit campaign" }).click();
  await page.waitForURL(/\/campaigns\/[0-9a-f-]{36}\/edit$/);
  const id = page.url().split("/").at(-2) ?? "";
  const token = await page.evaluate(() => localStorage.getItem("token") ?? "");
  await page.getByRole("tab", { name: "Popup Design" }).click();
  const originalTitle = await page.getByLabel("Main Title").inputValue();
  expect(originalTitle).not.toBe(NEW_TITLE);

  // The owner's test: the variant changes the popup's headline; half the visitors each.
  await page.getByRole("tab", { name: "Tests" }).click();
  const tests = panel(page);
  await tests.getByRole("button", { name: "Create test" }).click();
  await tests.getByLabel("Test name").fill("Banarasi headline");
  await tests.getByLabel("Main Title").fill(NEW_TITLE);
  await expect(tests.getByTestId("popup-preview")).toContainText(NEW_TITLE);
  await expect(tests.getByLabel("Control share (%)")).toHaveValue("50");
  await tests.getByRole("button", { name: "Start test" }).click();
  await expect(tests.getByTestId("test-results")).toBeVisible();

  const [started] = await testsOf(page.request, token, id);
  if (!started) throw new Error("the test was not created");
  const [control, variant] = started.variants;
  if (!control || !variant) throw new Error("the test has no variant");
  const campaign = await publicCampaign(page.request, id);
  const publicTest = campaign.test!;
  expect(publicTest.id).toBe(started.id);
  const titles: Record<string, string> = { [control.id]: originalTitle, [variant.id]: NEW_TITLE };

  // Returning visitors whose stored ids put three in each arm (the split is the loader's hash of
  // the visitor and the test, so the ids are chosen once the test exists).
  const run = `${Date.now().toString(36)}`;
  const chosen: Record<string, string[]> = { [control.id]: [], [variant.id]: [] };
  for (let i = 0; chosen[control.id]!.length < 3 || chosen[variant.id]!.length < 3; i += 1) {
    const visitorId = `v_journey_${run}_${i}`;
    const arm = armOf(publicTest, visitorId);
    if (arm && chosen[arm]!.length < 3) chosen[arm]!.push(visitorId);
  }
  // One control visitor leaves an email, two of the variant's do.
  const plan: { visitorId: string; lead: boolean; screenshot?: string }[] = [
    ...chosen[control.id]!.map((visitorId, i) => ({
      visitorId,
      lead: i < 1,
      screenshot: i === 0 ? "ab-journey-visitor-control" : undefined,
    })),
    ...chosen[variant.id]!.map((visitorId, i) => ({
      visitorId,
      lead: i < 2,
      screenshot: i === 0 ? "ab-journey-visitor-variant" : undefined,
    })),
  ];
  const visits: Visit[] = [];
  for (const { visitorId, lead, screenshot } of plan)
    visits.push(
      await visit(
        browser,
        id,
        campaign,
        visitorId,
        lead ? `${visitorId}@example.in` : undefined,
        screenshot,
      ),
    );

  // Each visitor saw the popup of the arm the widget gave them, and the arms are the planned ones.
  for (const v of visits) {
    expect(v.arm === control.id || v.arm === variant.id, `${v.visitorId}: ${v.arm}`).toBe(true);
    expect(v.title, v.visitorId).toBe(titles[v.arm]);
  }
  const did = (arm: string) => {
    const of = visits.filter((v) => v.arm === arm);
    return [of.length, of.filter((v) => v.lead).length];
  };
  expect([did(control.id), did(variant.id)]).toEqual([
    [3, 1],
    [3, 2],
  ]);

  // The campaign counted every popup shown.
  await expect
    .poll(async () => {
      const res = await page.request.get(`/api/campaigns/${id}/analytics`, {
        headers: { authorization: `Bearer ${token}` },
      });
      return ((await res.json()) as { analytics: { impressions: number } }).analytics.impressions;
    })
    .toBe(visits.length);

  // The API counts for each arm what its visitors did.
  await expect
    .poll(async () => {
      const [counted] = await testsOf(page.request, token, id);
      return counted?.variants.map((v) => [v.impressions, v.leads]);
    })
    .toEqual([did(control.id), did(variant.id)]);

  // The owner's Tests tab shows the same, after a reload.
  await page.reload();
  await page.getByRole("tab", { name: "Tests" }).click();
  const table = tests.getByTestId("test-table");
  const rows = table.locator("tbody tr");
  await expect(rows).toHaveCount(2);
  for (const [i, arm] of [control, variant].entries()) {
    const [impressions, leads] = did(arm.id);
    const row = rows.nth(i);
    await expect(row.getByRole("rowheader")).toContainText(arm.name);
    // Cells after the name: split, visitors, impressions, leads (each visitor came once).
    await expect(row.getByRole("cell").nth(1)).toHaveText(String(impressions));
    await expect(row.getByRole("cell").nth(2)).toHaveText(String(impressions));
    await expect(row.getByRole("cell").nth(3)).toHaveText(String(leads));
  }
  await expect(rows.nth(0)).toContainText("33.33 %");
  await expect(rows.nth(1)).toContainText("66.67 %");
  await shot(page, "ab-journey-results");
  for (const width of [1440, 768, 390]) {
    await page.setViewportSize({ width, height: 900 });
    await expect(table).toBeVisible();
    await checkScreen(page, "ab-journey-results");
  }

  // The owner promotes the variant: the test closes, and the next visitor (no test running, so no
  // arm) sees the winner's popup as the campaign's own through the same embed.
  await page.setViewportSize({ width: 1440, height: 900 });
  await tests.getByRole("button", { name: `Promote ${variant.name}` }).click();
  const confirm = page.getByRole("dialog", { name: `Promote ${variant.name}?` });
  await confirm.getByRole("button", { name: "Promote" }).click();
  await expect(confirm).toBeHidden();
  await expect(tests.getByTestId("test-state")).toHaveText("Closed");
  await checkScreen(page, "ab-journey-promoted");
  // (Once the widget's configuration carries no test, it carries the promoted design.)
  const promoted = await publicCampaign(page.request, id, 0);
  const after = await visit(
    browser,
    id,
    promoted,
    `v_journey_${run}_after`,
    undefined,
    "ab-journey-after-promote",
    false,
  );
  expect(after.title).toBe(NEW_TITLE);
  expect(after.arm).toBe("");
});
