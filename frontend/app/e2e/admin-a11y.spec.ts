import { expect, test, type Page } from "@playwright/test";
import { expectAccessible } from "./a11y";
import { PASSWORD, createSuperuser, loginThroughForm, shot } from "./support";

const WIDTHS = [1440, 768, 390];

/** Screenshots and axe-core (0 serious or critical) at each width. */
async function everyWidth(page: Page, screen: string) {
  for (const width of WIDTHS) {
    await page.setViewportSize({ width, height: 900 });
    await shot(page, `98-a11y-${screen}-${width}`);
    await expectAccessible(page, `${screen} at ${width}px`);
  }
  await page.setViewportSize({ width: 1440, height: 900 });
}

async function api(page: Page, method: "GET" | "POST", path: string, data?: object) {
  const token = await page.evaluate(() => localStorage.getItem("token"));
  const res = await page.request.fetch(path, {
    method,
    headers: { Authorization: `Bearer ${token}` },
    data,
  });
  expect(res.ok(), `${method} ${path}: ${await res.text()}`).toBe(true);
  return res.json();
}

test("every admin page has no serious or critical accessibility fault, with data on it", async ({
  page,
}) => {
  test.setTimeout(240_000);
  const run = `ally${Date.now()}`;
  const root = `${run}-root@example.in`;
  createSuperuser(root, "Asha Root");
  await loginThroughForm(page, root);
  await page.waitForURL("**/dashboard");

  // Data on every screen: owners on several plans and statuses, an admin, a note, audit entries.
  const owners: string[] = [];
  for (const [name, tag] of [
    ["Kabir Mehta", "kabir"],
    ["Meera Iyer", "meera"],
    ["Zara Khan", "zara"],
  ]) {
    const created = await api(page, "POST", "/api/admin/users/create-user", {
      name,
      email: `${run}-${tag}@example.in`,
      password: PASSWORD,
      phone: "+91 9876543210",
    });
    owners.push(created.data.user.id as string);
  }
  await api(page, "POST", "/api/admin/users/create-admin", {
    name: "Anil Admin",
    email: `${run}-admin@example.in`,
    password: PASSWORD,
    phone: "+91 9876543211",
  });
  const ends = new Date(Date.now() + 30 * 86400_000).toISOString();
  await api(page, "POST", "/api/admin/users/bulk/change-plan", {
    userIds: owners.slice(0, 2),
    planId: "basic",
    subscriptionStatus: "active",
    subscriptionEndsAt: ends,
  });
  await api(page, "POST", `/api/admin/users/${owners[0]}/notes`, {
    body: "Asked for a GST invoice by phone",
  });
  await api(page, "POST", `/api/admin/users/${owners[2]}/suspend`, { pauseWidget: false });

  // Admin dashboard with its users table, the bulk bar and a row's menu.
  await page.goto("/admin");
  await expect(page.getByTestId(`user-row-${run}-kabir@example.in`)).toBeVisible();
  await everyWidth(page, "admin-dashboard");
  await page.getByRole("checkbox", { name: "Select all users on this page" }).check();
  await expect(page.getByTestId("bulk-actions")).toBeVisible();
  await everyWidth(page, "admin-dashboard-selected");
  await page.getByRole("button", { name: "Change plan" }).click();
  await expect(page.getByRole("dialog")).toBeVisible();
  await everyWidth(page, "admin-bulk-change-plan");
  await page.keyboard.press("Escape");

  await page.goto("/admin/users");
  await expect(page.getByTestId(`simple-row-${run}-kabir@example.in`)).toBeVisible();
  await everyWidth(page, "admin-users");

  await page.goto(`/admin/users/${owners[0]}`);
  await expect(page.getByRole("tab", { name: "Overview" })).toBeVisible();
  for (const tab of ["Overview", "Subscription", "Payments", "Activity", "Notes"]) {
    await page.getByRole("tab", { name: tab }).click();
    await everyWidth(page, `admin-user-detail-${tab.toLowerCase()}`);
  }
  await page.goto(`/admin/users/${owners[2]}`);
  await expect(page.getByRole("tab", { name: "Overview" })).toBeVisible();
  await everyWidth(page, "admin-user-detail-suspended");

  await page.goto("/admin/plans");
  await expect(page.getByText("Basic").first()).toBeVisible();
  await everyWidth(page, "admin-plans");
  await page.goto("/admin/plans/create");
  await everyWidth(page, "admin-plan-create");
  await page.goto("/admin/plans/basic/edit");
  await expect(page.locator("form button[type=submit]")).toBeVisible();
  await everyWidth(page, "admin-plan-edit");

  await page.goto("/admin/audit");
  await expect(page.getByTestId("audit-row").first()).toBeVisible();
  await everyWidth(page, "admin-audit");

  await page.goto("/admin/superadmin");
  for (const tab of ["Overview", "Business", "System", "Users", "Trial"]) {
    await page.getByRole("tab", { name: tab }).click();
    await page.waitForLoadState("networkidle");
    await everyWidth(page, `admin-superadmin-${tab.toLowerCase()}`);
  }

  // The two-factor enrolment page, with its QR code and recovery codes.
  await page.goto("/account/two-factor");
  await page.getByRole("button", { name: "Set up two-factor sign-in" }).click();
  await expect(page.getByRole("img", { name: /QR code/ })).toBeVisible();
  await everyWidth(page, "admin-2fa-enrolment");
});
