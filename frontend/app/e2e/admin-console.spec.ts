import { expect, test, type Page } from "@playwright/test";
import { expectAccessible } from "./a11y";
import { PASSWORD, createSuperuser, loginThroughForm, shot, uniqueEmail } from "./support";

/** A staff or owner account made by the signed-in superuser through the admin API. */
async function createAccount(page: Page, kind: "user" | "admin", name: string): Promise<string> {
  const token = await page.evaluate(() => localStorage.getItem("token"));
  const email = uniqueEmail(kind === "user" ? "owner" : "staff");
  const res = await page.request.post(`/api/admin/users/create-${kind}`, {
    headers: { Authorization: `Bearer ${token}` },
    data: { name, email, password: PASSWORD, phone: "+91 9876543210" },
  });
  expect(res.status()).toBe(200);
  return email;
}

async function searchUser(page: Page, email: string) {
  await page.getByRole("textbox", { name: "Search users" }).fill(email);
  await expect(page.getByTestId(`user-row-${email}`)).toBeVisible();
}

const WIDTHS = [1440, 768, 390];

test("a superuser signs in as an owner, sees the banner and returns without signing in", async ({
  page,
}) => {
  const rootEmail = uniqueEmail("root");
  createSuperuser(rootEmail, "Asha Root");
  await loginThroughForm(page, rootEmail);
  await page.waitForURL("**/dashboard");
  const owner = await createAccount(page, "user", "Kabir Mehta");

  await page.goto("/admin");
  await searchUser(page, owner);
  await page.getByRole("button", { name: `Actions for ${owner}` }).click();
  await page.getByRole("menuitem", { name: "Login as User" }).click();
  const confirm = page.getByRole("dialog", { name: "Login as User" });
  await expect(confirm).toContainText("Your current session will be logged out");
  await expect(confirm).toContainText("Return to admin on the banner brings it back");
  await confirm.getByRole("button", { name: "Login as User" }).click();
  await page.waitForURL("**/dashboard");

  const banner = page.getByTestId("impersonation-banner");
  await expect(banner).toContainText(`Viewing as Kabir Mehta (${owner}). Actions are recorded.`);
  await expect(banner).toContainText(`Signed in by ${rootEmail}`);
  await expect(page.getByRole("button", { name: "User menu" })).toContainText("Kabir Mehta");
  // Every page shows it.
  await page.goto("/campaigns");
  await expect(banner).toBeVisible();
  for (const width of WIDTHS) {
    await page.setViewportSize({ width, height: 900 });
    await expect(banner.getByRole("button", { name: "Return to admin" })).toBeVisible();
    await shot(page, `96-console-impersonation-banner-${width}`);
    await expectAccessible(page, `impersonation banner at ${width}px`);
  }
  await page.setViewportSize({ width: 1440, height: 900 });

  await banner.getByRole("button", { name: "Return to admin" }).click();
  await page.waitForURL("**/admin");
  await expect(page.getByRole("banner").getByText("Admin Dashboard")).toBeVisible();
  await expect(page.getByRole("button", { name: "User menu" })).toContainText("Asha Root");
  await expect(page.getByTestId("impersonation-banner")).toHaveCount(0);
  await expect(page).not.toHaveURL(/login|auth/);

  // The return is on the owner's record; the header names each admin page.
  await searchUser(page, owner);
  await page.getByTestId(`user-row-${owner}`).getByRole("link", { name: "Kabir Mehta" }).click();
  await expect(page.getByRole("banner").getByText("User Details")).toBeVisible();
  await page.getByRole("tab", { name: "Activity" }).click();
  await expect(page.getByTestId("audit-entry").first()).toContainText("return from login as");
  await expect(page.getByTestId("audit-entry").filter({ hasText: "login as user" })).toHaveCount(1);
  await shot(page, "96-console-activity-after-return");
  await page.goto("/admin/plans");
  await expect(page.getByRole("banner").getByText("Plan Management")).toBeVisible();
});

