import { expect, test } from "@playwright/test";
import { expectAccessible } from "./a11y";
import {
  PASSWORD,
  expiredToken,
  loginThroughForm,
  registerThroughForm,
  resetLinkFromOutbox,
  shot,
  uniqueEmail,
} from "./support";

test("landing page shows every section", async ({ page }) => {
  await page.goto("/home");
  await expect(page.getByText("Beta", { exact: true }).first()).toBeVisible();
  await expect(page.getByRole("link", { name: "Start Free Trial" }).first()).toBeVisible();
  await expect(page.getByRole("link", { name: "Watch Demo" })).toBeVisible();
  await expect(page.getByRole("heading", { name: "How it works" })).toBeVisible();
  await expect(page.getByText("₹5,000")).toBeVisible();
  await expect(page.getByText("© 2024 ConvertAssist. All rights reserved.")).toBeVisible();
  await shot(page, "01-landing");
  await page.getByRole("link", { name: "Get Started" }).first().click();
  await expect(page).toHaveURL(/\/register$/);
});

test("register, see the shell, log out and log in again", async ({ page }) => {
  const email = uniqueEmail("journey");
  await page.goto("/register");
  await expect(page.getByText("94%")).toBeVisible();
  await expect(page.getByText("Priya Sharma")).toBeVisible();
  const terms = page.getByRole("link", { name: "Terms of Service" });
  await expect(terms).toHaveAttribute("target", "_blank");
  await shot(page, "02-register");
  await expectAccessible(page, "register");

  // The client's own checks come first.
  await page.getByLabel("Full name").fill("Priya Sharma");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Phone number").fill("9876543210");
  await page.getByLabel(/^Password/).fill(PASSWORD);
  await page.getByLabel("Confirm password").fill("something-else");
  await page.getByRole("button", { name: "Create account" }).click();
  await expect(page.getByRole("alert")).toContainText("Passwords do not match");
  await expectAccessible(page, "register-error");

  await page.getByLabel("Confirm password").fill(PASSWORD);
  await page.getByRole("button", { name: "Create account" }).click();
  await page.waitForURL("**/dashboard");
  await expect(page.getByRole("heading", { name: "Dashboard" })).toBeVisible();
  await expect(page.getByText("Welcome back, Priya")).toBeVisible();
  await expect(page.getByText(/free trial ends in 3 days/)).toBeVisible();
  await expect(page.getByRole("link", { name: "Campaigns" })).toBeVisible();
  await expect(page.getByRole("link", { name: "Admin Dashboard" })).toHaveCount(0);
  expect(await page.evaluate(() => localStorage.getItem("theme"))).toBe("light");
  await shot(page, "03-dashboard");
  await expectAccessible(page, "dashboard-new-account");

  await page.getByRole("button", { name: "User menu" }).click();
  await expectAccessible(page, "user-menu");
  await page.getByRole("menuitem", { name: "Logout" }).click();
  await page.waitForURL("**/login");
  await expectAccessible(page, "login");
  expect(await page.evaluate(() => localStorage.getItem("token"))).toBeNull();
  await page.goto("/dashboard");
  await page.waitForURL("**/login");

  await loginThroughForm(page, email, "wrong-password");
  await expect(page.getByRole("alert")).toContainText("Invalid email or password");
  await shot(page, "04-login-error");
  await expectAccessible(page, "login-error");
  await loginThroughForm(page, email);
  await page.waitForURL("**/dashboard");
  await expect(page.getByText("Welcome back, Priya")).toBeVisible();

  // Registering the same email again shows the server's message.
  await page.evaluate(() => localStorage.clear());
  await page.goto("/register");
  await page.getByLabel("Full name").fill("Someone Else");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Phone number").fill("9000000000");
  await page.getByLabel(/^Password/).fill(PASSWORD);
  await page.getByLabel("Confirm password").fill(PASSWORD);
  await page.getByRole("button", { name: "Create account" }).click();
  await expect(page.getByRole("alert")).toContainText("An account with this email already exists");
});

