import { expect, test, type Page } from "@playwright/test";
import { checkScreen, expectFits } from "./a11y";
import { registerThroughForm, runSql, seedCounters, shot, uniqueEmail } from "./support";

/** Phone, tablet and desktop, as the issue tried them. */
const VIEWPORTS = [
  { width: 390, height: 844 },
  { width: 768, height: 1024 },
  { width: 1440, height: 900 },
];

async function wizardToCreate(page: Page, name: string) {
  await page.goto("/campaigns/create");
  await page.getByLabel(/^Campaign Name/).fill(name);
  await page.getByLabel(/^Website URL/).fill("https://kesar-handlooms.example.in");
  for (let i = 0; i < 3; i += 1) await page.getByRole("button", { name: "Next" }).click();
  await page.getByRole("button", { name: "Create Campaign" }).click();
  await page.waitForURL("**/campaigns");
}

/** Opens the mobile navigation when the sidebar is folded away. */
async function openNav(page: Page) {
  const burger = page.getByRole("button", { name: "Open navigation" });
  if (await burger.isVisible()) await burger.click();
}

for (const viewport of VIEWPORTS) {
  test.describe(`at ${viewport.width} px`, () => {
    test.use({ viewport });

    test(`every campaign screen fits, reads and passes axe-core at ${viewport.width} px`, async ({
      page,
    }) => {
      test.setTimeout(120_000);
      await registerThroughForm(page, uniqueEmail(`screens${viewport.width}`));

      // Dashboard, first run: the checklist leads to creating a campaign.
      const checklist = page.getByTestId("first-run-checklist");
      await expect(checklist).toContainText("0 of 4 done");
      await checkScreen(page, "dashboard-first-run");

      // Wizard, each step.
      await page.goto("/campaigns/create");
      await expect(page.getByText("Step 1 of 4: Basic Info")).toBeVisible();
      await checkScreen(page, "wizard-basic");
      await page.getByLabel(/^Campaign Name/).fill("Diwali exit offer with a long name");
      await page.getByLabel(/^Website URL/).fill("https://kesar-handlooms.example.in");
      await page.getByRole("button", { name: "Next" }).click();
      await expect(page.getByText("Step 2 of 4: Design")).toBeVisible();
      const preview = page.getByTestId("popup-preview");
      // The preview fits its column: the whole popup, scaled, with nothing cut at the right.
      const box = await preview.boundingBox();
      const popupBox = await preview.locator("[data-popup-size]").boundingBox();
      if (!box || !popupBox) throw new Error("no preview");
      expect(popupBox.x + popupBox.width).toBeLessThanOrEqual(box.x + box.width + 1);
      // The default coral fails with white text: the step says the popup writes near-black.
      await expect(page.getByTestId("contrast-warning")).toContainText("near-black text");
      await checkScreen(page, "wizard-design");
      await page.getByRole("button", { name: "Next" }).click();
      await checkScreen(page, "wizard-targeting");
      await page.getByRole("button", { name: "Next" }).click();
      await checkScreen(page, "wizard-ai");
      await page.getByRole("button", { name: "Create Campaign" }).click();
      await page.waitForURL("**/campaigns");

      // Campaign list, right after creating: the script to install is in view.
      const install = page.getByTestId("install-now");
      await expect(install).toBeVisible();
      await expect(install.locator("pre").first()).toContainText("data-campaign-id=");
      // A site with a Content-Security-Policy: the two directives, with this server's origin.
      const origin = new URL(test.info().project.use.baseURL ?? page.url()).origin;
      const csp = install.getByTestId("csp-directives");
      await expect(csp.locator("pre")).toHaveText(
        `script-src 'self' ${origin};\nconnect-src 'self' ${origin};`,
      );
      await checkScreen(page, "campaigns-installed");

      // Dashboard: one step done, the table (or its phone cards) keeps status and rate readable.
      await page.goto("/dashboard");
      await expect(checklist).toContainText("1 of 4 done");
      await expect(
        page.getByText("Active", { exact: true }).filter({ visible: true }).first(),
      ).toBeVisible();
      await checkScreen(page, "dashboard");

      // The creation gate of a trial owner at the limit: their plan, a price, a way back.
      await page.goto("/campaigns/create");
      await expect(page.getByRole("heading", { name: "Upgrade Required" })).toBeVisible();
      await expect(page.getByText(/Your free trial includes 1 campaign/)).toBeVisible();
      await expect(page.getByTestId("gate-price")).toContainText("₹");
      await checkScreen(page, "creation-gate");
      await page.getByRole("button", { name: "Back to campaigns" }).click();
      await page.waitForURL("**/campaigns");
      await checkScreen(page, "campaigns");

      // Edit, every tab.
      await page.getByRole("link", { name: "Edit campaign" }).click();
      await page.waitForURL(/\/edit$/);
      await expect(page.getByTestId("save-bar")).toContainText("All changes saved");
      await checkScreen(page, "edit-basic");
      for (const [tab, screen] of [
        ["Popup Design", "edit-design"],
        ["Targeting", "edit-targeting"],
        ["AI Settings", "edit-ai"],
      ] as const) {
        await page.getByRole("tab", { name: tab }).click();
        await checkScreen(page, screen);
      }
      await page.getByRole("tab", { name: "Conversion Forms" }).click();
      await page.getByRole("button", { name: "Add form" }).click();
      await page.getByRole("menuitem", { name: "Coupon" }).click();
      await page.getByRole("button", { name: "Edit Discount coupon" }).click();
      const type = page.getByRole("textbox", { name: "Discount coupon field 1 type" });
      await expect(type).toBeVisible();
      // The field editor's inputs keep a usable width and the type reads in full.
      const label = await page.getByLabel("Discount coupon field 1 label").boundingBox();
      expect(label?.width ?? 0).toBeGreaterThanOrEqual(120);
      await expect(type).toHaveValue("Email");
      expect(await type.evaluate((el) => el.scrollWidth <= el.clientWidth)).toBe(true);
      await checkScreen(page, "edit-forms");
      await page.getByRole("button", { name: "Delete Discount coupon" }).click();
      await expect(page.getByRole("dialog", { name: "Delete form" })).toBeVisible();
      await checkScreen(page, "edit-forms-delete");
      await page.getByRole("button", { name: "Cancel" }).click();

      // The navigation (drawer on a phone) with unsaved changes asks first.
      await openNav(page);
      await page.getByRole("link", { name: "Campaigns" }).click();
      await expect(page.getByRole("dialog", { name: "Leave without saving?" })).toBeVisible();
      await checkScreen(page, "edit-leave-guard");
      await page.getByRole("button", { name: "Leave without saving" }).click();
      await page.waitForURL("**/campaigns");
    });
  });
}

