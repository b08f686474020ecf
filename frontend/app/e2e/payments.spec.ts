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

/**
 * Full-page screenshots of the current screen at desktop, tablet and phone widths, named
 * `{name}-{width}.png`; at every width the page must not scroll sideways.
 */
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

/** Presses a plan's buy button on the billing page and lands on the simulator's hosted page. */
async function choosePlan(page: Page, plan: string) {
  await page
    .getByTestId(`plan-${plan}`)
    .getByRole("button", { name: /^Choose/ })
    .click();
  await page.waitForURL("**/payment/simulator**");
  await expect(page.getByText("PayU simulator: no real money moves")).toBeVisible();
}

/** Buys `plan` through the simulator; returns the transaction id of the success page. */
async function buy(page: Page, plan: string, cycle: "monthly" | "annual" = "monthly") {
  await page.goto("/billing");
  if (cycle === "annual") await page.getByRole("switch", { name: "Annual" }).check();
  await choosePlan(page, plan);
  await page.getByRole("button", { name: /^Pay/ }).click();
  await page.waitForURL("**/payment/success?**");
  await expect(page.getByRole("heading", { name: "Payment Successful!" })).toBeVisible();
  return new URL(page.url()).searchParams.get("txnid") ?? "";
}

/** Starts buying `plan` and presses Fail in the simulator; ends on the failure page. */
async function failPayment(page: Page, plan: string) {
  await page.goto("/billing");
  await choosePlan(page, plan);
  await page.getByRole("button", { name: /^Fail/ }).click();
  await page.waitForURL("**/payment/failure?**");
  await expect(page.getByRole("heading", { name: "Payment Failed" })).toBeVisible();
  return new URL(page.url()).searchParams.get("txnid") ?? "";
}

test("buy Basic monthly through the simulator and see it active", async ({ page }) => {
  await registerThroughForm(page, uniqueEmail("pay-monthly"));
  await page.goto("/billing");
  await expect(page.getByRole("heading", { name: "Billing & Subscription" })).toBeVisible();
  await expect(page.getByText("Trial", { exact: true })).toBeVisible();
  await expect(page.getByText(/\d+ days? remaining in your trial/)).toBeVisible();
  await expect(page.getByRole("button", { name: "Upgrade Before Trial Ends" })).toBeVisible();
  await expect(page.getByRole("button", { name: "Cancel Subscription" })).toBeDisabled();
  await expect(page.getByRole("switch", { name: "Annual" })).not.toBeChecked();
  const basic = page.getByTestId("plan-basic");
  await expect(basic).toContainText("₹999 / month");
  await expect(basic).toContainText("₹11,988");
  await expect(basic).toContainText("Save ₹1,998");
  await expect(page.getByTestId("plan-free").getByRole("button")).toHaveText("Current Plan");
  await expect(page.getByText("Custom Pricing")).toBeVisible();
  // Scoped to the enterprise card: a plan priced outside INR also offers sales.
  await expect(
    page.getByTestId("plan-enterprise").getByRole("link", { name: "Contact Sales" }),
  ).toHaveAttribute("href", /^mailto:.*subject=Enterprise/);
  await expect(page.getByText("No transactions yet.")).toBeVisible();
  await shotsAtWidths(page, "80-billing-trial");

  await page.getByRole("button", { name: "Upgrade Before Trial Ends" }).click();
  await expect(page.getByRole("heading", { name: "Plans" })).toBeInViewport();

  await choosePlan(page, "basic");
  // The simulator's hosted page shows the amount the server computed.
  await expect(page.getByText("₹999.00", { exact: true })).toBeVisible();
  await page.getByRole("button", { name: /^Pay/ }).click();
  await page.waitForURL("**/payment/success?**");
  await expect(page.getByRole("heading", { name: "Payment Successful!" })).toBeVisible();
  const txnid = new URL(page.url()).searchParams.get("txnid") ?? "";
  expect(txnid).not.toBe("");
  await expect(page.getByText(txnid)).toBeVisible();
  await expect(page.getByText("₹999", { exact: true })).toBeVisible();
  await expect(page.getByText(/Basic/)).toBeVisible();
  await shotsAtWidths(page, "81-payment-success");

  await page.getByRole("link", { name: "View Billing" }).click();
  await page.waitForURL("**/settings/billing");
  await expect(page.getByTestId("plan-basic").getByRole("button")).toHaveText("Current Plan");
  await shotsAtWidths(page, "86-settings-billing");

  await page.goto("/billing");
  await expect(page.getByText("Active", { exact: true })).toBeVisible();
  await expect(page.getByText("Basic", { exact: true }).first()).toBeVisible();
  await expect(page.getByText(/^Next billing date: /)).toBeVisible();
  await expect(page.getByText("Billed monthly")).toBeVisible();
  await expect(page.getByRole("button", { name: "Upgrade Plan" })).toBeVisible();
  await expect(page.getByTestId("plan-basic").getByRole("button")).toBeDisabled();
  await expect(page.getByTestId("plan-free").getByRole("button")).toHaveText("Free Plan");
  const recent = page.getByTestId("recent-transactions").getByRole("listitem");
  await expect(recent).toHaveCount(1);
  await expect(recent).toContainText("₹999");
  await expect(recent).toContainText("Success");
  await shotsAtWidths(page, "80-billing-active");
});

