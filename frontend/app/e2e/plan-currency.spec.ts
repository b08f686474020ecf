import { execFileSync } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect, test, type Page } from "@playwright/test";
import { expectAccessible } from "./a11y";
import { PASSWORD, loginThroughForm, shot, uniqueEmail } from "./support";

/** Creates a superuser with the server binary's own command, on the database the e2e server uses. */
function createSuperuser(email: string) {
  const bin = process.env.E2E_SERVER_BIN;
  const db = process.env.E2E_DATABASE_URL;
  const secret = process.env.E2E_JWT_SECRET;
  if (!bin || !db || !secret) {
    throw new Error(
      "E2E_SERVER_BIN, E2E_DATABASE_URL and E2E_JWT_SECRET must be set (cargo xtask test sets them)",
    );
  }
  execFileSync(
    bin,
    [
      "create-superuser",
      "--email",
      email,
      "--name",
      "Kavya Menon",
      "--phone",
      "+91 9000000001",
      "--password",
      PASSWORD,
    ],
    {
      env: {
        ...process.env,
        CA_DATABASE_URL: db,
        CA_JWT_SECRET: secret,
        CA_DATA_DIR: mkdtempSync(join(tmpdir(), "ca-e2e-cli-")),
        CA_LOG: "warn",
      },
      encoding: "utf8",
    },
  );
}

/** Picks an option of a Mantine select by its label. */
async function choose(page: Page, label: string, option: string) {
  await page.getByRole("textbox", { name: label, exact: true }).click();
  await page.getByRole("option", { name: option, exact: true }).click();
}

async function api(page: Page, method: "POST" | "DELETE", path: string, data?: unknown) {
  const token = await page.evaluate(() => localStorage.getItem("token"));
  const res = await page.request.fetch(path, {
    method,
    headers: { Authorization: `Bearer ${token}` },
    data,
  });
  expect(res.status(), await res.text()).toBe(200);
  return (await res.json()) as { data: { user?: { id: string } } };
}

test("staff quick-create a USD yearly plan; the owner sees $49 / year with Contact Sales", async ({
  page,
  browser,
}) => {
  const suffix = String(Date.now()).slice(-6);
  const id = `global-${suffix}`;
  const name = `Global ${suffix}`;
  const rootEmail = uniqueEmail("root-currency");
  createSuperuser(rootEmail);
  await loginThroughForm(page, rootEmail);
  await page.waitForURL("**/dashboard");

  // Quick Create: USD, yearly, 49.
  await page.goto("/admin/plans");
  await page.getByRole("button", { name: "Quick Create" }).click();
  const dialog = page.getByRole("dialog", { name: "Create Plan" });
  await dialog.getByLabel("Plan Name").fill(id);
  await dialog.getByLabel("Display Name").fill(name);
  await dialog.getByLabel("Price").fill("49");
  await choose(page, "Currency", "USD");
  await choose(page, "Billing Interval", "Yearly");
  await dialog.getByLabel("Features").fill("Everything in Basic\nEmail support");
  await dialog.getByRole("button", { name: "Create Plan" }).click();
  await expect(dialog).toHaveCount(0);
  const row = page.getByTestId(`plan-row-${id}`);
  await expect(row).toContainText("$49");
  await expect(row).toContainText("/year");
  await shot(page, "60-plan-currency-admin-list");

  // An owner made by staff, signed in in a browser of their own.
  const ownerEmail = uniqueEmail("owner-currency");
  const created = await api(page, "POST", "/api/admin/users/create-user", {
    name: "Rohan Gupta",
    email: ownerEmail,
    password: PASSWORD,
    phone: "98765 43210",
  });
  const ownerId = created.data.user!.id;
  const context = await browser.newContext();
  const owner = await context.newPage();
  await loginThroughForm(owner, ownerEmail);
  await owner.waitForURL("**/dashboard");
  await owner.goto("/billing");
  const card = owner.getByTestId(`plan-${id}`);
  await expect(card.getByTestId(`price-${id}`)).toHaveText("$49 / year");
  // The annual toggle does not change a yearly plan's price.
  await owner.getByRole("switch", { name: "Annual" }).check();
  await expect(card.getByTestId(`price-${id}`)).toHaveText("$49 / year");
  await owner.getByRole("switch", { name: "Annual" }).uncheck();
  // Checkout charges INR only: the card offers sales, not the buy button.
  await expect(card.getByRole("link", { name: "Contact Sales" })).toHaveAttribute(
    "href",
    /^mailto:/,
  );
  await expect(card).toContainText("Priced in USD");
  await expect(card.getByRole("button")).toHaveCount(0);
  for (const width of [1440, 768, 390]) {
    await owner.setViewportSize({ width, height: 900 });
    await card.scrollIntoViewIfNeeded();
    await expect(card.getByTestId(`price-${id}`)).toHaveText("$49 / year");
    await shot(owner, `61-plan-currency-owner-billing-${width}`);
  }
  await owner.setViewportSize({ width: 1440, height: 900 });
  await expectAccessible(owner, "plan-currency-owner-billing");

  // Staff put the owner on it by hand; the owner sees it in its own terms, with no billing date
  // and nothing to cancel, since nothing is billed.
  const ends = new Date(Date.now() + 365 * 86_400_000).toISOString();
  await api(page, "POST", `/api/admin/users/${ownerId}/change-plan`, {
    planId: id,
    subscriptionStatus: "active",
    subscriptionEndsAt: ends,
  });
  await owner.goto("/billing");
  await expect(owner.getByText(name, { exact: true }).first()).toBeVisible();
  await expect(owner.getByTestId("subscription-price")).toHaveText("$49 / year");
  await expect(owner.getByText(/Your plan runs until/)).toBeVisible();
  await expect(owner.getByText(/Next billing date/)).toHaveCount(0);
  await expect(owner.getByRole("button", { name: "Cancel Subscription" })).toHaveCount(0);
  await expect(card.getByRole("button", { name: "Current Plan" })).toBeDisabled();
  for (const width of [1440, 768, 390]) {
    await owner.setViewportSize({ width, height: 900 });
    await shot(owner, `62-plan-currency-owner-set-by-staff-${width}`);
  }
  await context.close();

  // Deactivating it says who is on it; it is then off the owners' plan list.
  await page.reload();
  await row.getByRole("button", { name: `Deactivate ${name}` }).click();
  await expect(page.getByRole("dialog")).toContainText(
    "1 owner is on this plan; they keep it until their period ends.",
  );
  await page.getByRole("dialog").getByRole("button", { name: "Deactivate" }).click();
  await expect(
    page.getByRole("status").filter({ hasText: "1 owner is on this plan" }),
  ).toContainText("they keep it until their period ends.");
  await expect(row).toContainText("Inactive");
  for (const width of [1440, 768, 390]) {
    await page.setViewportSize({ width, height: 900 });
    await shot(page, `63-plan-currency-deactivated-${width}`);
  }
});