test("an admin sees no control only a superuser may use", async ({ page, browser }) => {
  const rootEmail = uniqueEmail("root");
  createSuperuser(rootEmail, "Asha Root");
  await loginThroughForm(page, rootEmail);
  await page.waitForURL("**/dashboard");
  const adminEmail = await createAccount(page, "admin", "Ravi Desk");
  const peerEmail = await createAccount(page, "admin", "Meena Desk");
  const owner = await createAccount(page, "user", "Nisha Rao");

  const context = await browser.newContext();
  const admin = await context.newPage();
  await loginThroughForm(admin, adminEmail);
  await admin.waitForURL("**/dashboard");
  await admin.getByRole("link", { name: "Admin Dashboard" }).click();
  await expect(admin.getByRole("button", { name: "Create Admin" })).toBeVisible();
  await expect(admin.getByRole("link", { name: "SuperAdmin Dashboard" })).toHaveCount(0);

  // A superuser's row and another admin's row offer nothing to change.
  for (const email of [rootEmail, peerEmail]) {
    await searchUser(admin, email);
    await admin.getByRole("button", { name: `Actions for ${email}` }).click();
    const menu = admin.getByRole("menu", { name: `Actions for ${email}` });
    await expect(menu.getByRole("menuitem", { name: "View Details" })).toBeVisible();
    for (const item of ["Edit User", "Change Plan", "Login as User", "Delete"]) {
      await expect(menu.getByRole("menuitem", { name: item })).toHaveCount(0);
    }
    await admin.keyboard.press("Escape");
    await expect(menu).toHaveCount(0);
  }
  // An owner's row offers what an admin may do, and a change is confirmed.
  await searchUser(admin, owner);
  await admin.getByRole("button", { name: `Actions for ${owner}` }).click();
  await expect(admin.getByRole("menuitem", { name: "Login as User" })).toHaveCount(0);
  await admin.getByRole("menuitem", { name: "Edit User" }).click();
  const edit = admin.getByRole("dialog", { name: "Edit User" });
  await edit.getByLabel("Full Name").fill("Nisha Rao Kapoor");
  await edit.getByRole("textbox", { name: "Role" }).click();
  await expect(admin.getByRole("option", { name: "Admin", exact: true })).toBeVisible();
  await expect(admin.getByRole("option", { name: "Superuser" })).toHaveCount(0);
  await admin.getByRole("option", { name: "User", exact: true }).click();
  await edit.getByRole("button", { name: "Save Changes" }).click();
  await expect(edit).toHaveCount(0);
  await expect(admin.getByTestId("admin-notice")).toContainText(
    "Changes to Nisha Rao Kapoor were saved.",
  );
  for (const width of WIDTHS) {
    await admin.setViewportSize({ width, height: 900 });
    await shot(admin, `96-console-admin-dashboard-${width}`);
    await expectAccessible(admin, `admin dashboard as admin at ${width}px`);
  }
  await admin.setViewportSize({ width: 1440, height: 900 });

  // The superuser's detail page: no Edit, Change Plan, Login as or Delete.
  await searchUser(admin, rootEmail);
  await admin.getByTestId(`user-row-${rootEmail}`).getByRole("link", { name: "Asha Root" }).click();
  await expect(admin.getByRole("heading", { name: "Asha Root" })).toBeVisible();
  for (const name of ["Edit User", "Change Plan", "Login as User", "Delete User"]) {
    await expect(admin.getByRole("button", { name })).toHaveCount(0);
  }

  // Plans: no Create, Quick Create, Edit or Deactivate.
  await admin.goto("/admin/plans");
  await expect(admin.getByRole("banner").getByText("Plan Management")).toBeVisible();
  await expect(admin.getByTestId("plan-row-free")).toBeVisible();
  await expect(
    admin.getByText("Only superusers can create, change or deactivate plans."),
  ).toBeVisible();
  await expect(admin.getByRole("button", { name: "Quick Create" })).toHaveCount(0);
  await expect(admin.getByRole("link", { name: "Create Plan" })).toHaveCount(0);
  await expect(admin.getByRole("link", { name: /^Edit / })).toHaveCount(0);
  await expect(admin.getByRole("button", { name: /^Deactivate / })).toHaveCount(0);
  for (const width of WIDTHS) {
    await admin.setViewportSize({ width, height: 900 });
    await shot(admin, `96-console-admin-plans-${width}`);
    await expectAccessible(admin, `plans as admin at ${width}px`);
  }
  await admin.setViewportSize({ width: 1440, height: 900 });
  await admin.goto("/admin/plans/basic/edit");
  await expect(
    admin.getByText("Only superusers can create, change or deactivate plans."),
  ).toBeVisible();
  await expect(admin.getByRole("button", { name: "Save Changes" })).toHaveCount(0);
  await context.close();
});
