import { createHmac } from "node:crypto";
import { expect, test, type Page } from "@playwright/test";
import { checkScreen } from "./a11y";
import { PASSWORD, createSuperuser, loginThroughForm, uniqueEmail } from "./support";

const WIDTHS = [1440, 768, 390];

/** Base32 (RFC 4648) text to bytes, as authenticator apps read a secret. */
function base32Bytes(text: string): Buffer {
  const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";
  let bits = "";
  for (const c of text.replace(/[\s=-]/g, "").toUpperCase()) {
    const value = alphabet.indexOf(c);
    if (value < 0) throw new Error(`not base32: ${c}`);
    bits += value.toString(2).padStart(5, "0");
  }
  const bytes = [];
  for (let i = 0; i + 8 <= bits.length; i += 8)
    bytes.push(Number.parseInt(bits.slice(i, i + 8), 2));
  return Buffer.from(bytes);
}

/** The 6-digit code an authenticator app shows at `ms` (RFC 6238: HMAC-SHA1, 30 s steps). */
function totp(secret: string, ms = Date.now()): string {
  const counter = Buffer.alloc(8);
  counter.writeBigUInt64BE(BigInt(Math.floor(ms / 1000 / 30)));
  const hash = createHmac("sha1", base32Bytes(secret)).update(counter).digest();
  const offset = hash.readUInt8(hash.length - 1) & 0x0f;
  const value = (hash.readUInt32BE(offset) & 0x7fffffff) % 1_000_000;
  return value.toString().padStart(6, "0");
}

test("the code function gives RFC 6238's published codes", () => {
  // Appendix B, SHA1, secret "12345678901234567890" (base32 below); the last 6 of its 8 digits.
  const secret = "GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ";
  expect(totp(secret, 59_000)).toBe("287082");
  expect(totp(secret, 1_111_111_109_000)).toBe("081804");
  expect(totp(secret, 1_234_567_890_000)).toBe("005924");
  expect(totp(secret, 20_000_000_000_000)).toBe("353130");
});

/** Waits for the next 30-second step: a code works once, so the next sign-in needs a new one. */
async function nextStep(page: Page) {
  const left = 30_000 - (Date.now() % 30_000);
  await page.waitForTimeout(left + 500);
}

async function eachWidth(page: Page, screen: string) {
  for (const width of WIDTHS) {
    await page.setViewportSize({ width, height: 900 });
    await checkScreen(page, `${screen}`);
  }
  await page.setViewportSize({ width: 1440, height: 900 });
}

test("a superuser turns on two-factor sign-in and signs in with a code", async ({ page }) => {
  test.setTimeout(120_000);
  const email = uniqueEmail("root-2fa");
  createSuperuser(email, "Meera Root");
  await loginThroughForm(page, email);
  await page.waitForURL("**/dashboard");

  // Settings → Security has the entry.
  await page.goto("/settings");
  await page.getByRole("tab", { name: "Security" }).click();
  await page.getByRole("link", { name: "Set up two-factor sign-in" }).click();
  await page.waitForURL("**/account/two-factor");
  await expect(page.getByRole("heading", { name: "Two-factor sign-in" })).toBeVisible();
  await page.getByRole("button", { name: "Set up two-factor sign-in" }).click();

  await expect(page.getByRole("img", { name: /QR code/ })).toBeVisible();
  const codes = page.getByRole("list", { name: "Recovery codes" }).getByRole("listitem");
  await expect(codes).toHaveCount(10);
  await eachWidth(page, "2fa-enrolment");
  const secret = (await page.locator("code").first().innerText()).replace(/\s/g, "");
  expect(secret).toMatch(/^[A-Z2-7]{32}$/);

  await page.getByLabel("6-digit code").fill(totp(secret));
  await page.getByRole("button", { name: "Turn on" }).click();
  await expect(page.getByText("Two-factor sign-in is on.", { exact: true })).toBeVisible();
  // The recovery codes are not shown again.
  await expect(page.getByRole("list", { name: "Recovery codes" })).toHaveCount(0);

  // Signing in now asks for a code after the password.
  await page.getByRole("button", { name: "Sign out" }).click();
  await loginThroughForm(page, email);
  await expect(page.getByRole("heading", { name: "Enter your code" })).toBeVisible();
  await eachWidth(page, "2fa-sign-in-code");
  await page.getByLabel("Authentication code").fill("000000");
  await page.getByRole("button", { name: "Verify and sign in" }).click();
  await expect(page.getByRole("alert")).toContainText("That code is not right");
  await nextStep(page);
  await page.getByLabel("Authentication code").fill(totp(secret));
  await page.getByRole("button", { name: "Verify and sign in" }).click();
  await page.waitForURL("**/dashboard");
  await page.goto("/admin/superadmin");
  await expect(page.getByRole("tab", { name: "System" })).toBeVisible();
});

test("staff past the grace period are sent to set it up", async ({ page }) => {
  const rootEmail = uniqueEmail("root-grace");
  createSuperuser(rootEmail, "Ravi Root");
  await loginThroughForm(page, rootEmail);
  await page.waitForURL("**/dashboard");
  const api = async (method: "GET" | "POST" | "PUT", path: string, token: string, data?: object) =>
    page.request.fetch(path, { method, headers: { Authorization: `Bearer ${token}` }, data });
  // The superuser turns it on first (through the API), so a 0-day grace period leaves them in.
  let root = (await page.evaluate(() => localStorage.getItem("token"))) ?? "";
  // Off the dashboard while its token is replaced (its calls would meet the revoked one).
  await page.goto("/home");
  const setup = await (await api("POST", "/api/auth/2fa/setup", root)).json();
  const enabled = await api("POST", "/api/auth/2fa/enable", root, { code: totp(setup.secret) });
  expect(enabled.status()).toBe(200);
  root = (await enabled.json()).token;
  await page.evaluate((t) => localStorage.setItem("token", t), root);
  const adminEmail = uniqueEmail("admin-grace");
  const created = await api("POST", "/api/admin/users/create-admin", root, {
    name: "Anil Admin",
    email: adminEmail,
    password: PASSWORD,
    phone: "+91 9876543210",
  });
  expect(created.status()).toBe(200);

  try {
    // The superuser sets the grace period to 0 days on the System tab.
    await page.goto("/admin/superadmin");
    await page.getByRole("tab", { name: "System" }).click();
    await page.getByLabel("Grace period (days)").fill("0");
    await page.getByRole("button", { name: "Save Grace Period" }).click();
    await expect(page.getByText("Grace period saved.")).toBeVisible();

    // The admin signs in and lands on the set-up page; the admin area stays closed.
    await page.evaluate(() => localStorage.clear());
    await loginThroughForm(page, adminEmail);
    await page.waitForURL("**/account/two-factor");
    await expect(page.getByText("Set up two-factor sign-in to continue")).toBeVisible();
    await eachWidth(page, "2fa-required");
    await page.goto("/admin/users");
    await page.waitForURL("**/account/two-factor");
    const adminToken = (await page.evaluate(() => localStorage.getItem("token"))) ?? "";
    const refused = await api("GET", "/api/admin/users", adminToken);
    expect(refused.status()).toBe(403);
    expect((await refused.json()).code).toBe("two_factor_enrolment_required");
  } finally {
    // The other journeys' staff keep the usual grace period.
    const restored = await api("PUT", "/api/admin/settings/two-factor", root, { graceDays: 14 });
    expect(restored.status()).toBe(200);
  }
});
