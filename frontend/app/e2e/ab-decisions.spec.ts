import { execFileSync } from "node:child_process";
import { expect, test, type APIRequestContext, type Page } from "@playwright/test";
import { checkScreen } from "./a11y";
import { createThroughWizard, registerThroughForm, runSql, uniqueEmail } from "./support";

const NEW_TITLE = "Festive week: free shipping on every saree";

interface TestRead {
  id: string;
  status: string;
  maxDays: number;
  autoPromote: boolean;
  notifiedAt: string | null;
  decision: { winner: string | null; reason: string } | null;
  variants: { id: string; name: string }[];
}

async function testsOf(request: APIRequestContext, token: string, campaignId: string) {
  const res = await request.get(`/api/campaigns/${campaignId}/tests`, {
    headers: { authorization: `Bearer ${token}` },
  });
  expect(res.status(), await res.text()).toBe(200);
  return (await res.json()).data as TestRead[];
}

/** The emails the server kept in its local outbox for `email`. */
function outboxOf(email: string): { subject: string; body: string }[] {
  const bin = process.env.E2E_SERVER_BIN;
  const db = process.env.E2E_DATABASE_URL;
  if (!bin || !db) throw new Error("E2E_SERVER_BIN and E2E_DATABASE_URL must be set");
  const out = execFileSync(bin, ["outbox", "--to", email, "--limit", "20"], {
    env: { ...process.env, CA_DATABASE_URL: db, CA_LOG: "warn" },
    encoding: "utf8",
  });
  return JSON.parse(out) as { subject: string; body: string }[];
}

function panel(page: Page) {
  return page.getByRole("tabpanel", { name: "Tests" });
}

