import { expect, test } from "@playwright/test";
import { expectAccessible } from "./a11y";
import { createThroughWizard, registerThroughForm, shot, uniqueEmail } from "./support";

test("create a campaign through the wizard, watch the preview, then manage it", async ({
  page,
  context,
}) => {
  await context.grantPermissions(["clipboard-read", "clipboard-write"]);
  await registerThroughForm(page, uniqueEmail("wizard"));
  await page.goto("/campaigns");
  await expect(page.getByRole("heading", { name: "No campaigns yet" })).toBeVisible();
  await expect(page.getByText(/Your trial includes 1 campaign/)).toBeVisible();
  await shot(page, "30-campaigns-empty");
  await expectAccessible(page, "campaigns-empty");
  await page.getByRole("button", { name: "New Campaign" }).click();
  await page.waitForURL("**/campaigns/create");

  await expect(page.getByText("Step 1 of 4: Basic Info")).toBeVisible();
  await expect(page.getByText("25%")).toBeVisible();
  await expect(page.getByRole("button", { name: "Previous" })).toBeDisabled();
  await page.getByLabel(/^Campaign Name/).fill("Diwali exit offer");
  await page.getByLabel(/^Website URL/).fill("https://kesar-handlooms.example.in");
  await expect(page.getByRole("tab", { name: /Basic Info/ })).toHaveAttribute(
    "data-complete",
    "true",
  );
  await page.getByRole("button", { name: "Next" }).click();

  await expect(page.getByText("Step 2 of 4: Design")).toBeVisible();
  const preview = page.getByTestId("popup-preview");
  await expect(preview).toContainText("Wait! Before you go...");
  await page.getByLabel("Header title").fill("Wait! 10% off for you");
  await expect(preview).toContainText("Wait! 10% off for you");
  await page.getByText("Large", { exact: true }).click();
  await expect(preview.locator("[data-popup-size]")).toHaveAttribute("data-popup-size", "large");
  await page.getByRole("button", { name: "Add Badge" }).click();
  await expect(preview).toContainText("✨ New Badge");
  await page.getByRole("button", { name: "Remove badge 1" }).click();
  await expect(preview).not.toContainText("Secure");
  await shot(page, "31-wizard-design");
  await expectAccessible(page, "wizard-design-badges");
  await page.getByRole("button", { name: "Next" }).click();

  await expect(page.getByText("Step 3 of 4: Targeting")).toBeVisible();
  await page.getByLabel("Tablet").uncheck();
  await page.getByRole("button", { name: "Next" }).click();

  await expect(page.getByText("Step 4 of 4: AI Assistant")).toBeVisible();
  await expect(preview).toContainText(
    "Hi! I noticed you're about to leave. What can I help you with?",
  );
  await page.getByLabel("Initial Message").fill("Namaste! Need help choosing a saree?");
  await expect(preview).toContainText("Namaste! Need help choosing a saree?");
  await expect(page.getByText("36/1000")).toBeVisible();
  await page.getByRole("button", { name: "Hide Preview" }).click();
  await expect(preview).toHaveCount(0);
  await page.getByRole("button", { name: "Show Preview" }).click();
  await shot(page, "32-wizard-ai");
  await page.getByRole("button", { name: "Create Campaign" }).click();
  await page.waitForURL("**/campaigns");

  const card = page.getByTestId("campaign-card");
  await expect(card).toHaveCount(1);
  await expect(card).toContainText("Diwali exit offer");
  await expect(card).toContainText("Active");
  await expect(card).toContainText("0.0%");
  await expect(page.getByRole("button", { name: "Upgrade for More" })).toBeVisible();
  await card.getByRole("button", { name: "Show details" }).click();
  await expect(card).toContainText("Enabled");
  await expect(card).toContainText("1000 ms");
  await expect(card.locator("pre").first()).toContainText("data-campaign-id=");
  await card.getByRole("button", { name: "Copy", exact: true }).click();
  await expect(card.getByRole("button", { name: "Copied!" })).toBeVisible();
  const copied = await page.evaluate(() => navigator.clipboard.readText());
  expect(copied).toMatch(
    /<script src="http:\/\/127\.0\.0\.1:\d+\/widget\/ca-widget\.js" data-campaign-id="[0-9a-f-]{36}"/,
  );
  await shot(page, "33-campaign-expanded");
  await expectAccessible(page, "campaign-card-expanded");
  await expect(card.getByRole("button", { name: "Copy", exact: true })).toBeVisible({
    timeout: 4_000,
  });
  // The CSP lines copy as they show, with this server's origin.
  await card.getByRole("button", { name: "Copy directives" }).click();
  const origin = new URL(page.url()).origin;
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(
    `script-src 'self' ${origin};\nconnect-src 'self' ${origin};`,
  );
  await card.getByRole("tab", { name: "Conversion Script" }).click();
  await expect(card.getByText(/caTrack\('purchase'/)).toBeVisible();

  await card.getByRole("button", { name: "Pause campaign" }).click();
  await expect(card).toContainText("Inactive");
  await card.getByRole("button", { name: "Activate campaign" }).click();
  await expect(card.getByText("Active", { exact: true })).toBeVisible();

  await card.getByRole("button", { name: "Delete campaign" }).click();
  const dialog = page.getByRole("dialog", { name: "Delete campaign" });
  await expect(dialog).toContainText("Diwali exit offer");
  await shot(page, "34-delete-confirm");
  await expectAccessible(page, "campaign-delete-confirm");
  await dialog.getByRole("button", { name: "Delete" }).click();
  await expect(page.getByRole("heading", { name: "No campaigns yet" })).toBeVisible();
});

test("at the trial limit: Upgrade Required, demo upgrade, and the new plan's own limit", async ({
  page,
}) => {
  await registerThroughForm(page, uniqueEmail("limit"));
  await createThroughWizard(page, "First offer");
  await page.waitForURL("**/campaigns");

  await page.goto("/campaigns/create");
  await expect(page.getByRole("heading", { name: "Upgrade Required" })).toBeVisible();
  await expect(
    page.getByText("Your free trial includes 1 campaign, and you have used it."),
  ).toBeVisible();
  await expect(page.getByTestId("gate-price")).toContainText("The Basic plan is ₹");
  await shot(page, "35-upgrade-required");
  await expectAccessible(page, "upgrade-required");
  await page.getByRole("button", { name: "Upgrade to Basic" }).click();
  await page.waitForURL("**/mock-payment?**");
  await page.getByRole("button", { name: "Complete Payment" }).click();
  await page.waitForURL("**/settings/billing?success=true", { timeout: 10_000 });

  // Basic allows one campaign, which is used: the wizard opens but the server refuses.
  await createThroughWizard(page, "Second offer");
  // (The live preview's popup has an alert region of its own for its form's errors, empty.)
  await expect(page.getByRole("alert").filter({ hasText: /\S/ })).toContainText(
    "You have reached your campaign limit. Please upgrade your plan to create more campaigns.",
  );
  await shot(page, "36-wizard-limit-error");
  await expectAccessible(page, "wizard-limit-error");
  await page.goto("/campaigns");
  await expect(page.getByTestId("campaign-card")).toHaveCount(1);
  await expect(page.getByRole("button", { name: "Upgrade for More" })).toBeVisible();
});