test("forgot password, follow the emailed link, reset and be signed in", async ({ page }) => {
  const email = uniqueEmail("reset");
  await registerThroughForm(page, email);
  await page.evaluate(() => localStorage.clear());

  await page.goto("/forgot-password");
  await page.getByRole("button", { name: "Send reset link" }).click();
  await expect(page.getByRole("alert")).toContainText("Email is required");
  await expectAccessible(page, "forgot-password-error");
  await page.getByLabel("Email").fill(email);
  await page.getByRole("button", { name: "Send reset link" }).click();
  await expect(page.getByRole("heading", { name: "Check your email" })).toBeVisible();
  await expect(page.getByRole("button", { name: "Send Another Email" })).toBeVisible();
  await shot(page, "05-forgot-sent");
  await expectAccessible(page, "forgot-password-sent");

  await page.goto("/reset-password");
  await expect(page.getByRole("alert")).toContainText(
    "Invalid reset link. Please request a new password reset.",
  );
  await expectAccessible(page, "reset-password-invalid-link");

  const link = resetLinkFromOutbox(email);
  await page.goto(link);
  await page.getByRole("button", { name: "Reset password" }).click();
  await expect(page.getByRole("alert")).toContainText("Both password fields are required");
  await expectAccessible(page, "reset-password-error");
  await page.getByLabel("New password", { exact: true }).fill("new-pass-1");
  await page.getByLabel("Confirm new password").fill("new-pass-2");
  await page.getByRole("button", { name: "Reset password" }).click();
  await expect(page.getByRole("alert")).toContainText("Passwords do not match");
  await page.getByLabel("Confirm new password").fill("new-pass-1");
  await page.getByRole("button", { name: "Reset password" }).click();
  await expect(page.getByText("you are now logged in")).toBeVisible();
  await shot(page, "06-reset-done");
  await expectAccessible(page, "reset-password-done");
  await page.waitForURL("**/dashboard", { timeout: 5_000 });
  await expect(page.getByText("Welcome back, Priya")).toBeVisible();

  // The link works once.
  await page.evaluate(() => localStorage.clear());
  await page.goto(link);
  await page.getByLabel("New password", { exact: true }).fill("third-pass");
  await page.getByLabel("Confirm new password").fill("third-pass");
  await page.getByRole("button", { name: "Reset password" }).click();
  await expect(page.getByRole("alert")).toContainText("Invalid or expired reset token");

  await loginThroughForm(page, email, "new-pass-1");
  await page.waitForURL("**/dashboard");
});

test("an expired session sends the browser to /auth", async ({ page }) => {
  const email = uniqueEmail("expired");
  await registerThroughForm(page, email);
  await page.goto("/settings");
  await expect(page.getByRole("heading", { name: "Settings" })).toBeVisible();
  const userId = await page.evaluate(async () => {
    const res = await fetch("/api/auth/me", {
      headers: { Authorization: `Bearer ${localStorage.getItem("token")}` },
    });
    return ((await res.json()) as { user: { id: string } }).user.id;
  });
  const token = expiredToken(userId);
  await page.evaluate((t) => localStorage.setItem("token", t), token);
  await page.getByLabel("Name").fill("Priya S.");
  await page.getByRole("button", { name: "Save changes" }).click();
  // The session-expired page signs in again and comes back to the page the owner was on.
  await page.waitForURL("**/auth?next=%2Fsettings");
  await expect(page.getByRole("heading", { name: "Your session has expired" })).toBeVisible();
  expect(await page.evaluate(() => localStorage.getItem("token"))).toBeNull();
  await shot(page, "07-session-expired");
  await expectAccessible(page, "session-expired");
  await page.getByRole("link", { name: "Sign in again" }).click();
  await expect(page).toHaveURL(/\/login\?next=%2Fsettings$/);

  // A stale token found at start-up is discarded quietly: the shell sends to /login.
  await page.evaluate((t) => localStorage.setItem("token", t), token);
  await page.goto("/dashboard");
  await page.waitForURL("**/login");
  expect(await page.evaluate(() => localStorage.getItem("token"))).toBeNull();
});

