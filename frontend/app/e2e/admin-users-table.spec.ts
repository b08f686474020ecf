import { readFileSync } from "node:fs";
import { expect, test, type Page } from "@playwright/test";
import { expectAccessible } from "./a11y";
import { PASSWORD, createSuperuser, loginThroughForm, runSql, shot } from "./support";

const WIDTHS = [1440, 768, 390];

/** An owner made by the signed-in superuser through the admin API; its id. */
async function createOwner(page: Page, name: string, email: string): Promise<string> {
  const token = await page.evaluate(() => localStorage.getItem("token"));
  const res = await page.request.post("/api/admin/users/create-user", {
    headers: { Authorization: `Bearer ${token}` },
    data: { name, email, password: PASSWORD, phone: "+91 9876543210" },
  });
  expect(res.status()).toBe(200);
  return (await res.json()).data.user.id as string;
}

/** The emails of the rows shown, top to bottom. */
async function shownEmails(page: Page, tag: string): Promise<string[]> {
  const ids = await page
    .locator(`[data-testid^="user-row-${tag}"]`)
    .evaluateAll((rows) => rows.map((r) => r.getAttribute("data-testid") ?? ""));
  return ids.map((id) => id.replace("user-row-", ""));
}

test("staff sort and filter the users table, keep it on reload, export it and change plans in bulk", async ({
  page,
}) => {
  test.setTimeout(120_000);
  const run = `tbl${Date.now()}`;
  const root = `${run}-root@example.in`;
  createSuperuser(root, "Asha Root");
  await loginThroughForm(page, root);
  await page.waitForURL("**/dashboard");
  const zara = `${run}-zara@example.in`;
  const aarav = `${run}-aarav@example.in`;
  const meera = `${run}-meera@example.in`;
  await createOwner(page, "Zara Khan", zara);
  await createOwner(page, "Aarav Shah", aarav);
  const meeraId = await createOwner(page, "Meera Iyer", meera);
  // Meera signed up in January.
  runSql("UPDATE users SET created_at = ? WHERE id = ?", "2026-01-15T10:00:00+00:00", meeraId);

  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto("/admin");
  await page.getByRole("textbox", { name: "Search users" }).fill(run);
  await expect(page).toHaveURL(new RegExp(`search=${run}`));
  await page.getByRole("textbox", { name: "Role filter" }).click();
  await page.getByRole("option", { name: "User", exact: true }).click();
  await expect(page.getByTestId(`user-row-${meera}`)).toBeVisible();
  await expect.poll(() => shownEmails(page, run)).toEqual([aarav, zara, meera]);

  // Sort by name: A to Z, then Z to A.
  await page.getByTestId("sort-name").click();
  await expect(page).toHaveURL(/sort=name&order=asc/);
  await expect.poll(() => shownEmails(page, run)).toEqual([aarav, meera, zara]);
  await expect(page.locator("th", { has: page.getByTestId("sort-name") })).toHaveAttribute(
    "aria-sort",
    "ascending",
  );
  await page.getByTestId("sort-name").click();
  await expect.poll(() => shownEmails(page, run)).toEqual([zara, meera, aarav]);
  await expect(page).toHaveURL(/order=desc/);

  // A reload (or the link shared) keeps search, role, order.
  await page.reload();
  await expect(page.getByRole("textbox", { name: "Search users" })).toHaveValue(run);
  await expect(page.getByRole("textbox", { name: "Role filter" })).toHaveValue("User");
  await expect.poll(() => shownEmails(page, run)).toEqual([zara, meera, aarav]);

  // Sign-up in January only.
  // One field at a time, as a person does: the page shows the first date (the second field's
  // minimum moves to it) before the second is typed.
  await page.getByLabel("Joined from").fill("2026-01-01");
  await expect(page.getByLabel("Joined to")).toHaveAttribute("min", "2026-01-01");
  await page.getByLabel("Joined to").fill("2026-01-31");
  await expect(page).toHaveURL(/from=2026-01-01&to=2026-01-31/);
  await expect.poll(() => shownEmails(page, run)).toEqual([meera]);
  await page.reload();
  await expect(page.getByLabel("Joined from")).toHaveValue("2026-01-01");
  await expect.poll(() => shownEmails(page, run)).toEqual([meera]);
  for (const width of WIDTHS) {
    await page.setViewportSize({ width, height: 900 });
    await shot(page, `97-users-table-filtered-${width}`);
    await expectAccessible(page, `users table filtered at ${width}px`);
  }
  await page.setViewportSize({ width: 1440, height: 900 });

  // Export: every matching user, not only the page.
  await page.goto(`/admin?search=${run}&role=user&sort=name&order=desc`);
  await expect.poll(() => shownEmails(page, run)).toEqual([zara, meera, aarav]);
  const downloading = page.waitForEvent("download");
  await page.getByRole("button", { name: "Export CSV" }).click();
  const file = await downloading;
  expect(file.suggestedFilename()).toMatch(/^users-\d{4}-\d{2}-\d{2}\.csv$/);
  const csv = readFileSync((await file.path()) ?? "", "utf8");
  const lines = csv.trimEnd().split("\r\n");
  expect(lines[0]).toBe(
    "id,name,email,phone,role,plan,status,cancels at period end,suspended at,campaigns,payments,paid (INR),last payment at,subscription ends at,signed up at,last login at",
  );
  expect(lines).toHaveLength(4);
  expect(lines[1]).toContain(`,Zara Khan,${zara},`);
  expect(lines[2]).toContain(`,Meera Iyer,${meera},`);
  expect(lines[2]).toContain(",2026-01-15T10:00:00Z,");
  expect(lines[3]).toContain(`,Aarav Shah,${aarav},`);

  // Bulk: choose all on the page, put them on Basic.
  await page.getByRole("checkbox", { name: "Select all users on this page" }).check();
  await expect(page.getByTestId("bulk-actions")).toContainText("3 users selected");
  for (const width of WIDTHS) {
    await page.setViewportSize({ width, height: 900 });
    await shot(page, `97-users-table-selected-${width}`);
  }
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.getByRole("button", { name: "Change plan" }).click();
  const dialog = page.getByRole("dialog", { name: "Change Plan of 3 users" });
  await dialog.getByRole("textbox", { name: "Plan", exact: true }).click();
  await page.getByRole("option", { name: /^Basic/ }).click();
  await dialog.getByRole("textbox", { name: "Subscription Status" }).click();
  await page.getByRole("option", { name: "Active" }).click();
  await shot(page, "97-users-bulk-change-plan-1440");
  await expectAccessible(page, "bulk change plan dialog at 1440px");
  await dialog.getByRole("button", { name: "Change Plan" }).click();
  await expect(page.getByTestId("admin-notice")).toContainText("Plan changed for 3 users.");
  for (const email of [zara, meera, aarav])
    await expect(page.getByTestId(`user-row-${email}`)).toContainText("basic");
  await expect(page.getByTestId("bulk-actions")).toHaveCount(0);
  await shot(page, "97-users-bulk-done-1440");

  // The plan filter now finds them, and it too survives a reload.
  await page.getByRole("textbox", { name: "Plan filter" }).click();
  await page.getByRole("option", { name: "Basic", exact: true }).click();
  await expect(page).toHaveURL(/plan=basic/);
  await page.reload();
  await expect.poll(() => shownEmails(page, run)).toEqual([zara, meera, aarav]);
});