test("the wizard checks each field when it is left and on Next, and forgets fixed errors", async ({
  page,
}) => {
  await registerThroughForm(page, uniqueEmail("wizard-validation"));
  await page.goto("/campaigns/create");
  const name = page.getByLabel(/^Campaign Name/);
  const url = page.getByLabel(/^Website URL/);

  // Leaving an empty field says so at once; nothing is said about fields not visited yet.
  await name.focus();
  await url.focus();
  await expect(page.getByText("Campaign name is required")).toBeVisible();
  await expect(page.getByText("Website URL is required")).toHaveCount(0);
  await expect(name).toHaveAttribute("aria-invalid", "true");

  await name.fill("Diwali exit offer");
  await expect(page.getByText("Campaign name is required")).toHaveCount(0);

  // A website without its scheme is caught when the field is left, not on the last step.
  await url.fill("kesar-handlooms.example.in");
  await url.blur();
  await expect(page.getByText(/Please enter a valid website URL/)).toBeVisible();

  // Next stays on the step, shows the error and puts the cursor in the field.
  await page.getByRole("button", { name: "Next" }).click();
  await expect(page.getByText("Step 1 of 4: Basic Info")).toBeVisible();
  await expect(url).toBeFocused();
  await shot(page, "65-wizard-validation");

  await url.fill("https://kesar-handlooms.example.in");
  await expect(page.getByText(/Please enter a valid website URL/)).toHaveCount(0);
  await page.getByRole("button", { name: "Next" }).click();
  await expect(page.getByText("Step 2 of 4: Design")).toBeVisible();

  // The step list works from the keyboard like any tab list.
  const designTab = page.getByRole("tab", { name: /Design/ });
  await designTab.focus();
  await page.keyboard.press("ArrowRight");
  await expect(page.getByRole("tab", { name: /Targeting/ })).toBeFocused();
  await expect(page.getByText("Step 3 of 4: Targeting")).toBeVisible();
  await page.keyboard.press("ArrowLeft");
  await expect(page.getByText("Step 2 of 4: Design")).toBeVisible();

  // Emptying the name later and pressing Create goes back to the step that needs it.
  await page.getByRole("tab", { name: /Basic Info/ }).click();
  await name.fill("");
  await page.getByRole("tab", { name: /AI Assistant/ }).click();
  await page.getByRole("button", { name: "Create Campaign" }).click();
  await expect(page.getByText("Step 1 of 4: Basic Info")).toBeVisible();
  await expect(page.getByText("Campaign name is required")).toBeVisible();
  await expect(name).toBeFocused();
  await name.fill("Diwali exit offer");
  // No error left (the live preview's popup keeps an empty alert region for its form's errors).
  await expect(page.getByRole("alert").filter({ hasText: /\S/ })).toHaveCount(0);
});

