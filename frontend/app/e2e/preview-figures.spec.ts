import { expect, test, type Page } from "@playwright/test";
import { expectAccessible } from "./a11y";
import { createThroughWizard, registerThroughForm, uniqueEmail } from "./support";

/** The campaign's figures as the dashboard reads them, and the month's visitors. */
async function figures(page: Page, id: string) {
  return page.evaluate(async (campaignId) => {
    const headers = { authorization: `Bearer ${localStorage.getItem("token")}` };
    const list = await (await fetch("/api/campaigns", { headers })).json();
    const c = list.campaigns.find((x: { _id: string }) => x._id === campaignId);
    return {
      impressions: c.analytics.impressions as number,
      conversions: c.analytics.conversions as number,
      visitors: list.usage.visitors.current as number,
    };
  }, id);
}

// Needs the server to leave the Preview page's events out of the figures; fails until it does.
test("opening Preview and seeing the popup leaves the campaign's figures as they were", async ({
  page,
  context,
}) => {
  await registerThroughForm(page, uniqueEmail("preview"));
  await createThroughWizard(page, "Preview offer");
  await page.waitForURL("**/campaigns");
  await page.getByRole("link", { name: "Edit campaign" }).click();
  await page.waitForURL(/\/edit$/);
  const id = page.url().split("/").at(-2) ?? "";
  const before = await figures(page, id);
  expect(before).toEqual({ impressions: 0, conversions: 0, visitors: 0 });

  const config = context.waitForEvent("response", (r) =>
    r.url().includes(`/campaigns/${id}/config`),
  );
  const pageView = context.waitForEvent("response", (r) => r.url().endsWith("/api/widget/events"));
  const [preview] = await Promise.all([
    context.waitForEvent("page"),
    page.getByRole("link", { name: "Preview" }).click(),
  ]);
  const campaign = (await (await config).json()).campaign;
  await pageView;
  // Exit intent arms after the campaign's delay and minimum time on the page.
  await preview.waitForTimeout(
    Math.max(campaign.exitIntent.delay, campaign.targeting.minTimeOnPage * 1000) + 300,
  );
  const impression = preview.waitForResponse(
    (r) =>
      r.url().endsWith("/api/widget/events") &&
      (r.request().postData() ?? "").includes("impression"),
  );
  await preview.evaluate(() =>
    document.dispatchEvent(
      new MouseEvent("mouseout", { clientX: 600, clientY: 2, bubbles: true, relatedTarget: null }),
    ),
  );
  await expect(preview.locator("convertassist-widget").getByRole("dialog")).toBeVisible();
  await expectAccessible(preview, "preview-popup", "convertassist-widget");
  // The widget reports the impression; the server may take it, but must not count it.
  await impression;
  await preview.close();

  // Give the batched event writer time to store whatever it was given, then compare.
  await page.waitForTimeout(2000);
  expect(await figures(page, id)).toEqual(before);
  await page.goto("/dashboard");
  await expect(page.getByRole("row", { name: /Preview offer/ })).toContainText("0 impressions");
  await expect(page.getByTestId("first-run-checklist")).toContainText("1 of 4 done");
  await expectAccessible(page, "dashboard-after-preview");
});