test("how a test ends: the maximum duration and auto-promote are chosen, changed, and the server's call promotes the winner and tells the owner", async ({
  page,
}) => {
  test.setTimeout(240_000);
  await page.setViewportSize({ width: 1440, height: 900 });
  const email = uniqueEmail("abdecide");
  await registerThroughForm(page, email);
  await createThroughWizard(page, "Festive sarees");
  await page.waitForURL("**/campaigns");
  await page.getByRole("link", { name: "Edit campaign" }).click();
  await page.waitForURL(/\/campaigns\/[0-9a-f-]{36}\/edit$/);
  const id = page.url().split("/").at(-2) ?? "";
  const token = await page.evaluate(() => localStorage.getItem("token") ?? "");

  await page.getByRole("tab", { name: "Tests" }).click();
  const tests = panel(page);
  await tests.getByRole("button", { name: "Create test" }).click();
  await tests.getByLabel("Test name").fill("Free shipping headline");
  await tests.getByLabel("Main Title").fill(NEW_TITLE);

  // How the test ends: 30 days and by hand unless the owner chooses; 14 to 90 days.
  const days = tests.getByLabel("Maximum duration (days)");
  const auto = tests.getByRole("switch", { name: "Promote the winner automatically" });
  await expect(days).toHaveValue("30");
  await expect(auto).not.toBeChecked();
  await days.fill("7");
  await tests.getByRole("button", { name: "Start test" }).click();
  await expect(
    tests.getByText("The maximum duration is a whole number of days from 14 to 90"),
  ).toBeVisible();
  expect(await testsOf(page.request, token, id)).toEqual([]);
  await days.fill("21");
  await auto.check();
  for (const width of [1440, 768, 390]) {
    await page.setViewportSize({ width, height: 900 });
    await expect(days).toBeVisible();
    await checkScreen(page, "ab-ending-create");
  }
  await page.setViewportSize({ width: 1440, height: 900 });
  const created = page.waitForRequest(
    (r) => r.method() === "POST" && new URL(r.url()).pathname === `/api/campaigns/${id}/tests`,
  );
  await tests.getByRole("button", { name: "Start test" }).click();
  expect((await created).postDataJSON()).toMatchObject({ maxDays: 21, autoPromote: true });
  const results = tests.getByTestId("test-results");
  await expect(results).toBeVisible();
  await expect(results).toContainText("maximum 21 days");
  let [read] = await testsOf(page.request, token, id);
  expect(read).toMatchObject({ maxDays: 21, autoPromote: true, status: "running" });

  // Changed on the running test: the same test, no new version.
  const ending = tests.getByTestId("test-ending");
  await ending.getByLabel("Maximum duration (days)").fill("14");
  await ending.getByRole("switch", { name: "Promote the winner automatically" }).uncheck();
  await ending.getByRole("button", { name: "Save how the test ends" }).click();
  await expect(ending.getByText("Saved")).toBeVisible();
  await expect(results).toContainText("maximum 14 days");
  let after = await testsOf(page.request, token, id);
  expect(after).toHaveLength(1);
  expect(after[0]).toMatchObject({ id: read?.id, maxDays: 14, autoPromote: false });
  // Out of range: not saved.
  await ending.getByLabel("Maximum duration (days)").fill("91");
  await expect(
    ending.getByText("The maximum duration is a whole number of days from 14 to 90"),
  ).toBeVisible();
  await expect(ending.getByRole("button", { name: "Save how the test ends" })).toBeDisabled();
  await ending.getByLabel("Maximum duration (days)").fill("14");
  await ending.getByRole("switch", { name: "Promote the winner automatically" }).check();
  await ending.getByRole("button", { name: "Save how the test ends" }).click();
  await expect(ending.getByText("Saved")).toBeVisible();
  after = await testsOf(page.request, token, id);
  expect(after[0]).toMatchObject({ maxDays: 14, autoPromote: true, notifiedAt: null });
  for (const width of [1440, 768, 390]) {
    await page.setViewportSize({ width, height: 900 });
    await expect(ending).toBeVisible();
    await checkScreen(page, "ab-ending-results");
  }
  await page.setViewportSize({ width: 1440, height: 900 });

  // Ten days of counts, as the widget's traffic would leave them: the variant turns three times
  // as many visitors into leads. The server's decision worker (every minute) makes the call.
  read = after[0];
  const [control, variant] = read?.variants ?? [];
  if (!read || !control || !variant) throw new Error("the test has no variant");
  runSql(
    "UPDATE experiment_tests SET started_at = date(started_at, '-10 days') || substr(started_at, 11) WHERE id = ?",
    read.id,
  );
  const today = Date.UTC(
    new Date().getUTCFullYear(),
    new Date().getUTCMonth(),
    new Date().getUTCDate(),
  );
  for (let k = 0; k < 10; k += 1) {
    const day = new Date(today - (10 - k) * 86_400_000).toISOString().slice(0, 10);
    for (const [arm, leads] of [
      [control, 6],
      [variant, 18],
    ] as const)
      runSql(
        "INSERT INTO experiment_counts (variant_id, day, test_id, visitors, impressions, conversations, leads, purchases, revenue_paise, revenue_squares) VALUES (?, ?, ?, 300, 300, 30, ?, 0, 0, 0)",
        arm.id,
        day,
        read.id,
        leads,
      );
  }
  await expect
    .poll(async () => (await testsOf(page.request, token, id))[0]?.status, {
      timeout: 150_000,
      intervals: [2_000],
    })
    .toBe("closed");
  const [decided] = await testsOf(page.request, token, id);
  expect(decided?.decision?.winner).toBe(variant.id);
  expect(decided?.decision?.reason).toContain("Promoted automatically");
  expect(decided?.notifiedAt).toBeTruthy();

  // The owner was told by email, with a link to the Tests tab.
  const mails = outboxOf(email).filter((m) => m.subject.includes("A/B test"));
  expect(mails).toHaveLength(1);
  expect(mails[0]?.subject).toBe(
    'Your A/B test "Free shipping headline" has a winner: "Variant B"',
  );
  expect(mails[0]?.body).toContain(`/campaigns/${id}/edit?tab=tests`);
  expect(mails[0]?.body).toContain("promoted automatically");

  // The Tests tab shows the call, the closed test stays readable, and the campaign has the
  // winner's design.
  await page.goto(`/campaigns/${id}/edit?tab=tests`);
  await expect(tests.getByTestId("test-state")).toHaveText("Closed");
  await expect(tests.getByTestId("test-decision")).toContainText("Decision: Variant B");
  await expect(tests.getByTestId("test-decision")).toContainText("Promoted automatically");
  await expect(tests.getByTestId("test-notified")).toContainText("You were told by email");
  await expect(tests.getByTestId("test-ending")).toHaveCount(0);
  await expect(tests.getByTestId("test-table").locator("tbody tr")).toHaveCount(2);
  for (const width of [1440, 768, 390]) {
    await page.setViewportSize({ width, height: 900 });
    await expect(tests.getByTestId("test-decision")).toBeVisible();
    await checkScreen(page, "ab-ending-decided");
  }
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.getByRole("tab", { name: "Popup Design" }).click();
  await expect(page.getByLabel("Main Title")).toHaveValue(NEW_TITLE);
});