test("Edit: the save bar stays in view, Save Design says it saved, leaving unsaved work asks, deleting a form asks", async ({
  page,
}) => {
  await registerThroughForm(page, uniqueEmail("save-bar"));
  await wizardToCreate(page, "Monsoon sale");
  await page.getByRole("link", { name: "Edit campaign" }).click();
  await page.waitForURL(/\/edit$/);
  const bar = page.getByTestId("save-bar");

  // The website is checked when it is left, and Save brings the owner back to it.
  const website = page.getByLabel(/^Website URL/);
  await website.fill("kesar-handlooms");
  await website.blur();
  await expect(page.getByText(/Please enter a valid website URL/)).toBeVisible();
  await page.getByRole("tab", { name: "Targeting" }).click();
  await bar.getByRole("button", { name: "Save changes" }).click();
  await expect(bar).toContainText("Please fix the highlighted fields in Basic Settings.");
  await expect(website).toBeFocused();
  await website.fill("https://kesar-handlooms.example.in");
  await expect(page.getByText(/Please enter a valid website URL/)).toHaveCount(0);

  // Save Design, far down the designer: the message shows where the owner is looking.
  await page.getByRole("tab", { name: "Popup Design" }).click();
  await page.getByLabel("Main Title").fill("Don't miss the monsoon deal");
  await expect(bar).toContainText("You have unsaved changes");
  await page.getByRole("button", { name: "Save Design" }).scrollIntoViewIfNeeded();
  await page.getByRole("button", { name: "Save Design" }).click();
  await expect(bar.getByText("Campaign updated successfully!")).toBeInViewport();
  await shot(page, "66-save-design-message");

  // The bar's Save is in view wherever the owner has scrolled to.
  await page.getByRole("tab", { name: "AI Settings" }).click();
  await page.getByLabel("Custom instructions").fill("Answer in Hindi when asked in Hindi.");
  await page.mouse.wheel(0, 5000);
  await expect(bar.getByRole("button", { name: "Save changes" })).toBeInViewport();

  // Leaving through the app's own navigation asks; Stay keeps the work.
  await page.getByRole("link", { name: "Overview" }).click();
  const guard = page.getByRole("dialog", { name: "Leave without saving?" });
  await expect(guard).toBeVisible();
  await guard.getByRole("button", { name: "Stay" }).click();
  await expect(page).toHaveURL(/\/edit$/);
  await expect(page.getByLabel("Custom instructions")).toHaveValue(
    "Answer in Hindi when asked in Hindi.",
  );

  // Closing the tab or reloading asks the browser's own question.
  const asked = new Promise<string>((resolve) =>
    page.once("dialog", (d) => {
      resolve(d.type());
      void d.dismiss();
    }),
  );
  await page.evaluate(() => window.location.reload());
  expect(await asked).toBe("beforeunload");
  await expect(page.getByLabel("Custom instructions")).toHaveValue(
    "Answer in Hindi when asked in Hindi.",
  );

  // Deleting a form asks first; Cancel keeps it.
  await page.getByRole("tab", { name: "Conversion Forms" }).click();
  await page.getByRole("button", { name: "Add form" }).click();
  await page.getByRole("menuitem", { name: "Coupon" }).click();
  const forms = page.getByTestId("conversion-form");
  await page.getByRole("button", { name: "Delete Discount coupon" }).click();
  const confirm = page.getByRole("dialog", { name: "Delete form" });
  await expect(confirm).toContainText("Discount coupon");
  await confirm.getByRole("button", { name: "Cancel" }).click();
  await expect(forms).toHaveCount(1);
  await page.getByRole("button", { name: "Delete Discount coupon" }).click();
  await confirm.getByRole("button", { name: "Delete" }).click();
  await expect(forms).toHaveCount(0);

  // Saved: the app's navigation goes straight through.
  await bar.getByRole("button", { name: "Save changes" }).click();
  await expect(bar).toContainText("Campaign updated successfully!");
  await page.getByRole("link", { name: "Overview" }).click();
  await page.waitForURL("**/dashboard");
});

