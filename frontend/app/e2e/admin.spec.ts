import { execFileSync } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect, test, type Browser, type Page } from "@playwright/test";
import { expectAccessible } from "./a11y";
import {
  PASSWORD,
  SCREENSHOTS,
  createThroughWizard,
  loginThroughForm,
  shot,
  uniqueEmail,
} from "./support";

/** Creates a superuser with the server binary's own command, on the database the e2e server uses. */
function createSuperuser(email: string, name = "Asha Verma") {
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
      name,
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

async function signInAsNewSuperuser(page: Page, name?: string): Promise<string> {
  const email = uniqueEmail("root");
  createSuperuser(email, name);
  await loginThroughForm(page, email);
  await page.waitForURL("**/dashboard");
  return email;
}

/**
 * An owner made by the signed-in superuser through the admin API (not the sign-up form, so the
 * suite's sign-ups per IP are not spent); with a campaign made in a browser of their own.
 */
async function createOwner(page: Page, browser: Browser, name: string, withCampaign = false) {
  const token = await page.evaluate(() => localStorage.getItem("token"));
  const email = uniqueEmail("owner");
  const res = await page.request.post("/api/admin/users/create-user", {
    headers: { Authorization: `Bearer ${token}` },
    data: { name, email, password: PASSWORD, phone: "+91 9876543210" },
  });
  expect(res.status()).toBe(200);
  if (withCampaign) {
    const context = await browser.newContext();
    const owner = await context.newPage();
    await loginThroughForm(owner, email);
    await owner.waitForURL("**/dashboard");
    await createThroughWizard(owner, `Diwali exit offer ${Date.now()}`);
    await owner.waitForURL("**/campaigns");
    await context.close();
  }
  return email;
}

/** Picks an option of a Mantine select by its label. */
async function choose(page: Page, label: string, option: string | RegExp) {
  await page.getByRole("textbox", { name: label, exact: true }).click();
  await page.getByRole("option", { name: option, exact: typeof option === "string" }).click();
}

async function searchUser(page: Page, email: string) {
  await page.getByRole("textbox", { name: "Search users" }).fill(email);
  await expect(page.getByTestId(`user-row-${email}`)).toBeVisible();
}

test("a superuser creates a plan from a preset and edits it", async ({ page }) => {
  await signInAsNewSuperuser(page);
  await expect(page.getByRole("link", { name: "Admin Dashboard" })).toBeVisible();
  await page.getByRole("link", { name: "Admin Dashboard" }).click();
  await expect(page.getByRole("banner").getByText("Admin Dashboard")).toBeVisible();
  await page.getByRole("link", { name: "Manage Plans" }).click();
  await page.waitForURL("**/admin/plans");
  await expect(page.getByTestId("plan-row-free")).toBeVisible();
  await page.getByRole("link", { name: "Create Plan" }).click();
  await page.waitForURL("**/admin/plans/create");
  await expect(page.getByText("SuperAdmin", { exact: true })).toBeVisible();

  // The client's own checks.
  await page.getByRole("button", { name: "Create Plan" }).click();
  await expect(page.getByRole("alert")).toContainText("Plan name and display name are required");

  await page.getByRole("button", { name: /^Professional/ }).click();
  await expect(page.getByLabel("Plan Name")).toHaveValue("professional");
  await expect(page.getByLabel("Display Name")).toHaveValue("Professional");
  await expect(page.getByLabel("Campaigns")).toHaveValue("5");
  await expect(page.getByRole("switch", { name: "Custom Branding" })).toBeChecked();
  await expect(page.getByRole("switch", { name: "API Access" })).not.toBeChecked();
  const preview = page.getByTestId("plan-preview");
  await expect(preview).toContainText("₹2,999/month");
  await expect(preview).toContainText("25,000 visitors/month");

  const suffix = String(Date.now()).slice(-6);
  await page.getByLabel("Plan Name").fill(`Growth Pro ${suffix}`);
  await expect(page.getByLabel("Plan Name")).toHaveValue(`growth-pro-${suffix}`);
  await page.getByLabel("Display Name").fill(`Growth Pro ${suffix}`);
  await page.getByRole("button", { name: "Create Plan" }).click();
  await expect(page.getByRole("alert")).toContainText("At least one feature is required");

  const feature = page.getByRole("textbox", { name: "Features" });
  await feature.fill("  Exit-intent popups  ");
  await feature.press("Enter");
  await feature.fill("Exit-intent popups");
  await feature.press("Enter");
  await feature.fill("   ");
  await feature.press("Enter");
  await feature.fill("AI sales assistant");
  await feature.press("Enter");
  await expect(page.getByTestId("feature-list").getByText(/./)).toHaveText([
    "Exit-intent popups",
    "AI sales assistant",
  ]);
  await expect(preview).toContainText("AI sales assistant");
  await shot(page, "92-admin-create-plan-filled");
  await expectAccessible(page, "admin-create-plan-filled");

  await page.getByRole("button", { name: "Create Plan" }).click();
  await expect(page.getByText("Plan Created Successfully!")).toBeVisible();
  await expectAccessible(page, "admin-plan-created");
  await page.waitForURL("**/admin/plans", { timeout: 5000 });
  const id = `growth-pro-${suffix}`;
  const row = page.getByTestId(`plan-row-${id}`);
  await expect(row).toContainText("₹2,999");
  await expect(row).toContainText("Active");

  await row.getByRole("link", { name: `Edit Growth Pro ${suffix}` }).click();
  await page.waitForURL(`**/admin/plans/${id}/edit`);
  await expect(page.getByLabel("Plan ID")).toHaveValue(id);
  await expect(page.getByText("Plan ID cannot be changed")).toBeVisible();
  await expect(page.getByText("Use -1 for unlimited")).toBeVisible();
  await page.getByLabel("Display Name").fill(`Growth Pro Plus ${suffix}`);
  await page.getByLabel("Price").fill("3499");
  await page.getByLabel("AI Conversations").fill("-1");
  await page.getByRole("button", { name: "Add Feature" }).click();
  await page.getByRole("textbox", { name: "Feature 3" }).fill("Priority onboarding call");
  await expect(page.getByTestId("plan-preview")).toContainText("Unlimited AI conversations");
  await page.getByRole("button", { name: "Save Changes" }).click();
  await page.waitForURL("**/admin/plans");
  await expect(row).toContainText(`Growth Pro Plus ${suffix}`);
  await expect(row).toContainText("₹3,499");
  await expect(row).toContainText("Unlimited AI conversations");

  // Deleting deactivates: the plan stays, marked inactive.
  await row.getByRole("button", { name: `Deactivate Growth Pro Plus ${suffix}` }).click();
  await expectAccessible(page, "admin-deactivate-plan-confirm");
  await page.getByRole("dialog").getByRole("button", { name: "Deactivate" }).click();
  await expect(row).toContainText("Inactive");
});

test("a superuser finds an owner, changes their plan and logs in as them", async ({
  page,
  browser,
}) => {
  const ownerName = `Meera Iyer ${Date.now()}`;
  await signInAsNewSuperuser(page);
  const owner = await createOwner(page, browser, ownerName, true);
  await page.goto("/admin");
  await expect(page.getByTestId("stat-Total Users")).toBeVisible();
  await searchUser(page, owner);
  const row = page.getByTestId(`user-row-${owner}`);
  await expect(row).toContainText("trial");

  await choose(page, "Role filter", "Admin");
  await expect(page.getByTestId(`user-row-${owner}`)).toHaveCount(0);
  await choose(page, "Role filter", "User");
  await choose(page, "Subscription filter", "Trial");
  await expect(row).toBeVisible();

  await page.getByRole("button", { name: `Actions for ${owner}` }).click();
  await page.getByRole("menuitem", { name: "Change Plan" }).click();
  const dialog = page.getByRole("dialog", { name: "Change Plan" });
  await expect(dialog.getByLabel("Subscription End Date")).toHaveCount(0);
  await dialog.getByRole("textbox", { name: "Plan", exact: true }).click();
  await page.getByRole("option", { name: /^Basic/ }).click();
  await dialog.getByRole("textbox", { name: "Subscription Status" }).click();
  await page.getByRole("option", { name: "Active" }).click();
  await expect(dialog.getByLabel("Subscription End Date")).toBeVisible();
  await dialog.getByLabel("Subscription End Date").fill("2020-01-01");
  await dialog.getByRole("button", { name: "Change Plan" }).click();
  await expect(dialog).toContainText("The end date must be in the future");
  await expectAccessible(page, "admin-change-plan-error");
  const next = new Date(Date.now() + 60 * 86400_000).toISOString().slice(0, 10);
  await dialog.getByLabel("Subscription End Date").fill(next);
  await dialog.getByRole("button", { name: "Change Plan" }).click();
  await expect(dialog).toHaveCount(0);

  await choose(page, "Subscription filter", "Active");
  await expect(row).toContainText("basic");
  await expect(row).toContainText("active");

  // The detail page shows the change in the audit trail.
  await row.getByRole("link", { name: ownerName }).click();
  await expect(page.getByRole("heading", { name: ownerName })).toBeVisible();
  await expect(page.getByText("Diwali exit offer")).toBeVisible();
  await page.getByRole("tab", { name: "Payments" }).click();
  await expect(page.getByText("No Payments")).toBeVisible();
  await page.getByRole("tab", { name: "Activity" }).click();
  await expect(page.getByTestId("audit-entry").first()).toContainText("basic");
  await shot(page, "95-admin-user-detail-audit");
  await expectAccessible(page, "admin-user-detail-activity");

  await page.getByRole("button", { name: "Login as User" }).click();
  const confirm = page.getByRole("dialog", { name: "Login as User" });
  await expect(confirm).toContainText("Your current session will be logged out");
  await dialogShot(page, "95-admin-login-as-confirm");
  await expectAccessible(page, "admin-login-as-confirm");
  await confirm.getByRole("button", { name: "Login as User" }).click();
  await page.waitForURL("**/dashboard");
  await expect(page.getByRole("button", { name: "User menu" })).toContainText(ownerName);
  await expect(page.getByText(/basic plan is active/)).toBeVisible();
  await expect(page.getByRole("link", { name: "Admin Dashboard" })).toHaveCount(0);

  // The owner has no way in.
  await page.goto("/admin/plans");
  await expect(page.getByRole("heading", { name: "Access Denied" })).toBeVisible();
  await expect(
    page.getByText("You don't have permission to access the admin dashboard."),
  ).toBeVisible();
  await expect(
    page.getByText("Only administrators and superusers can access this area."),
  ).toBeVisible();
  await expect(page.getByTestId("your-role")).toHaveText("user");
  await expectAccessible(page, "admin-access-denied-after-login-as");
});

test("an admin without superuser rights sees no Login as User", async ({ page, browser }) => {
  const root = await signInAsNewSuperuser(page);
  const owner = await createOwner(page, browser, "Kabir Mehta");
  await page.goto("/admin");
  await page.getByRole("button", { name: "Create Admin" }).click();
  const dialog = page.getByRole("dialog", { name: "Create Admin" });
  const adminEmail = uniqueEmail("staff");
  await dialog.getByLabel("Full Name").fill("Ravi Admin");
  await dialog.getByLabel("Email").fill(adminEmail);
  await dialog.getByLabel("Password").fill("abc");
  await dialog.getByRole("button", { name: "Create Admin" }).click();
  await expect(dialog).toContainText("Password must be at least 6 characters long");
  await expectAccessible(page, "admin-create-admin-error");
  await dialog.getByLabel("Password").fill(PASSWORD);
  await dialog.getByLabel("Phone").fill("+91 9812345670");
  await dialog.getByRole("button", { name: "Create Admin" }).click();
  await expect(dialog).toHaveCount(0);

  // The superuser sees Login as User on others' rows, never on their own.
  await searchUser(page, root);
  await page.getByRole("button", { name: `Actions for ${root}` }).click();
  await expect(page.getByRole("menuitem", { name: "Change Plan" })).toBeVisible();
  await expect(page.getByRole("menuitem", { name: "Login as User" })).toHaveCount(0);
  await page.keyboard.press("Escape");
  await searchUser(page, owner);
  await page.getByRole("button", { name: `Actions for ${owner}` }).click();
  await expect(page.getByRole("menuitem", { name: "Login as User" })).toBeVisible();
  await expectAccessible(page, "admin-user-actions-menu");
  await page.keyboard.press("Escape");

  const context = await browser.newContext();
  const admin = await context.newPage();
  await loginThroughForm(admin, adminEmail);
  await admin.waitForURL("**/dashboard");
  await admin.getByRole("link", { name: "Admin Dashboard" }).click();
  await searchUser(admin, owner);
  await admin.getByRole("button", { name: `Actions for ${owner}` }).click();
  await expect(admin.getByRole("menuitem", { name: "Change Plan" })).toBeVisible();
  await expect(admin.getByRole("menuitem", { name: "Login as User" })).toHaveCount(0);
  await admin.keyboard.press("Escape");
  await admin.getByTestId(`user-row-${owner}`).getByRole("link", { name: "Kabir Mehta" }).click();
  await expect(admin.getByRole("button", { name: "Change Plan" })).toBeVisible();
  await expect(admin.getByRole("button", { name: "Login as User" })).toHaveCount(0);

  // Plans and business figures are a superuser's: the server refuses, and the screens say so.
  await admin.goto("/admin/plans");
  await expect(
    admin.getByText("Only superusers can create, change or deactivate plans."),
  ).toBeVisible();
  await expectAccessible(admin, "admin-plans-as-admin");
  // The create screen is not offered as a form that would fail on submit.
  await admin.goto("/admin/plans/create");
  await expect(
    admin.getByText("Only superusers can create, change or deactivate plans."),
  ).toBeVisible();
  await expect(admin.getByRole("button", { name: "Create Plan" })).toHaveCount(0);
  await expectAccessible(admin, "admin-create-plan-refused");
  await admin.goto("/admin/superadmin");
  await expect(admin.getByText("Superusers only")).toBeVisible();
  await admin.getByRole("tab", { name: "Trial" }).click();
  await expect(admin.getByText("Only a superuser can change the trial settings.")).toBeVisible();
  await expectAccessible(admin, "admin-trial-as-admin");
  await context.close();
});

test("an owner sees Access Denied on the admin area", async ({ page, browser }) => {
  await signInAsNewSuperuser(page);
  const owner = await createOwner(page, browser, "Nisha Rao");
  await page.evaluate(() => localStorage.clear());
  await loginThroughForm(page, owner);
  await page.waitForURL("**/dashboard");
  await expect(page.getByRole("link", { name: "Admin Dashboard" })).toHaveCount(0);
  await page.goto("/admin");
  await expect(page.getByRole("heading", { name: "Access Denied" })).toBeVisible();
  await expect(page.getByTestId("your-role")).toHaveText("user");
  await expect(page.getByRole("banner").getByText("Admin Dashboard")).toBeVisible();
  for (const width of [1440, 768, 390]) {
    await page.setViewportSize({ width, height: 900 });
    await shot(page, `99-admin-access-denied-${width}`);
    await expectAccessible(page, `admin-access-denied at ${width}px`);
  }
});

/** A dialog over the page: the visible part only, as the backdrop covers only the viewport. */
async function dialogShot(page: Page, name: string) {
  await expect(page.getByRole("menu")).toHaveCount(0);
  await page.screenshot({ path: `${SCREENSHOTS}/${name}.png` });
}

/** Fails when the page scrolls sideways. */
async function expectNoSidewaysScroll(page: Page) {
  const overflow = await page.evaluate(
    () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
  );
  expect(overflow, "the page scrolls sideways").toBeLessThanOrEqual(0);
}

test("every admin screen at 1440, 768 and 390 px", async ({ page, browser }) => {
  test.setTimeout(360_000);
  await signInAsNewSuperuser(page);
  const owner = await createOwner(page, browser, "Farah Khan", true);
  await page.goto("/admin");
  await searchUser(page, owner);
  const ownerHref = await page
    .getByTestId(`user-row-${owner}`)
    .getByRole("link", { name: "Farah Khan" })
    .getAttribute("href");

  const screens: { name: string; path: string; ready: (p: Page) => Promise<void> }[] = [
    {
      name: "92-admin-dashboard",
      path: "/admin",
      ready: async (p) => {
        await expect(p.getByTestId("stat-Total Users")).toBeVisible();
        await expect(p.locator("[data-testid^=user-row-]").first()).toBeVisible();
      },
    },
    {
      name: "93-admin-superadmin-overview",
      path: "/admin/superadmin",
      ready: async (p) => {
        await expect(p.getByRole("img", { name: "Revenue by month" })).toBeVisible();
      },
    },
    {
      name: "94-admin-users",
      path: "/admin/users",
      ready: async (p) => {
        await expect(p.locator("[data-testid^=simple-row-]").first()).toBeVisible();
      },
    },
    {
      name: "95-admin-user-detail",
      path: ownerHref ?? "/admin",
      ready: async (p) => {
        await expect(p.getByRole("heading", { name: "Farah Khan" })).toBeVisible();
      },
    },
    {
      name: "96-admin-plans",
      path: "/admin/plans",
      ready: async (p) => {
        await expect(p.getByTestId("plan-row-free")).toBeVisible();
      },
    },
    {
      name: "97-admin-create-plan",
      path: "/admin/plans/create",
      ready: async (p) => {
        await expect(p.getByRole("heading", { name: "Quick Presets" })).toBeVisible();
      },
    },
    {
      name: "98-admin-edit-plan",
      path: "/admin/plans/basic/edit",
      ready: async (p) => {
        await expect(p.getByLabel("Plan ID")).toHaveValue("basic");
      },
    },
  ];

  for (const width of [1440, 768, 390]) {
    await page.setViewportSize({ width, height: 900 });
    for (const screen of screens) {
      await page.goto(screen.path);
      await screen.ready(page);
      await expectNoSidewaysScroll(page);
      await shot(page, `${screen.name}-${width}`);
      // 768 px lays the screens out as 390 px does (lists as rows below 992 px): axe once each.
      if (width !== 768) await expectAccessible(page, `${screen.name} at ${width}px`);
    }
    // The dialogs, and the superadmin and user detail tabs, each once per width.
    await page.goto("/admin");
    await page.getByRole("button", { name: "Create User" }).click();
    await expect(page.getByRole("dialog", { name: "Create User" })).toBeVisible();
    await dialogShot(page, `92-admin-create-user-${width}`);
    if (width !== 768) await expectAccessible(page, `92-admin-create-user at ${width}px`);
    await page.getByRole("button", { name: "Cancel" }).click();
    await searchUser(page, owner);
    await page.getByRole("button", { name: `Actions for ${owner}` }).click();
    await page.getByRole("menuitem", { name: "Change Plan" }).click();
    await expect(page.getByRole("dialog", { name: "Change Plan" })).toBeVisible();
    await dialogShot(page, `92-admin-change-plan-${width}`);
    if (width !== 768) await expectAccessible(page, `92-admin-change-plan at ${width}px`);
    await page.getByRole("button", { name: "Cancel" }).click();
    await page.goto("/admin/superadmin");
    for (const tab of ["Business", "System", "Users", "Trial"]) {
      await page.getByRole("tab", { name: tab }).click();
      await expect(page.getByRole("tabpanel")).toBeVisible();
      if (tab === "System") {
        // A sign-up's Meta event is kept and shown as not forwarded (no pixel configured).
        const token = await page.evaluate(() => localStorage.getItem("token"));
        const me = await page.request.get("/api/auth/me", {
          headers: { authorization: `Bearer ${token}` },
        });
        const lead = await page.request.post("/api/meta/track", {
          data: { eventName: "Lead", leadId: (await me.json()).user.id },
        });
        expect(lead.status()).toBe(200);
        await page.reload();
        await page.getByRole("tab", { name: tab }).click();
        const meta = page.getByTestId("meta-outbox");
        await expect(meta).toContainText("Not configured");
        await expect(meta.getByRole("row", { name: /Lead/ }).first()).toContainText(
          "Not forwarded",
        );
        // The test server has no mail server: its emails are kept, and it says so.
        await expect(page.getByTestId("system-Email")).toContainText(
          "Not set: emails are kept in the outbox",
        );
      }
      await page.waitForLoadState("networkidle");
      await expectNoSidewaysScroll(page);
      await shot(page, `93-admin-superadmin-${tab.toLowerCase()}-${width}`);
      if (width !== 768)
        await expectAccessible(page, `93-admin-superadmin-${tab.toLowerCase()} at ${width}px`);
    }
    await page.goto(ownerHref ?? "/admin");
    for (const tab of ["Subscription", "Payments", "Activity"]) {
      await page.getByRole("tab", { name: tab }).click();
      await expect(page.getByRole("tabpanel")).toBeVisible();
      await expectNoSidewaysScroll(page);
      await shot(page, `95-admin-user-detail-${tab.toLowerCase()}-${width}`);
      if (width !== 768)
        await expectAccessible(page, `95-admin-user-detail-${tab.toLowerCase()} at ${width}px`);
    }
  }
});

test("the Trial tab saves for real", async ({ page }) => {
  await signInAsNewSuperuser(page);
  await page.goto("/admin/superadmin");
  await page.getByRole("tab", { name: "Trial" }).click();
  const before = await page.getByLabel("Visitor Limit").inputValue();
  try {
    await page.getByLabel("Visitor Limit").fill("150");
    await page.getByRole("button", { name: "Save Trial Settings" }).click();
    await expect(page.getByText("At least 100, in steps of 100")).toBeVisible();
    await page.getByLabel("Visitor Limit").fill("1200");
    await page.getByRole("button", { name: "Save Trial Settings" }).click();
    await expect(page.getByText("Trial settings saved successfully!")).toBeVisible();
    await page.reload();
    await page.getByRole("tab", { name: "Trial" }).click();
    await expect(page.getByLabel("Visitor Limit")).toHaveValue("1200");
    await expectAccessible(page, "admin-trial-saved");
  } finally {
    // Put the setting back for the other journeys' new accounts.
    await page.getByLabel("Visitor Limit").fill(before);
    await page.getByRole("button", { name: "Save Trial Settings" }).click();
    await expect(page.getByText("Trial settings saved successfully!")).toBeVisible();
  }
});