test("buy Basic annually: ten months' price", async ({ page }) => {
  await registerThroughForm(page, uniqueEmail("pay-annual"));
  await page.goto("/billing");
  await page.getByRole("switch", { name: "Annual" }).check();
  const basic = page.getByTestId("plan-basic");
  await expect(basic).toContainText("₹9,990 / year");
  await expect(basic).toContainText("₹11,988");
  await expect(page.getByText("Save 2 months!")).toBeVisible();
  await shot(page, "80-billing-annual-1280");
  await expectAccessible(page, "80-billing-annual");
  await choosePlan(page, "basic");
  await expect(page.getByText("₹9990.00", { exact: true })).toBeVisible();
  await page.getByRole("button", { name: /^Pay/ }).click();
  await page.waitForURL("**/payment/success?**");
  await expect(page.getByRole("heading", { name: "Payment Successful!" })).toBeVisible();
  await expect(page.getByText("₹9,990", { exact: true })).toBeVisible();
  await expect(page.getByText(/Annual/)).toBeVisible();

  await page.goto("/billing");
  await expect(page.getByText("Billed annually")).toBeVisible();
  await expect(page.getByTestId("recent-transactions").getByRole("listitem")).toContainText(
    "₹9,990",
  );
});

test("a failed payment shows the failure page; Try Again returns to billing", async ({ page }) => {
  await registerThroughForm(page, uniqueEmail("pay-fail"));
  const txnid = await failPayment(page, "basic");
  await expect(page.getByText("We couldn't process your payment...")).toBeVisible();
  await expect(
    page.getByText("If you continue to experience issues, please contact our support team."),
  ).toBeVisible();
  await expect(page.getByRole("link", { name: "contact our support team" })).toHaveAttribute(
    "href",
    new RegExp(`^mailto:support@convertassist\\.in\\?subject=Payment%20failed%3A%20${txnid}`),
  );
  await expect(page.getByText(txnid)).toBeVisible();
  await shotsAtWidths(page, "82-payment-failure");
  await page.getByRole("link", { name: "Try Again" }).click();
  await page.waitForURL("**/settings/billing");
  await expect(page.getByTestId("plan-basic").getByRole("button")).toHaveText("Choose Basic");

  // The invite-only plan offers an invite request, not a checkout that would be refused.
  const beta = page.getByTestId("plan-beta");
  await expect(beta.getByRole("button", { name: "Choose Beta" })).toHaveCount(0);
  await expect(beta.getByRole("link", { name: "Request an invite" })).toHaveAttribute(
    "href",
    /^mailto:support@convertassist\.in\?subject=Invite%20request/,
  );
  await shot(page, "82-billing-invite-only");
  await expectAccessible(page, "82-billing-invite-only");

  await page.goto("/payment/failure");
  await expect(page.getByRole("alert")).toHaveText("Payment was not completed");
  await page.goto("/payment/failure?error=bounced&error_Message=Bank%20declined%20the%20card");
  await expect(page.getByRole("alert")).toHaveText("Bank declined the card");
  await expectAccessible(page, "82-payment-failure-bank-message");
  await page.goto("/payment/failure?error=usercancelled");
  await expect(page.getByRole("alert")).toHaveText("usercancelled");
});

