import { expect, test, type APIRequestContext, type Page } from "@playwright/test";
import { checkScreen } from "./a11y";
import { createThroughWizard, registerThroughForm, runSql, shot, uniqueEmail } from "./support";

/** The owner's site, as the wizard saved it: the widget's calls come from there. */
const SITE = "https://kesar-handlooms.example.in";
const NEW_TITLE = "Last chance: 15% off handloom sarees";
/** A control and a variant with a new headline, split evenly. */
const HEADLINE_VARIANTS = [
  { name: "Control", weight: 50, overrides: {} },
  { name: "Variant B", weight: 50, overrides: { popup: { design: { headerTitle: NEW_TITLE } } } },
];

interface Arm {
  id: string;
  name: string;
  visitors: number;
  impressions: number;
  leads: number;
  overrides: Record<string, unknown>;
  paused: boolean;
}

/** The campaign's tests as the API answers them. */
async function testsOf(request: APIRequestContext, token: string, campaignId: string) {
  const res = await request.get(`/api/campaigns/${campaignId}/tests`, {
    headers: { authorization: `Bearer ${token}` },
  });
  expect(res.status(), await res.text()).toBe(200);
  return (await res.json()).data as { id: string; status: string; variants: Arm[] }[];
}

/** One visitor who saw `variantId`'s popup, as the widget reports it. */
async function impression(
  request: APIRequestContext,
  campaignId: string,
  visitorId: string,
  variantId: string,
) {
  const res = await request.post("/api/widget/events", {
    headers: { origin: SITE, "content-type": "text/plain" },
    data: JSON.stringify({ campaignId, visitorId, type: "impression", variantId }),
  });
  expect(res.ok(), await res.text()).toBe(true);
}

/** That visitor starts a chat from the variant's popup and leaves an email: a lead. */
async function lead(
  request: APIRequestContext,
  campaignId: string,
  visitorId: string,
  variantId: string,
) {
  const start = await request.post("/api/widget/conversations", {
    headers: { origin: SITE },
    data: {
      campaignId,
      visitorId,
      variantId,
      userContext: { deviceType: "desktop", currentUrl: `${SITE}/sarees` },
    },
  });
  expect(start.status(), await start.text()).toBe(201);
  const conversationId = (await start.json()).conversationId as string;
  const form = await request.post(`/api/widget/conversations/${conversationId}/forms`, {
    headers: { origin: SITE },
    data: { values: { email: `${visitorId}@example.in` } },
  });
  expect(form.status(), await form.text()).toBe(200);
}

async function campaignImpressions(request: APIRequestContext, token: string, id: string) {
  const res = await request.get(`/api/campaigns/${id}/analytics`, {
    headers: { authorization: `Bearer ${token}` },
  });
  return ((await res.json()) as { analytics: { impressions: number } }).analytics.impressions;
}

/** The Tests tab's panel: the designer's labels also exist, hidden, on the Popup Design tab. */
function panel(page: Page) {
  return page.getByRole("tabpanel", { name: "Tests" });
}

/**
 * A new owner with a campaign made in the wizard, its editor open, and `body` started as a test
 * through the API: the campaign's id, the owner's token and the test as the API answered it.
 */
async function campaignWithTest(page: Page, who: string, campaign: string, body: unknown) {
  await page.setViewportSize({ width: 1440, height: 900 });
  await registerThroughForm(page, uniqueEmail(who));
  await createThroughWizard(page, campaign);
  await page.waitForURL("**/campaigns");
  await page.getByRole("link", { name: "Edit campaign" }).click();
  await page.waitForURL(/\/edit$/);
  const id = page.url().split("/").at(-2) ?? "";
  const token = await page.evaluate(() => localStorage.getItem("token") ?? "");
  const res = await page.request.post(`/api/campaigns/${id}/tests`, {
    headers: { authorization: `Bearer ${token}` },
    data: body,
  });
  expect(res.status(), await res.text()).toBe(201);
  const started = (await res.json()).data as { id: string; variants: { id: string }[] };
  return { id, token, started };
}

