import { expect, test } from "@playwright/test";
import { expectAccessible } from "./a11y";
import { registerThroughForm, shot, uniqueEmail } from "./support";

const LONG_NAME = "Rev2 Test Plan Extended Growth Bundle";

test("the plan cards wait for the subscription call, say when it fails, and wrap long names", async ({
  page,
}) => {
  await registerThroughForm(page, uniqueEmail("plan-cards"));
  // The subscription call fails until Try Again; the plans list gains a plan with a long name.
  let failing = true;
  await page.route("**/api/billing/subscription", async (route) => {
    if (!failing) return route.fallback();
    await route.fulfill({
      status: 503,
      json: { success: false, message: "The service is busy", code: "unavailable" },
    });
  });
  await page.route("**/api/billing/plans", async (route) => {
    const response = await route.fetch();
    const body = (await response.json()) as {
      data: { id: string; displayName: string; popular: boolean }[];
    };
    const basic = body.data.find((p) => p.id === "basic");
    if (basic) body.data.push({ ...basic, id: "rev2-long", displayName: LONG_NAME, popular: true });
    await route.fulfill({ response, json: body });
  });

  await page.goto("/billing");
  const alert = page.getByRole("alert").filter({ hasText: "We couldn't load your current plan" });
  await expect(alert).toBeVisible();
  await expect(alert.getByRole("button", { name: "Try Again" })).toBeVisible();
  // Buying is paused: no "Current Plan" guess, no enabled Choose button.
  await expect(
    page.getByTestId("plan-basic").getByRole("button", { name: "Choose Basic" }),
  ).toBeDisabled();
  await expect(page.getByRole("button", { name: "Current Plan" })).toHaveCount(0);
  await shot(page, "plan-cards-error-1440");
  await expectAccessible(page, "billing-subscription-error");

  failing = false;
  await alert.getByRole("button", { name: "Try Again" }).click();
  await expect(alert).toHaveCount(0);
  await expect(page.getByRole("button", { name: "Current Plan" })).toBeDisabled();
  await expect(
    page.getByTestId("plan-basic").getByRole("button", { name: "Choose Basic" }),
  ).toBeEnabled();

  // The long name is on the button in full, on every width, inside its card.
  const button = page
    .getByTestId("plan-rev2-long")
    .getByRole("button", { name: `Choose ${LONG_NAME}` });
  for (const [width, height] of [
    [1440, 900],
    [768, 1024],
    [390, 844],
  ] as const) {
    await page.setViewportSize({ width, height });
    await button.scrollIntoViewIfNeeded();
    await expect(button).toBeVisible();
    const fits = await button.evaluate((el) => {
      const label = el.querySelector(".mantine-Button-label") ?? el;
      const card = el.closest("[data-testid^='plan-']");
      const b = el.getBoundingClientRect();
      const c = card?.getBoundingClientRect();
      return {
        clipped: label.scrollWidth > label.clientWidth + 1,
        inside: !c || (b.left >= c.left - 1 && b.right <= c.right + 1),
        lines: Math.round(b.height),
      };
    });
    expect(fits.clipped, `label cut at ${width}px`).toBe(false);
    // The card's badge keeps its word beside a long name.
    await expect(
      page.getByTestId("plan-rev2-long").getByText("Popular", { exact: true }),
    ).toBeVisible();
    const badge = await page
      .getByTestId("plan-rev2-long")
      .getByText("Popular", { exact: true })
      .evaluate((el) => el.scrollWidth <= el.clientWidth + 1);
    expect(badge, `badge cut at ${width}px`).toBe(true);
    expect(fits.inside, `button outside its card at ${width}px`).toBe(true);
    await shot(page, `plan-cards-long-name-${width}`);
  }
});
