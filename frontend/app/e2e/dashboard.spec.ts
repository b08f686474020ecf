import { expect, test } from "@playwright/test";
import { expectAccessible } from "./a11y";
import {
  createThroughWizard,
  registerThroughForm,
  seedCounters,
  shot,
  uniqueEmail,
} from "./support";

test("the dashboard shows the campaign's real figures", async ({ page }) => {
  await registerThroughForm(page, uniqueEmail("dash"));
  await expect(page.getByText("No campaigns found")).toBeVisible();
  await expect(page.getByText("No recent activity")).toBeVisible();
  await expect(
    page
      .getByRole("button", { name: "Create Your First Campaign" })
      .or(page.getByRole("link", { name: "Create Your First Campaign" })),
  ).toBeVisible();
  await expectAccessible(page, "dashboard-empty");

  const name = `Festive offer ${Date.now()}`;
  await createThroughWizard(page, name);
  await page.waitForURL("**/campaigns");
  seedCounters(name, 3, 1, 149_950);

  await page.goto("/dashboard");
  await expect(page.getByText("₹1,500")).toBeVisible();
  await expect(page.getByText("33.33%").first()).toBeVisible();
  const metric = (label: string) =>
    page.getByText(label, { exact: true }).locator("xpath=following-sibling::*[1]");
  // The revenue is what the site reported with caTrack, and says so.
  await expect(page.getByText("Reported by your site (caTrack), not verified")).toBeVisible();
  await expect(page.getByTestId("held-orders")).toHaveCount(0);
  await expect(metric("Total Conversions")).toHaveText("1");
  await expect(metric("Active Campaigns")).toHaveText("1");
  await expect(metric("Conversion Rate")).toHaveText("33.33%");
  const row = page.getByRole("row", { name: new RegExp(name) });
  await expect(row).toContainText("3 impressions");
  await expect(row).toContainText("Active");
  await expect(row).toContainText("33.33%");
  await expect(page.getByText("Campaign created")).toBeVisible();
  await expect(page.getByText("1 conversion", { exact: true })).toBeVisible();
  await shot(page, "40-dashboard-figures");
  await expectAccessible(page, "dashboard-figures");

  await page.goto("/campaigns");
  const card = page.getByTestId("campaign-card");
  await expect(card).toContainText("33.3%");
  await expect(card).toContainText("₹1,500");
  await expect(card).toContainText("Reported by your site (caTrack), not verified");
  await expectAccessible(page, "campaigns-figures");
});