test("settings save for real and survive a reload", async ({ page }) => {
  const email = uniqueEmail("settings");
  await registerThroughForm(page, email);
  await page.goto("/settings");
  await page.getByLabel("Name").fill("Priya Raghavan");
  await page.getByLabel("Phone").fill("+91 9123456789");
  await page.getByRole("button", { name: "Save changes" }).click();
  await expect(page.getByRole("status")).toContainText("Your changes have been saved.");
  await shot(page, "08-settings-account");
  await expectAccessible(page, "settings-account");

  await page.getByRole("tab", { name: "Notifications" }).click();
  const emails = page.getByRole("switch", { name: "E-mail notifications" });
  await expect(emails).toBeChecked();
  await emails.click({ force: true });
  await expect(emails).not.toBeChecked();
  await shot(page, "09-settings-notifications");
  await expectAccessible(page, "settings-notifications");

  await page.getByRole("tab", { name: "Appearance" }).click();
  await expect(page.getByText("Coming soon", { exact: true })).toBeVisible();
  await expectAccessible(page, "settings-appearance");

  await page.getByRole("tab", { name: "Security" }).click();
  await page.getByLabel("Current password").fill("wrong-one");
  await page.getByLabel("New password", { exact: true }).fill("changed-123");
  await page.getByLabel("Confirm new password").fill("changed-123");
  await page.getByRole("button", { name: "Change password" }).click();
  // Said under the field it is about.
  await expect(page.getByLabel("Current password")).toHaveAccessibleDescription(
    "Current password is incorrect",
  );
  await page.getByLabel("Current password").fill(PASSWORD);
  await page.getByRole("button", { name: "Change password" }).click();
  await expect(page.getByRole("status")).toContainText("Password changed");
  await shot(page, "10-settings-security");
  await expectAccessible(page, "settings-security");

  await page.reload();
  await expect(page.getByLabel("Name")).toHaveValue("Priya Raghavan");
  // Kept as one E.164 number, however it was typed.
  await expect(page.getByLabel("Phone")).toHaveValue("+919123456789");
  await page.getByRole("tab", { name: "Notifications" }).click();
  // Push notifications are per browser (e2e/push.spec.ts); offered beside the email toggle.
  await expect(page.getByRole("switch", { name: "Push notifications" })).toHaveCount(1);
  await expect(page.getByRole("switch", { name: "E-mail notifications" })).not.toBeChecked();
});

test("the drawer at 375 px wide, and a real not-found page", async ({ page }) => {
  const email = uniqueEmail("mobile");
  await page.setViewportSize({ width: 375, height: 740 });
  await registerThroughForm(page, email);
  await expect(page.getByRole("link", { name: "Customers" })).toBeHidden();
  await shot(page, "11-mobile-dashboard");
  await expectAccessible(page, "dashboard-mobile");
  await page.getByRole("button", { name: "Open navigation" }).click();
  const drawer = page.getByRole("dialog");
  await expect(drawer.getByRole("link", { name: "Customers" })).toBeVisible();
  // Wait for the slide-in to finish before measuring and taking the picture.
  await expect.poll(async () => Math.round((await drawer.boundingBox())?.x ?? -1)).toBe(0);
  const box = await drawer.boundingBox();
  expect(Math.round(box?.width ?? 0)).toBe(280);
  await shot(page, "12-mobile-drawer");
  await expectAccessible(page, "navigation-drawer");
  await drawer.getByRole("link", { name: "Settings" }).click();
  await page.waitForURL("**/settings");
  await expect(page.getByRole("dialog")).toHaveCount(0);
  await expect(page.getByRole("heading", { name: "Settings" })).toBeVisible();

  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto("/no-such-page");
  await expect(page.getByRole("heading", { name: "Page not found" })).toBeVisible();
  await shot(page, "13-not-found");
  await expectAccessible(page, "not-found");
});
