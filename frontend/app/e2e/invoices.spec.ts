import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { expect, test, type Page } from "@playwright/test";
import { expectAccessible } from "./a11y";
import { registerThroughForm, SCREENSHOTS, shot, uniqueEmail } from "./support";

const WIDTHS = [1440, 768, 390] as const;

function hasCommand(name: string): boolean {
  try {
    execFileSync("sh", ["-c", `command -v ${name}`], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
}

/** Screenshots at desktop, tablet and phone widths; the page must never scroll sideways. */
async function shotsAtWidths(page: Page, name: string) {
  for (const width of WIDTHS) {
    await page.setViewportSize({ width, height: 900 });
    await page.waitForTimeout(250);
    const overflow = await page.evaluate(
      () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
    );
    expect(overflow, `${name} scrolls sideways at ${width} px`).toBeLessThanOrEqual(0);
    await shot(page, `${name}-${width}`);
    await expectAccessible(page, `${name} at ${width}px`);
  }
  await page.setViewportSize({ width: 1280, height: 800 });
}

test("billing details on a GST tax invoice, downloaded as an A4 PDF", async ({ page }) => {
  await registerThroughForm(page, uniqueEmail("gst-invoice"), "Kavya Iyer");

  // The billing details form under Settings → Billing.
  await page.goto("/settings/billing");
  const form = page.getByRole("form", { name: "Billing details" });
  await expect(form).toBeVisible();
  await expect(form.getByLabel("Billed to")).toHaveValue("Kavya Iyer");
  await form.getByLabel("Billing address").fill("12 MG Road\nBengaluru 560001");
  await form.getByRole("textbox", { name: "State or union territory" }).click();
  await form.getByRole("textbox", { name: "State or union territory" }).fill("Karna");
  await page.getByRole("option", { name: "Karnataka (29)" }).click();
  // A mistyped GSTIN is refused with the reason, next to the field.
  await form.getByLabel("GSTIN (optional)").fill("29AAGCB7383J1Z5");
  await form.getByRole("button", { name: "Save billing details" }).click();
  await expect(form.getByRole("alert")).toContainText("check character");
  await expect(form.getByText(/check character is wrong/).last()).toBeVisible();
  await shot(page, "86-billing-details-refused");
  // A GSTIN from another state gets a hint while typing.
  await form.getByLabel("GSTIN (optional)").fill("27AAPFU0939F1ZV");
  await expect(form.getByText("A GSTIN issued in the chosen state starts with 29.")).toBeVisible();
  await form.getByLabel("GSTIN (optional)").fill("29aagcb7383j1z4");
  await form.getByRole("button", { name: "Save billing details" }).click();
  await expect(form.getByRole("status")).toHaveText("Your billing details have been saved.");
  await expect(form.getByLabel("GSTIN (optional)")).toHaveValue("29AAGCB7383J1Z4");
  await page.reload();
  await expect(
    page.getByRole("form", { name: "Billing details" }).getByLabel("Billing address"),
  ).toHaveValue("12 MG Road\nBengaluru 560001");
  await page.getByRole("form", { name: "Billing details" }).scrollIntoViewIfNeeded();
  await shotsAtWidths(page, "86-settings-billing");

  // Pay, then open the invoice from the history.
  await page.goto("/billing");
  await page
    .getByTestId("plan-basic")
    .getByRole("button", { name: /^Choose/ })
    .click();
  await page.waitForURL("**/payment/simulator**");
  await page.getByRole("button", { name: /^Pay/ }).click();
  await page.waitForURL("**/payment/success?**");
  const txnid = new URL(page.url()).searchParams.get("txnid") ?? "";
  await page.goto("/billing/history");
  await page
    .getByRole("row", { name: new RegExp(txnid) })
    .getByRole("link", { name: "Invoice" })
    .click();
  await page.waitForURL(`**/billing/invoice/${txnid}`);
  const invoice = page.locator("[data-invoice]");
  await expect(invoice.getByRole("heading", { name: "TAX INVOICE" })).toBeVisible();
  await expect(invoice).toContainText("Kavya Iyer");
  await expect(invoice).toContainText("12 MG Road");
  await expect(invoice).toContainText("GSTIN: 29AAGCB7383J1Z4");
  await expect(invoice).toContainText("Karnataka (29)");
  await expect(invoice).toContainText("998314");
  await expect(invoice).toContainText(/IGST @ 18%|CGST @ 9%/);
  await expect(invoice).toContainText("₹999.00");
  await expect(invoice).toContainText("Rupees Nine Hundred Ninety Nine Only");
  await shotsAtWidths(page, "87-tax-invoice");

  // "Download PDF" saves the server's A4 PDF of this invoice.
  const number = ((await invoice.textContent()) ?? "").match(/CA-\d{6}/)?.[0] ?? "";
  const [download] = await Promise.all([
    page.waitForEvent("download"),
    page.getByRole("button", { name: "Download PDF" }).click(),
  ]);
  expect(download.suggestedFilename()).toBe(`invoice-${number}.pdf`);
  const file = `${SCREENSHOTS}/87-tax-invoice.pdf`;
  await download.saveAs(file);
  const bytes = readFileSync(file);
  expect(bytes.subarray(0, 5).toString()).toBe("%PDF-");
  const box = bytes.toString("latin1").match(/\/MediaBox\s*\[\s*([\d.\s-]+)\]/)?.[1] ?? "";
  const [x0 = 0, y0 = 0, x1 = 0, y1 = 0] = box.trim().split(/\s+/).map(Number);
  expect(x1 - x0).toBeGreaterThan(595);
  expect(x1 - x0).toBeLessThan(596);
  expect(y1 - y0).toBeGreaterThan(841);
  expect(y1 - y0).toBeLessThan(843);
  if (hasCommand("pdftoppm")) {
    execFileSync("pdftoppm", [
      "-png",
      "-r",
      "80",
      "-singlefile",
      file,
      `${SCREENSHOTS}/87-tax-invoice-pdf`,
    ]);
  }

  // A later profile edit leaves the issued invoice as it was.
  await page.goto("/settings");
  await page.getByLabel("Name").fill("Kavya Someone");
  await page.getByRole("button", { name: "Save changes" }).click();
  await expect(page.getByText("Your changes have been saved.")).toBeVisible();
  await page.goto(`/billing/invoice/${txnid}`);
  await expect(page.locator("[data-invoice]")).toContainText("Kavya Iyer");
  await expect(page.locator("[data-invoice]")).not.toContainText("Kavya Someone");
});