test("the status page polls a pending payment until it succeeds", async ({ page, context }) => {
  await registerThroughForm(page, uniqueEmail("pay-polling"));
  await page.goto("/billing");
  await choosePlan(page, "basic");
  const txnid = (await page.locator("dt:has-text('Transaction') + dd").textContent()) ?? "";
  expect(txnid).not.toBe("");

  // While the buyer is still on the payment page, the payment is pending.
  const status = await context.newPage();
  await status.goto(`/payment/status?txnid=${txnid}&status=pending`);
  await expect(status.getByRole("heading", { name: "Verifying Payment" })).toBeVisible();
  await shot(status, "83-payment-status-verifying");
  await expectAccessible(status, "83-payment-status-verifying");
  await status.waitForTimeout(3500);
  await expect(status.getByRole("heading", { name: "Verifying Payment" })).toBeVisible();

  await page.getByRole("button", { name: /^Pay/ }).click();
  await page.waitForURL("**/payment/success?**");
  await expect(status.getByRole("heading", { name: "Payment Successful" })).toBeVisible({
    timeout: 5_000,
  });
  await expect(status.getByText("₹999", { exact: true })).toBeVisible();
});

test("the status page of a paid payment, and its errors", async ({ page }) => {
  await registerThroughForm(page, uniqueEmail("pay-status"));
  const txnid = await buy(page, "basic");

  await page.goto(`/payment/status?txnid=${txnid}&status=pending`);
  await expect(page.getByRole("heading", { name: "Payment Successful" })).toBeVisible();
  await expect(page.getByText(txnid)).toBeVisible();
  await expect(page.getByText("₹999", { exact: true })).toBeVisible();
  await shotsAtWidths(page, "83-payment-status-success");
  await page.getByRole("link", { name: "Go to Billing" }).click();
  await page.waitForURL("**/billing");

  await page.goto("/payment/status");
  await expect(page.getByRole("heading", { name: "Verification Error" })).toBeVisible();
  await expect(page.getByText("Transaction ID not found")).toBeVisible();
  await shotsAtWidths(page, "83-payment-status-error");

  await page.goto(`/payment/status?txnid=${txnid}&error=Card%20expired`);
  await expect(page.getByRole("heading", { name: "Payment Failed" })).toBeVisible();
  await expect(page.getByText("Card expired")).toBeVisible();
  await expectAccessible(page, "83-payment-status-failed");
  await expect(page.getByRole("link", { name: "Try Again" })).toHaveAttribute("href", "/billing");

  await page.goto("/payment/status?txnid=CANOSUCHPAYMENT");
  await expect(page.getByText("Transaction ID not found")).toBeVisible();

  // Signed out, the result pages still open (they are public).
  await page.evaluate(() => localStorage.removeItem("token"));
  await page.goto(`/payment/success?txnid=${txnid}`);
  await expect(page.getByRole("heading", { name: "Payment Processing" })).toBeVisible();
  await expect(
    page.getByText("We're processing your payment. This may take a few moments."),
  ).toBeVisible();
  await expect(page.getByRole("link", { name: "Sign in" })).toBeVisible();
  await shot(page, "81-payment-processing-signed-out");
  await expectAccessible(page, "81-payment-processing-signed-out");
});

