import { expect, test } from "@playwright/test";
import { expectAccessible } from "./a11y";
import { createThroughWizard, registerThroughForm, shot, uniqueEmail } from "./support";

const BASE = process.env.E2E_BASE_URL ?? "http://127.0.0.1:8080";

// Served over plain http on a LAN name, as a self-hosted install often is: convertassist.lan
// reaches the test server, and is not localhost, so the page is not a secure context.
const lan = `http://convertassist.lan:${new URL(BASE).port || "80"}`;
test.use({
  baseURL: lan,
  launchOptions: {
    executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
    args: [
      "--no-sandbox",
      "--disable-gpu",
      "--disable-background-networking",
      "--disable-component-update",
      "--no-first-run",
      "--disable-quic",
      "--disable-sync",
      "--host-resolver-rules=MAP convertassist.lan 127.0.0.1",
    ],
  },
});

test("an owner adds, edits and saves a conversion form, and copies the script", async ({
  page,
}) => {
  const errors: string[] = [];
  page.on("pageerror", (e) => errors.push(e.message));
  await registerThroughForm(page, uniqueEmail("lan"));
  expect(await page.evaluate(() => window.isSecureContext)).toBe(false);
  expect(await page.evaluate(() => typeof crypto.randomUUID)).toBe("undefined");

  await createThroughWizard(page, "LAN offer");
  await page.waitForURL("**/campaigns");
  // The script copies without navigator.clipboard (also missing outside secure contexts).
  const install = page.getByTestId("install-now");
  await install.getByRole("button", { name: "Copy" }).first().click();
  await expect(install.getByRole("button", { name: "Copied!" })).toBeVisible();

  await page.getByRole("link", { name: "Edit campaign" }).click();
  await page.waitForURL(/\/edit$/);
  await page.getByRole("tab", { name: "Conversion Forms" }).click();
  await page.getByRole("button", { name: "Add form" }).click();
  await page.getByRole("menuitem", { name: "Coupon" }).click();
  const forms = page.getByTestId("conversion-form");
  await expect(forms).toHaveCount(1);
  await page.getByRole("button", { name: "Duplicate Discount coupon" }).click();
  await expect(forms).toHaveCount(2);
  await page.getByRole("button", { name: "Edit Discount coupon", exact: true }).click();
  await page.getByLabel("Form name").first().fill("Monsoon coupon");
  await page.getByRole("button", { name: "Add field" }).first().click();
  await page.getByLabel("Monsoon coupon field 3 label").fill("City");
  await page.getByRole("button", { name: "Save changes" }).click();
  await expect(page.getByText("Campaign updated successfully!")).toBeVisible();
  await shot(page, "67-lan-forms-saved");
  await expectAccessible(page, "edit-forms-saved-lan");

  await page.reload();
  await page.getByRole("tab", { name: "Conversion Forms" }).click();
  await expect(forms.nth(0)).toContainText("Monsoon coupon");
  await expect(forms.nth(1)).toContainText("Discount coupon (Copy)");
  await page.getByRole("button", { name: "Edit Monsoon coupon" }).click();
  await expect(page.getByLabel("Monsoon coupon field 3 label")).toHaveValue("City");
  expect(errors).toEqual([]);
});