test("the password's show/hide toggle is reached with Tab, named, and works from the keyboard", async ({
  page,
}) => {
  await page.goto("/login");
  await page.getByLabel(/^Password/).fill("kesar-123");
  await page.keyboard.press("Tab");
  const toggle = page.getByRole("button", { name: "Show characters" });
  await expect(toggle).toBeFocused();
  await expect(toggle).toHaveAttribute("aria-pressed", "false");
  await page.keyboard.press("Space");
  await expect(page.getByLabel(/^Password/)).toHaveAttribute("type", "text");
  await expect(toggle).toHaveAttribute("aria-pressed", "true");
});

test("the first-run checklist turns green by itself as the first page view and the first lead arrive", async ({
  page,
  request,
}) => {
  test.setTimeout(90_000);
  await registerThroughForm(page, uniqueEmail("first-run"));
  const name = `First run ${Date.now()}`;
  await wizardToCreate(page, name);
  const id = await page.evaluate(async () => {
    const headers = { authorization: `Bearer ${localStorage.getItem("token")}` };
    const list = await (await fetch("/api/campaigns", { headers })).json();
    return list.campaigns[0]._id as string;
  });
  // A visitor in this month's usage is no page view of the campaign's site (the checklist used to
  // guess from it): only the server's firstPageViewAt counts.
  runSql(
    "INSERT INTO monthly_visitors (owner_id, period, visitor_id, first_seen_at) SELECT owner_id, ?, 'v_guess0001', ? FROM campaigns WHERE id = ?",
    new Date().toISOString().slice(0, 7),
    new Date().toISOString(),
    id,
  );
  const firstPageViewAt = () =>
    page.evaluate(async (campaignId) => {
      const headers = { authorization: `Bearer ${localStorage.getItem("token")}` };
      const res = await fetch(`/api/campaigns/${campaignId}/analytics`, { headers });
      return (await res.json()).analytics.firstPageViewAt as string | null;
    }, id);
  await page.goto("/dashboard");
  const checklist = page.getByTestId("first-run-checklist");
  const step = (key: string) => checklist.locator(`[data-step=${key}]`);
  await expect(step("create")).toHaveAttribute("data-done", "true");
  await expect(step("pageView")).toHaveAttribute("data-done", "false");
  await expect(checklist).toContainText(
    "Waiting for a visitor on https://kesar-handlooms.example.in",
  );
  expect(await firstPageViewAt()).toBeNull();

  // The widget on the owner's site reports a page view, as the script does.
  const res = await request.post("/api/widget/events", {
    headers: { origin: "https://kesar-handlooms.example.in", "content-type": "text/plain" },
    data: JSON.stringify({ campaignId: id, visitorId: "v_firstrun0001", type: "pageview" }),
  });
  expect(res.ok(), await res.text()).toBe(true);
  // No reload: the dashboard looks again by itself.
  await expect(step("pageView")).toHaveAttribute("data-done", "true", { timeout: 20_000 });
  await expect(step("install")).toHaveAttribute("data-done", "true");
  await expect(checklist).toContainText("3 of 4 done");
  expect(await firstPageViewAt()).not.toBeNull();
  await shot(page, "68-first-run-page-view");

  // Next month, in another browser: the month's visitors start again at 0 and nothing is
  // remembered locally, yet the step stays green, from firstPageViewAt alone.
  runSql(
    "DELETE FROM monthly_visitors WHERE owner_id = (SELECT owner_id FROM campaigns WHERE id = ?)",
    id,
  );
  await page.evaluate(() => localStorage.removeItem("ca_first_run"));
  await page.reload();
  await expect(step("pageView")).toHaveAttribute("data-done", "true");
  await expect(step("install")).toHaveAttribute("data-done", "true");
  await expect(checklist).toContainText("3 of 4 done");
  // At the default 1280 px too: the table keeps its status and rate whole.
  await expectFits(page, "dashboard at 1280px");

  // The first lead completes it, and the checklist goes.
  seedCounters(name, 1, 1, 0);
  await expect(checklist).toHaveCount(0, { timeout: 20_000 });
  await page.reload();
  await expect(page.getByText("Campaign Performance")).toBeVisible();
  await expect(checklist).toHaveCount(0);
});