test("payment history: filters, totals and the CSV export", async ({ page }) => {
  await registerThroughForm(page, uniqueEmail("pay-history"));
  const failed = await failPayment(page, "basic");
  const paid = await buy(page, "basic");

  await page.goto("/billing");
  await page.getByRole("link", { name: "View Full History" }).click();
  await page.waitForURL("**/billing/history");
  await expect(page.getByRole("heading", { name: "Payment History" })).toBeVisible();
  const tile = (label: string) =>
    page.getByText(label, { exact: true }).locator("xpath=following-sibling::*[1]");
  await expect(tile("Total Transactions")).toHaveText("2");
  await expect(tile("Total Amount")).toHaveText("₹999");
  await expect(tile("Successful")).toHaveText("1");
  await expect(tile("Failed")).toHaveText("1");
  const rows = page.locator("tbody tr");
  await expect(rows).toHaveCount(2);
  await expect(page.getByRole("row", { name: new RegExp(paid) })).toContainText("Success");
  await expect(page.getByRole("row", { name: new RegExp(failed) })).toContainText("Failed");
  await expect(
    page.getByRole("row", { name: new RegExp(paid) }).getByRole("link", { name: "Invoice" }),
  ).toBeVisible();
  await expect(
    page.getByRole("row", { name: new RegExp(failed) }).getByRole("link", { name: "Invoice" }),
  ).toHaveCount(0);
  await shotsAtWidths(page, "84-payment-history");

  await page.getByRole("textbox", { name: "Status" }).click();
  await page.getByRole("option", { name: "Failed" }).click();
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toContainText(failed);
  await expect(tile("Total Transactions")).toHaveText("1");
  await expect(tile("Total Amount")).toHaveText("₹0");

  await page.getByRole("textbox", { name: "Status" }).click();
  await page.getByRole("option", { name: "All" }).click();
  await page.getByRole("textbox", { name: "Search" }).fill(paid.toLowerCase());
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toContainText(paid);
  await page.getByRole("textbox", { name: "Search" }).fill("BASIC");
  await expect(rows).toHaveCount(2);
  await page.getByRole("textbox", { name: "Search" }).fill("no such payment");
  await expect(page.getByText("No transactions found")).toBeVisible();
  await page.getByRole("textbox", { name: "Search" }).fill("");

  await page.getByRole("textbox", { name: "Date" }).click();
  await page.getByRole("option", { name: "Today" }).click();
  await expect(rows).toHaveCount(2);
  await page.getByRole("textbox", { name: "Date" }).click();
  await page.getByRole("option", { name: "Last year" }).click();
  await expect(rows).toHaveCount(2);

  const [download] = await Promise.all([
    page.waitForEvent("download"),
    page.getByRole("button", { name: "Export CSV" }).click(),
  ]);
  const today = new Date();
  const pad = (n: number) => String(n).padStart(2, "0");
  const date = `${today.getFullYear()}-${pad(today.getMonth() + 1)}-${pad(today.getDate())}`;
  expect(download.suggestedFilename()).toBe(`payment-history-${date}.csv`);
  const csv = readFileSync((await download.path()) ?? "", "utf8");
  const lines = csv.trimEnd().split("\r\n");
  expect(lines[0]).toBe("Transaction ID,Date,Amount,Description,Status,Payment Mode");
  expect(lines).toHaveLength(3);
  const paidRow = lines.find((l) => l.startsWith(`${paid},`)) ?? "";
  const failedRow = lines.find((l) => l.startsWith(`${failed},`)) ?? "";
  expect(paidRow).toMatch(new RegExp(`^${paid},${date},999,[^,]*Basic[^,]*,success,[^,]+$`));
  expect(failedRow).toMatch(new RegExp(`^${failed},${date},999,[^,]*Basic[^,]*,failure,`));
});

test("the invoice of a payment prints to a clean A4 page", async ({ page }) => {
  await registerThroughForm(page, uniqueEmail("pay-invoice"), "Aarav Mehta");
  const paid = await buy(page, "basic");
  await page.goto("/billing/history");
  await page
    .getByRole("row", { name: new RegExp(paid) })
    .getByRole("link", { name: "Invoice" })
    .click();
  await page.waitForURL(`**/billing/invoice/${paid}`);
  const invoice = page.locator("[data-invoice]");
  await expect(invoice.getByRole("heading", { name: "INVOICE" })).toBeVisible();
  await expect(invoice).toContainText(/No\. \S+/);
  await expect(invoice).toContainText("ConvertAssist");
  await expect(invoice).toContainText("Aarav Mehta");
  await expect(invoice).toContainText("Basic plan, Monthly subscription");
  await expect(invoice).toContainText("₹999");
  await expect(invoice).toContainText(paid);
  await expect(page.getByRole("button", { name: "Print" })).toBeVisible();
  await shotsAtWidths(page, "85-invoice");

  // Printing shows only the invoice: no shell, no buttons.
  await page.emulateMedia({ media: "print" });
  await expect(page.getByRole("button", { name: "Print" })).toBeHidden();
  await expect(page.getByRole("navigation", { name: "Main" })).toBeHidden();
  await expect(page.getByRole("link", { name: "Back to Payment History" })).toBeHidden();
  await page.emulateMedia({ media: null });
  const pdf = `${SCREENSHOTS}/85-invoice.pdf`;
  await page.pdf({ path: pdf, format: "A4" });
  expect(readFileSync(pdf).subarray(0, 5).toString()).toBe("%PDF-");
  // With poppler-utils installed: the PDF's text, and a PNG of its first page to look at.
  if (hasCommand("pdftotext")) {
    const text = execFileSync("pdftotext", ["-layout", pdf, "-"], { encoding: "utf8" });
    expect(text).toContain("INVOICE");
    expect(text).toContain(paid);
    expect(text).toContain("Aarav Mehta");
    expect(text).not.toContain("Back to Payment History");
    expect(text).not.toContain("Overview");
    expect(text.split("\f").filter((page) => page.trim() !== "")).toHaveLength(1);
    execFileSync("pdftoppm", [
      "-png",
      "-r",
      "60",
      "-singlefile",
      pdf,
      `${SCREENSHOTS}/85-invoice-pdf`,
    ]);
  }

  await page.goto("/billing/invoice/CANOSUCHPAYMENT");
  await expect(page.getByRole("heading", { name: "Invoice not found" })).toBeVisible();
  await shot(page, "85-invoice-not-found");
  await expectAccessible(page, "85-invoice-not-found");
});

