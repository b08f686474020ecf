import { expect, test, type Page } from "@playwright/test";
import { expectAccessible, expectFits } from "./a11y";
import { PASSWORD, createSuperuser, loginThroughForm, shot, uniqueEmail } from "./support";

/** An owner made by the signed-in superuser through the admin API; answers its email and id. */
async function createOwner(page: Page, name: string): Promise<{ email: string; id: string }> {
  const token = await page.evaluate(() => localStorage.getItem("token"));
  const email = uniqueEmail("owner");
  const res = await page.request.post("/api/admin/users/create-user", {
    headers: { Authorization: `Bearer ${token}` },
    data: { name, email, password: PASSWORD, phone: "+91 9876543210" },
  });
  expect(res.status()).toBe(200);
  const body = (await res.json()) as { data: { user: { id: string } } };
  return { email, id: body.data.user.id };
}

const WIDTHS = [1440, 768, 390];

test("a superuser suspends and unsuspends an owner, adds a note, and the audit log shows it", async ({
  page,
  browser,
}) => {
  const rootEmail = uniqueEmail("root");
  createSuperuser(rootEmail, "Asha Root");
  await loginThroughForm(page, rootEmail);
  await page.waitForURL("**/dashboard");
  const owner = await createOwner(page, "Kabir Mehta");

  // Suspend, keeping the widget on.
  await page.goto(`/admin/users/${owner.id}`);
  await expect(page.getByRole("banner").getByText("User Details")).toBeVisible();
  await page.getByRole("button", { name: "Suspend", exact: true }).click();
  const suspend = page.getByRole("dialog", { name: "Suspend User" });
  await expect(suspend).toContainText("cannot sign in until you unsuspend");
  await expect(suspend.getByRole("radio", { name: "Keeps working for visitors" })).toBeChecked();
  await suspend.getByRole("button", { name: "Suspend", exact: true }).click();
  await expect(page.getByTestId("admin-notice")).toContainText("Kabir Mehta is suspended.");
  await expect(page.getByTestId("suspended-badge")).toBeVisible();
  await expect(page.getByRole("button", { name: "Unsuspend", exact: true })).toBeVisible();
  await shot(page, "97-audit-user-suspended-1440");

  // The owner's sign-in is refused with a clear message.
  const ownerContext = await browser.newContext();
  const ownerPage = await ownerContext.newPage();
  const refused = await ownerPage.request.post("/api/auth/login", {
    data: { email: owner.email, password: PASSWORD },
  });
  expect(refused.status()).toBe(403);
  expect(((await refused.json()) as { code: string }).code).toBe("account_suspended");
  await ownerContext.close();

  // The users list shows the badge too.
  await page.goto("/admin");
  await page.getByRole("textbox", { name: "Search users" }).fill(owner.email);
  await expect(
    page.getByTestId(`user-row-${owner.email}`).getByTestId("suspended-badge"),
  ).toBeVisible();

  // Unsuspend, then a note.
  await page.goto(`/admin/users/${owner.id}`);
  await page.getByRole("button", { name: "Unsuspend", exact: true }).click();
  const unsuspend = page.getByRole("dialog", { name: "Unsuspend User" });
  await unsuspend.getByRole("button", { name: "Unsuspend", exact: true }).click();
  await expect(page.getByTestId("admin-notice")).toContainText("no longer suspended");
  await expect(page.getByTestId("suspended-badge")).toHaveCount(0);

  await page.getByRole("tab", { name: "Notes" }).click();
  await page.getByLabel("New note").fill("Called about a GST invoice; promised by Friday.");
  await page.getByRole("button", { name: "Add note" }).click();
  await expect(page.getByTestId("admin-notice")).toContainText("Note added.");
  await expect(page.getByTestId("admin-note").first()).toContainText("GST invoice");
  await expect(page.getByTestId("admin-note").first()).toContainText("Asha Root");
  await shot(page, "97-audit-user-notes-1440");

  // The audit log shows the three actions, newest first, filtered by the account.
  await page.goto("/admin");
  await page.getByRole("link", { name: "Audit Log" }).click();
  await page.waitForURL("**/admin/audit");
  await expect(page.getByRole("banner").getByText("Audit Log")).toBeVisible();
  await page.getByLabel("Account id").fill(owner.id);
  await page.getByRole("button", { name: "Apply filters" }).click();
  await expect(page).toHaveURL(new RegExp(`targetUserId=${owner.id}`));
  const rows = page.getByTestId("audit-row");
  await expect(rows).toHaveCount(4);
  await expect(rows.nth(0)).toContainText("add note");
  await expect(rows.nth(1)).toContainText("unsuspend user");
  await expect(rows.nth(2)).toContainText("suspend user");
  await expect(rows.nth(3)).toContainText("create user");
  await expect(rows.nth(0)).toContainText(rootEmail);

  // The filter is kept in the URL: a reload keeps it.
  await page.getByRole("textbox", { name: "Action" }).fill("suspend_user");
  await page.keyboard.press("Escape");
  await page.getByRole("button", { name: "Apply filters" }).click();
  await expect(page).toHaveURL(/action=suspend_user/);
  await page.reload();
  await expect(page.getByRole("textbox", { name: "Action" })).toHaveValue("suspend_user");
  await expect(rows).toHaveCount(1);

  // CSV export of the filtered list.
  const download = page.waitForEvent("download");
  await page.getByRole("button", { name: "Export CSV" }).click();
  const file = await download;
  expect(file.suggestedFilename()).toMatch(/^audit-log-\d{4}-\d{2}-\d{2}\.csv$/);
  await expect(page.getByTestId("admin-notice")).toContainText("Exported 1 audit entry.");

  await page.getByRole("button", { name: "Clear filters" }).click();
  await expect(page).toHaveURL(/\/admin\/audit$/);
  for (const width of WIDTHS) {
    await page.setViewportSize({ width, height: 900 });
    await expect(page.getByTestId("audit-row").first()).toBeVisible();
    await shot(page, `97-audit-log-${width}`);
    await expectFits(page, `audit log at ${width}px`);
    await expectAccessible(page, `audit log at ${width}px`);
  }
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto(`/admin/users/${owner.id}`);
  for (const width of WIDTHS) {
    await page.setViewportSize({ width, height: 900 });
    await expect(page.getByRole("button", { name: "Suspend", exact: true })).toBeVisible();
    await shot(page, `97-audit-user-detail-${width}`);
    await expectAccessible(page, `user detail with suspend at ${width}px`);
  }
});
