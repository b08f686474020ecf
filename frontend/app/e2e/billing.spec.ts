import { expect, test } from "@playwright/test";
import { expectAccessible } from "./a11y";
import { registerThroughForm, shot, uniqueEmail } from "./support";

test("upgrade through the demo payment page and see the plan active", async ({ page }) => {
  await registerThroughForm(page, uniqueEmail("upgrade"));
  await page.goto("/settings/billing");
  await expect(page.getByRole("heading", { name: "Billing & Subscription" })).toBeVisible();
  await expect(page.getByText("Visitors this month")).toBeVisible();
  await expect(page.getByText("0 / 1", { exact: true })).toBeVisible();
  // A trial runs on the free plan's id, so Free is the current plan.
  await expect(page.getByRole("button", { name: "Current Plan" })).toBeDisabled();
  await expect(page.getByText("Custom Pricing")).toBeVisible();
  // Scoped to the enterprise card: a plan priced outside INR also offers sales.
  await expect(
    page.getByTestId("plan-enterprise").getByRole("link", { name: "Contact Sales" }),
  ).toHaveAttribute("href", /^mailto:/);
  await shot(page, "20-billing-trial");
  await expectAccessible(page, "settings-billing-trial");

  // The plan cards pay through the payment gateway; the demo payment page is where the
  // checkout call sends the browser. It shows the server's price, whatever the query says.
  const checkoutUrl = await page.evaluate(async () => {
    const response = await fetch("/api/billing/checkout", {
      method: "POST",
      headers: {
        "Content-Type": "application/json",
        Authorization: `Bearer ${localStorage.getItem("token") ?? ""}`,
      },
      body: JSON.stringify({ planId: "basic" }),
    });
    const body = (await response.json()) as { data: { checkoutUrl: string } };
    return body.data.checkoutUrl;
  });
  expect(checkoutUrl).toMatch(/^\/mock-payment\?/);
  await page.goto(checkoutUrl.replace(/price=\d+/, "price=1"));
  await expect(
    page.getByText("This is a demo payment. No actual charges will be made."),
  ).toBeVisible();
  await expect(page.getByText("•••• 4242")).toBeVisible();
  await expect(page.getByText("Expires 12/25")).toBeVisible();
  await expect(page.getByText("₹999")).toBeVisible();
  await expect(page.getByText("₹1", { exact: true })).toHaveCount(0);
  await shot(page, "21-mock-payment");
  await expectAccessible(page, "mock-payment");
  await page.getByRole("button", { name: "Complete Payment" }).click();
  await expect(page.getByRole("button", { name: "Processing payment…" })).toBeDisabled();
  await expect(page.getByRole("heading", { name: "Payment Successful!" })).toBeVisible({
    timeout: 5_000,
  });
  await shot(page, "22-mock-payment-success");
  await expectAccessible(page, "mock-payment-success");
  await page.waitForURL("**/settings/billing?success=true", { timeout: 6_000 });
  await expect(page.getByRole("status")).toContainText("Your plan is active");
  await expect(page.getByRole("button", { name: "Current Plan" })).toBeDisabled();
  await expect(page.getByRole("button", { name: "Free Plan" })).toBeDisabled();
  await expect(page.getByRole("button", { name: "Choose Basic" })).toHaveCount(0);
  await shot(page, "23-billing-active");
  await expectAccessible(page, "settings-billing-paid");
  await page.goto("/billing");
  await expect(page.getByText(/Next billing date/)).toBeVisible();
});

test("an invite-only plan is refused and the page returns to billing", async ({ page }) => {
  await registerThroughForm(page, uniqueEmail("invite"));
  await page.goto("/mock-payment?planId=beta&planName=Beta&price=5000");
  await page.getByRole("button", { name: "Complete Payment" }).click();
  await expect(page.getByRole("alert")).toContainText("invite-only", { timeout: 5_000 });
  await shot(page, "24-mock-payment-invite-only");
  await expectAccessible(page, "mock-payment-refused");
  await page.waitForURL("**/settings/billing", { timeout: 7_000 });
});

test("the demo payment page needs its query", async ({ page }) => {
  await registerThroughForm(page, uniqueEmail("noquery"));
  await page.goto("/mock-payment?planId=basic");
  await page.waitForURL("**/campaigns");
});
