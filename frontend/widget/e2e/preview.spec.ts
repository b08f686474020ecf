import { expect, test } from "@playwright/test";
import { API, campaign, owner } from "./support/api";
import { PREVIEW_PARTS, readStyles, savePreview, SCREENSHOTS } from "./support/styles";

/**
 * The dashboard's preview of the journeys' campaign (Edit campaign → Popup Design): its computed
 * styles are what the widget's popup must match on every site (sites.spec.ts compares them).
 */
test("the dashboard's preview of the journeys' campaign", async ({ page, request }) => {
  const token = await owner(request);
  const id = await campaign(request, token, { website: "https://kesar-handlooms.example.in" });
  await page.goto(`${API}/dashboard`);
  await page.evaluate((t) => localStorage.setItem("token", t), token);
  await page.goto(`${API}/campaigns/${id}/edit`);
  await page.getByRole("tab", { name: "Popup Design" }).click();
  const preview = page.getByTestId("popup-preview");
  await expect(preview).toBeVisible();
  await expect(preview.getByText("Wait! Before you go...")).toBeVisible();
  const styles = await readStyles(page, PREVIEW_PARTS);
  savePreview(styles);
  await preview.screenshot({ path: `${SCREENSHOTS}/00-dashboard-preview.png` });
});