test("an A/B test: write a variant with the designer, run traffic through the widget API, read the results and promote the winner", async ({
  page,
}) => {
  test.setTimeout(180_000);
  await page.setViewportSize({ width: 1440, height: 900 });
  await registerThroughForm(page, uniqueEmail("abtest"));
  await createThroughWizard(page, "Diwali sarees");
  await page.waitForURL("**/campaigns");
  await page.getByRole("link", { name: "Edit campaign" }).click();
  await page.waitForURL(/\/campaigns\/[0-9a-f-]{36}\/edit$/);
  const id = page.url().split("/").at(-2) ?? "";
  const token = await page.evaluate(() => localStorage.getItem("token") ?? "");
  await page.getByRole("tab", { name: "Popup Design" }).click();
  const originalTitle = await page.getByLabel("Main Title").inputValue();
  expect(originalTitle).not.toBe(NEW_TITLE);

  // The Tests tab: nothing yet.
  await page.getByRole("tab", { name: "Tests" }).click();
  const tests = panel(page);
  await expect(tests.getByText("No tests yet. Create one from the current design.")).toBeVisible();
  await tests.getByRole("button", { name: "Create test" }).click();

  // A name, the metric, and one variant changing the title with the Popup Design tab's designer.
  await tests.getByLabel("Test name").fill("Diwali headline");
  await expect(tests.getByLabel("Conversion rate")).toBeChecked();
  await tests.getByLabel("Main Title").fill(NEW_TITLE);
  const preview = tests.getByTestId("popup-preview");
  await expect(preview).toContainText(NEW_TITLE);
  // The variant's designer has no save of its own: it is sent with the test.
  await expect(tests.getByRole("button", { name: "Save Design" })).toHaveCount(0);

  // The split: two arms always add up; with three, a share that breaks the total is shown.
  await tests.getByLabel("Control share (%)").fill("70");
  await expect(tests.getByLabel("Variant B share (%)")).toHaveValue("30");
  await tests.getByRole("button", { name: "Add variant" }).click();
  await expect(tests.getByLabel("Control share (%)")).toHaveValue("34");
  await tests.getByLabel("Control share (%)").fill("50");
  await expect(
    tests.getByText("The weights must add up to 100 percent; they add up to 116"),
  ).toBeVisible();
  await expect(tests.getByText("Total: 116 %")).toBeVisible();
  await shot(page, "ab-create-split-error");
  await tests.getByRole("button", { name: "Remove Variant C" }).click();
  await expect(tests.getByText("Total: 100 %")).toBeVisible();
  await expect(tests.getByLabel("Control share (%)")).toHaveValue("50");

  // What the server refuses is shown in its own words: a title over its 100 characters.
  await tests.getByRole("tab", { name: "Variant B" }).click();
  await tests.getByLabel("Main Title").fill("Sale ".repeat(24));
  await tests.getByRole("button", { name: "Start test" }).click();
  await expect(tests.getByText(/Header title must be at most 100 characters/)).toBeVisible();
  expect(await testsOf(page.request, token, id)).toEqual([]);

  await tests.getByLabel("Main Title").fill(NEW_TITLE);
  // Widest last, and no resize right before the click below: the popup preview scales to its
  // width after a resize, which moves the buttons under it while a click could be landing.
  for (const width of [390, 768, 1440]) {
    await page.setViewportSize({ width, height: 900 });
    await expect(tests.getByTestId("popup-preview")).toContainText(NEW_TITLE);
    await checkScreen(page, "ab-create");
  }
  const created = page.waitForRequest(
    (r) => r.method() === "POST" && new URL(r.url()).pathname === `/api/campaigns/${id}/tests`,
  );
  await tests.getByRole("button", { name: "Start test" }).click();
  // Only what the owner changed is sent; the control is the campaign as it is.
  const body = (await created).postDataJSON();
  expect(body).toEqual({
    name: "Diwali headline",
    metric: "conversionRate",
    variants: HEADLINE_VARIANTS,
  });
  const results = tests.getByTestId("test-results");
  await expect(results).toBeVisible();
  await expect(tests.getByTestId("test-state")).toHaveText("Too early");
  await expect(results.getByText(/Too early to call: a test needs at least 7 days/)).toBeVisible();
  await expect(tests.getByRole("button", { name: "Create test" })).toBeDisabled();

  const [started] = await testsOf(page.request, token, id);
  if (!started) throw new Error("the test was not created");
  const [control, variant] = started.variants;
  if (!control || !variant) throw new Error("the test has no variant");
  expect(variant.overrides).toEqual({ popup: { design: { headerTitle: NEW_TITLE } } });

  // Simulated traffic through the widget's own HTTP API: 6 visitors per arm; 1 lead from the
  // control, 3 from the variant. The control's first visitor sees the popup on a second page: one
  // more impression, the same visitor.
  const before = await campaignImpressions(page.request, token, id);
  const run = `${Date.now()}`;
  for (const [arm, leads] of [
    [control, 1],
    [variant, 3],
  ] as const) {
    for (let i = 0; i < 6; i += 1) {
      const visitor = `v_ab_${run}_${arm.id.slice(-6)}_${i}`;
      await impression(page.request, id, visitor, arm.id);
      if (i === 0 && arm === control) await impression(page.request, id, visitor, arm.id);
      if (i < leads) await lead(page.request, id, visitor, arm.id);
    }
  }
  // The campaign counted every impression.
  await expect.poll(() => campaignImpressions(page.request, token, id)).toBe(before + 13);

  // Per-variant counts: each visitor, impression and lead counts for its arm (a lead for the arm
  // of its conversation), and the table shows the API's. Rates are per visitor: 1 in 6, not 1 in 7.
  await expect
    .poll(async () => {
      const [counted] = await testsOf(page.request, token, id);
      return counted?.variants.map((v) => [v.visitors, v.impressions, v.leads]);
    })
    .toEqual([
      [6, 7, 1],
      [6, 6, 3],
    ]);
  await page.reload();
  await page.getByRole("tab", { name: "Tests" }).click();
  const table = tests.getByTestId("test-table");
  const rows = table.locator("tbody tr");
  await expect(rows).toHaveCount(2);
  await expect(rows.nth(0)).toContainText("Control");
  await expect(rows.nth(1)).toContainText("Variant B");
  await expect(table.getByRole("columnheader", { name: "Probability to be best" })).toBeVisible();
  await expect(
    table.getByRole("columnheader", { name: "Conversion rate (95 % interval)" }),
  ).toBeVisible();
  await expect(table.getByRole("columnheader", { name: "Visitors" })).toBeVisible();
  await expect(rows.nth(0).getByRole("cell").nth(1)).toHaveText("6");
  await expect(rows.nth(0).getByRole("cell").nth(2)).toHaveText("7");
  await expect(rows.nth(0)).toContainText("16.67 %");
  await expect(rows.nth(1)).toContainText("50 %");
  await expect(tests.getByText("Cumulative conversion rate per variant")).toBeVisible();
  await expect(tests.locator(".recharts-line")).toHaveCount(2);

  // One variant can be paused and resumed (the control cannot).
  await expect(table.getByRole("button", { name: "Pause Control" })).toHaveCount(0);
  await table.getByRole("button", { name: "Pause Variant B" }).click();
  await expect(rows.nth(1)).toContainText("Paused");
  expect((await testsOf(page.request, token, id))[0]?.variants[1]?.paused).toBe(true);
  await table.getByRole("button", { name: "Resume Variant B" }).click();
  await expect(rows.nth(1)).not.toContainText("Paused");
  expect((await testsOf(page.request, token, id))[0]?.variants[1]?.paused).toBe(false);

  // The preview shows either arm and counts nothing.
  const resultsPreview = tests.getByTestId("popup-preview");
  await expect(resultsPreview).toContainText(originalTitle);
  await tests
    .getByRole("radiogroup", { name: "Variant to preview" })
    .getByText("Variant B", { exact: true })
    .click();
  await expect(resultsPreview).toContainText(NEW_TITLE);
  expect(await campaignImpressions(page.request, token, id)).toBe(before + 13);

  // The pointer rests away from the chart, as a person reading the table leaves it (a chart under
  // the pointer shows its tooltip there).
  await page.mouse.move(0, 0);
  for (const width of [1440, 768, 390]) {
    await page.setViewportSize({ width, height: 900 });
    await expect(table).toBeVisible();
    await checkScreen(page, "ab-results");
  }
  await page.setViewportSize({ width: 1440, height: 900 });

  // Pause and resume.
  await tests.getByRole("button", { name: "Pause test" }).click();
  await expect(tests.getByTestId("test-state")).toHaveText("Paused");
  expect((await testsOf(page.request, token, id))[0]?.status).toBe("paused");
  await tests.getByRole("button", { name: "Resume test" }).click();
  await expect(tests.getByTestId("test-state")).not.toHaveText("Paused");

  // Promote the variant, after a confirmation.
  await tests.getByRole("button", { name: "Promote Variant B" }).click();
  const dialog = page.getByRole("dialog", { name: "Promote Variant B?" });
  await expect(dialog).toContainText("The campaign takes this variant's design");
  await checkScreen(page, "ab-promote-confirm");
  await dialog.getByRole("button", { name: "Promote" }).click();
  await expect(dialog).toBeHidden();
  await expect(tests.getByTestId("test-state")).toHaveText("Closed");
  await expect(tests.getByTestId("test-decision")).toContainText("Decision: Variant B");
  await expect(tests.getByTestId("test-decision")).toContainText(
    '"Variant B" promoted by the owner',
  );
  // Closed, it stays readable, and a new test can start.
  await expect(rows).toHaveCount(2);
  await expect(tests.getByRole("button", { name: "Create test" })).toBeEnabled();
  await checkScreen(page, "ab-closed");

  // The campaign has the winner's design, in the editor at once and after a reload.
  await page.getByRole("tab", { name: "Popup Design" }).click();
  await expect(page.getByLabel("Main Title")).toHaveValue(NEW_TITLE);
  await expect(page.getByTestId("save-bar")).toContainText("All changes saved");
  await page.reload();
  await page.getByRole("tab", { name: "Popup Design" }).click();
  await expect(page.getByLabel("Main Title")).toHaveValue(NEW_TITLE);
});