test("Popup Design shows the contrast of the owner's colours and the text colour the popup picks", async ({
  page,
}) => {
  await registerThroughForm(page, uniqueEmail("contrast"));
  await wizardToCreate(page, "Contrast check");
  await page.getByRole("link", { name: "Edit campaign" }).click();
  await page.waitForURL(/\/edit$/);
  await page.getByRole("tab", { name: "Popup Design" }).click();
  const note = page.getByTestId("contrast-note");
  const warning = page.getByTestId("contrast-warning");
  const submit = page.getByTestId("popup-preview").getByRole("button", { name: "Get My Offer" });

  // The default coral: white would be 2.7x:1; the popup writes near-black, and its preview too.
  await expect(warning).toContainText(/White on #ff6b6b is only 2\.7\d:1, below 4\.5:1/);
  await expect(warning).toContainText("near-black text (#050505)");
  await expect(note).toContainText(/Button and visitor messages: near-black text, \d+\.\d\d:1/);
  await expect(submit).toHaveCSS("color", "rgb(5, 5, 5)");
  await checkScreen(page, "edit-design-contrast");

  // A dark blue: white reads, nothing to warn about.
  await page.getByRole("button", { name: "Ocean Blue" }).click();
  await expect(warning).toHaveCount(0);
  await expect(note).toContainText(
    /Button and visitor messages: white text, \d+\.\d\d:1 \(passes\)/,
  );
  await expect(submit).toHaveCSS("color", "rgb(255, 255, 255)");

  // White to black: no text colour reads on both ends of the header's gradient.
  await page.getByRole("textbox", { name: "Primary" }).fill("#ffffff");
  await page.getByRole("textbox", { name: "Secondary" }).fill("#000000");
  await expect(warning).toContainText("No text colour reads on both ends");
  await shot(page, "67-design-contrast-warning");
});