test("cancel a subscription after confirming; it runs to the period's end", async ({ page }) => {
  await registerThroughForm(page, uniqueEmail("pay-cancel"));
  await buy(page, "basic");
  await page.goto("/billing");
  await expect(page.getByText(/^Next billing date: /)).toBeVisible();
  await page.getByRole("button", { name: "Cancel Subscription" }).click();
  const dialog = page.getByRole("dialog", { name: "Cancel your subscription?" });
  await expect(dialog).toContainText("free plan");
  await shotsAtWidths(page, "87-cancel-confirm");
  await dialog.getByRole("button", { name: "Keep Subscription" }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByText(/^Next billing date: /)).toBeVisible();

  await page.getByRole("button", { name: "Cancel Subscription" }).click();
  await dialog.getByRole("button", { name: "Cancel Subscription" }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByRole("status")).toBeVisible();
  await expect(page.getByText(/^Your subscription ends on /)).toBeVisible();
  await expect(page.getByText("Cancelled", { exact: true })).toBeVisible();
  await expect(page.getByText("Active", { exact: true })).toBeVisible();
  await expect(page.getByRole("button", { name: "Cancel Subscription" })).toBeDisabled();
  // Still on Basic until the period ends.
  await expect(page.getByTestId("plan-basic").getByRole("button")).toHaveText("Current Plan");
  await shotsAtWidths(page, "87-billing-cancelled");

  // Changed their mind before the period ended: the cancellation is taken back, nothing is paid.
  await page.getByRole("button", { name: "Resume Subscription" }).click();
  await expect(page.getByRole("status")).toContainText("plan is back on");
  await expect(page.getByText(/^Next billing date: /)).toBeVisible();
  await expect(page.getByText("Cancelled", { exact: true })).toHaveCount(0);
  await expect(page.getByRole("button", { name: "Cancel Subscription" })).toBeEnabled();
  await expect(page.getByRole("button", { name: "Resume Subscription" })).toHaveCount(0);
  await shotsAtWidths(page, "87-billing-resumed");
  await page.reload();
  await expect(page.getByText(/^Next billing date: /)).toBeVisible();
  await page.goto("/billing/history");
  await expect(page.getByRole("row").filter({ hasText: "₹999" })).toHaveCount(1);
});

test("a monthly subscriber switches to annual billing from the end of the month", async ({
  page,
}) => {
  await registerThroughForm(page, uniqueEmail("pay-annual-switch"));
  await buy(page, "basic");
  await page.goto("/billing");
  const nextBilling = page.getByText(/^Next billing date: /);
  await expect(nextBilling).toBeVisible();
  const monthEnd = ((await nextBilling.textContent()) ?? "").replace("Next billing date: ", "");
  await expect(page.getByText("Billed monthly")).toBeVisible();
  await expect(
    page.getByText(
      `Pay ₹9,990 for a year of Basic (you save ₹1,998); the year starts when this month ends on ${monthEnd}.`,
    ),
  ).toBeVisible();
  await shotsAtWidths(page, "88-annual-switch-offer");
  await page.getByRole("button", { name: "Switch to annual billing" }).click();
  await expect(page.getByText("Basic Plan (Annual)")).toBeVisible();
  await expect(page.getByRole("button", { name: "Pay ₹9990.00" })).toBeVisible();
  await page.getByRole("button", { name: /^Pay/ }).click();
  await page.waitForURL("**/payment/success?**");
  await page.goto("/billing");
  await expect(page.getByText("Billed annually")).toBeVisible();
  // The year starts where the paid month ends: the same day a year later.
  const yearEnd = monthEnd.replace(/\d{4}$/, (year) => String(Number(year) + 1));
  await expect(page.getByText(`Next billing date: ${yearEnd}`)).toBeVisible();
  await expect(page.getByRole("button", { name: "Switch to annual billing" })).toHaveCount(0);
  // The plan cards keep their states: Basic is the current plan.
  await expect(page.getByTestId("plan-basic").getByRole("button")).toHaveText("Current Plan");
  await shotsAtWidths(page, "88-annual-switched");
});