test("a ten-day revenue test: the table, the call and the cumulative revenue-per-visitor chart", async ({
  page,
}) => {
  test.setTimeout(120_000);
  const { started } = await campaignWithTest(page, "abchart", "Wedding lehengas", {
    name: "Gold header",
    metric: "revenuePerVisitor",
    variants: [
      { name: "Control", weight: 50, overrides: {} },
      { name: "Gold", weight: 50, overrides: { popup: { design: { primaryColor: "#b8860b" } } } },
    ],
  });
  const [control, gold] = started.variants;
  if (!control || !gold) throw new Error("the test has no variant");

  // Ten days of counts written straight into the test database, as the widget's traffic would
  // leave them: 300 visitors a day on each arm (420 impressions: some see the popup twice); the
  // control sells 6 orders of ₹1,000 a day, the gold variant 18 (₹20 and ₹60 per visitor).
  runSql(
    "UPDATE experiment_tests SET started_at = date(started_at, '-10 days') || substr(started_at, 11) WHERE id = ?",
    started.id,
  );
  const today = Date.UTC(
    new Date().getUTCFullYear(),
    new Date().getUTCMonth(),
    new Date().getUTCDate(),
  );
  for (let k = 0; k < 10; k += 1) {
    const day = new Date(today - (10 - k) * 86_400_000).toISOString().slice(0, 10);
    for (const [arm, orders] of [
      [control, 6],
      [gold, 18],
    ] as const)
      runSql(
        "INSERT INTO experiment_counts (variant_id, day, test_id, visitors, impressions, conversations, leads, purchases, revenue_paise, revenue_squares) VALUES (?, ?, ?, 300, 420, 30, 10, ?, ?, ?)",
        arm.id,
        day,
        started.id,
        orders,
        orders * 100_000,
        orders * 1000 * 1000,
      );
  }

  // Opening the tab reads the results again.
  await page.getByRole("tab", { name: "Basic Settings" }).click();
  await page.getByRole("tab", { name: "Tests" }).click();
  const tests = panel(page);
  const rows = tests.getByTestId("test-table").locator("tbody tr");
  await expect(rows.nth(0).getByRole("cell").nth(1)).toHaveText("3,000");
  await expect(rows.nth(0).getByRole("cell").nth(2)).toHaveText("4,200");
  await expect(rows.nth(0)).toContainText("₹60,000");
  await expect(rows.nth(0)).toContainText("₹20");
  await expect(rows.nth(1)).toContainText("₹1,80,000");
  await expect(rows.nth(1)).toContainText("₹60");
  await expect(tests.getByText("Metric: Revenue per visitor", { exact: false })).toBeVisible();
  await expect(tests.getByTestId("test-state")).toHaveText("Winner");
  await expect(tests.getByTestId("test-decision")).toContainText("Decision: Gold");
  await expect(rows.nth(1)).toContainText("Winner");
  await expect(tests.getByText("Cumulative revenue per visitor per variant")).toBeVisible();
  await expect(tests.locator(".recharts-line")).toHaveCount(2);
  for (const width of [1440, 768, 390]) {
    await page.setViewportSize({ width, height: 900 });
    await expect(tests.locator(".recharts-line")).toHaveCount(2);
    await checkScreen(page, "ab-chart");
  }
});

test("editing a running test's variants starts its next version: the old version closes and keeps its results", async ({
  page,
}) => {
  test.setTimeout(150_000);
  const {
    id,
    token,
    started: first,
  } = await campaignWithTest(page, "abversion", "Festive kurtas", {
    name: "Kurta headline",
    metric: "conversionRate",
    variants: HEADLINE_VARIANTS,
  });
  const [control, variant] = first.variants;
  if (!control || !variant) throw new Error("the test has no variant");
  const run = `${Date.now()}`;
  for (const arm of [control, variant])
    for (let i = 0; i < 4; i += 1)
      await impression(page.request, id, `v_ver_${run}_${arm.id.slice(-6)}_${i}`, arm.id);
  await expect
    .poll(async () =>
      (await testsOf(page.request, token, id))[0]?.variants.map((v) => v.impressions),
    )
    .toEqual([4, 4]);

  // Edit variants opens the designer on the test as it runs.
  await page.getByRole("tab", { name: "Tests" }).click();
  const tests = panel(page);
  await expect(tests.getByText("Version 1", { exact: true })).toBeVisible();
  await expect(
    tests.getByText("Editing the variants starts version 2: this version closes"),
  ).toBeVisible();
  await tests.getByRole("button", { name: "Edit variants" }).click();
  await expect(
    tests.getByRole("heading", { name: "Edit variants: version 2 of “Kurta headline”" }),
  ).toBeVisible();
  await expect(tests.getByTestId("new-version-note")).toContainText(
    "Version 1 closes and keeps its results",
  );
  await expect(tests.getByLabel("Test name")).toHaveValue("Kurta headline");
  await expect(tests.getByLabel("Control share (%)")).toHaveValue("50");
  await expect(tests.getByLabel("Variant B share (%)")).toHaveValue("50");
  await expect(tests.getByLabel("Main Title")).toHaveValue(NEW_TITLE);
  await expect(tests.getByTestId("popup-preview")).toContainText(NEW_TITLE);

  // A third arm with its own headline.
  await tests.getByRole("button", { name: "Add variant" }).click();
  const third = "Festive dhamaka: free shipping today";
  await tests.getByLabel("Main Title").fill(third);
  await expect(tests.getByTestId("popup-preview")).toContainText(third);
  // Widest last, and no resize right before the click below: the popup preview scales to its
  // width after a resize, which moves the buttons under it while a click could be landing.
  for (const width of [390, 768, 1440]) {
    await page.setViewportSize({ width, height: 900 });
    await expect(tests.getByTestId("new-version-note")).toBeVisible();
    await checkScreen(page, "ab-edit-variants");
  }
  // Cancel leaves the test as it is.
  await tests.getByRole("button", { name: "Cancel" }).first().click();
  await expect(tests.getByTestId("test-state")).toBeVisible();
  expect((await testsOf(page.request, token, id)).map((t) => t.status)).toEqual(["running"]);

  await tests.getByRole("button", { name: "Edit variants" }).click();
  await tests.getByRole("button", { name: "Add variant" }).click();
  await tests.getByLabel("Main Title").fill(third);
  const sent = page.waitForRequest(
    (r) =>
      r.method() === "POST" &&
      new URL(r.url()).pathname === `/api/campaigns/${id}/tests/${first.id}/versions`,
  );
  await tests.getByRole("button", { name: "Start version 2" }).click();
  expect((await sent).postDataJSON()).toEqual({
    name: "Kurta headline",
    metric: "conversionRate",
    variants: [
      { name: "Control", weight: 34, overrides: {} },
      {
        name: "Variant B",
        weight: 33,
        overrides: { popup: { design: { headerTitle: NEW_TITLE } } },
      },
      {
        name: "Variant C",
        weight: 33,
        overrides: { popup: { design: { headerTitle: third } } },
      },
    ],
  });

  // Version 2 is open, counting from zero with three arms; version 1 is closed with its counts.
  const items = tests.getByTestId("ab-test");
  await expect(items).toHaveCount(2);
  const newest = items.nth(0);
  await expect(newest).toContainText("Version 2");
  const rows = newest.getByTestId("test-table").locator("tbody tr");
  await expect(rows).toHaveCount(3);
  for (let i = 0; i < 3; i += 1) await expect(rows.nth(i).locator("td").nth(1)).toHaveText("0");
  const listed = await testsOf(page.request, token, id);
  expect(listed.map((t) => t.status)).toEqual(["running", "closed"]);
  const second = listed[0];
  if (!second) throw new Error("no second version");
  expect((listed[1] as unknown as { replacedBy: string }).replacedBy).toBe(second.id);
  const config = await page.request.get(`/api/widget/campaigns/${id}/config`);
  expect((await config.json()).campaign.test.id).toBe(second.id);

  const older = items.nth(1);
  await expect(older).toContainText("Version 1");
  await older.getByRole("button", { name: /Kurta headline/ }).click();
  await expect(older.getByTestId("test-replaced")).toContainText(
    "version 2 took its place and counts from zero",
  );
  await expect(older.getByTestId("test-decision")).toHaveCount(0);
  const oldRows = older.getByTestId("test-table").locator("tbody tr");
  await expect(oldRows.nth(0).locator("td").nth(1)).toHaveText("4");
  await expect(oldRows.nth(1).locator("td").nth(1)).toHaveText("4");
  await expect(older.getByRole("button", { name: "Edit variants" })).toHaveCount(0);
  await page.mouse.move(0, 0);
  for (const width of [1440, 768, 390]) {
    await page.setViewportSize({ width, height: 900 });
    await expect(older.getByTestId("test-replaced")).toBeVisible();
    await checkScreen(page, "ab-replaced");
  }
});
