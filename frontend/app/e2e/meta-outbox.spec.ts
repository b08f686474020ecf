import { execFileSync } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect, test, type Page } from "@playwright/test";
import { expectAccessible } from "./a11y";
import { PASSWORD, loginThroughForm, runSql, shot, uniqueEmail } from "./support";

/** Creates a superuser with the server binary's own command, on the e2e server's database. */
function createSuperuser(email: string) {
  const bin = process.env.E2E_SERVER_BIN;
  const db = process.env.E2E_DATABASE_URL;
  const secret = process.env.E2E_JWT_SECRET;
  if (!bin || !db || !secret) {
    throw new Error("E2E_SERVER_BIN, E2E_DATABASE_URL and E2E_JWT_SECRET must be set");
  }
  execFileSync(
    bin,
    [
      "create-superuser",
      "--email",
      email,
      "--name",
      "Asha Verma",
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

const REJECTED =
  "Meta token rejected: Meta answered 400: Error validating access token: Session has expired on Thursday, 26-Nov-26. [type OAuthException, code 190, subcode 463, fbtrace_id A1bC2dE]";
const REFUSED =
  "Meta answered 400: Invalid parameter (The timestamp for this event is too far in the past.) [type OAuthException, code 100, subcode 2804003, fbtrace_id AxYz]";

/** The outbox as Meta would leave it: one event refused, one waiting on a rejected token, a
 * simulator purchase never sent, one sent; and sending paused. Removed again afterwards, so
 * the other journeys see the outbox as they left it. */
function seedOutbox(tag: string) {
  const now = new Date().toISOString();
  const rows: [string, string, string, string | null, number][] = [
    [`lead-e2e-${tag}-refused`, "Lead", "failed", REFUSED, 1],
    [`purchase-e2e-${tag}-waiting`, "Purchase", "pending", REJECTED, 0],
    [
      `purchase-e2e-${tag}-sim`,
      "Purchase",
      "skipped",
      "No money moved (simulator or demo payment): never sent to Meta",
      0,
    ],
    [`lead-e2e-${tag}-sent`, "Lead", "sent", null, 0],
  ];
  for (const [eventId, name, status, reason, attempts] of rows) {
    runSql(
      "INSERT INTO meta_events (id, event_id, event_name, event_time, payload, status, attempts, next_attempt_at, last_error, created_at, test_event) VALUES (?, ?, ?, ?, '{}', ?, ?, ?, ?, ?, false)",
      `e2e-${eventId}`,
      eventId,
      name,
      now,
      status,
      attempts,
      now,
      reason ?? "",
      now,
    );
  }
  runSql("UPDATE meta_events SET last_error = NULL WHERE last_error = ''");
  runSql(
    "INSERT INTO meta_outbox_state (id, paused_reason, paused_at, token_fingerprint) VALUES ('outbox', ?, ?, 'e2e') ON CONFLICT (id) DO UPDATE SET paused_reason = excluded.paused_reason, paused_at = excluded.paused_at",
    REJECTED,
    now,
  );
}

const PIXEL_REFUSED =
  "Meta refused the pixel: Meta answered 400: Unsupported post request. Object with ID '1234567890123456' does not exist, cannot be loaded due to missing permissions, or does not support this operation. [type GraphMethodException, code 100, subcode 33, fbtrace_id Ab2]";

function clearOutbox(tag: string) {
  runSql("DELETE FROM meta_events WHERE event_id LIKE ?", `%-e2e-${tag}-%`);
  runSql("DELETE FROM meta_outbox_state WHERE token_fingerprint = 'e2e'");
}

async function openSystemTab(page: Page) {
  await page.goto("/admin/superadmin");
  await page.getByRole("tab", { name: "System" }).click();
  await expect(page.getByRole("tabpanel")).toBeVisible();
}

test("the System tab shows the Meta outbox paused, with what failed and why", async ({ page }) => {
  const tag = String(Date.now());
  const email = uniqueEmail("meta-staff");
  createSuperuser(email);
  await loginThroughForm(page, email);
  await page.waitForURL("**/dashboard");
  seedOutbox(tag);
  try {
    for (const width of [1440, 768, 390]) {
      await page.setViewportSize({ width, height: 900 });
      await openSystemTab(page);
      const meta = page.getByTestId("meta-outbox");
      await expect(meta.getByTestId("meta-outbox-state")).toHaveText("Paused");
      const paused = meta.getByTestId("meta-outbox-paused");
      await expect(paused).toContainText("Meta token rejected");
      await expect(paused).toContainText("code 190");
      await expect(
        meta.getByRole("row", { name: new RegExp(`lead-e2e-${tag}-refused`) }),
      ).toContainText("too far in the past");
      await expect(
        meta.getByRole("row", { name: new RegExp(`purchase-e2e-${tag}-sim`) }),
      ).toContainText("Never sent");
      await page.waitForLoadState("networkidle");
      await page.evaluate(() => window.scrollTo(0, 0));
      await shot(page, `93-admin-system-meta-outbox-${width}`);
      if (width !== 768) await expectAccessible(page, `meta outbox at ${width}px`);

      // Staff look at one state: only the failed events, then all again.
      const show = meta.getByRole("textbox", { name: "Show" });
      await show.click();
      await page.getByRole("option", { name: "Failed", exact: true }).click();
      const refused = meta.getByRole("row", { name: new RegExp(`lead-e2e-${tag}-refused`) });
      await expect(refused).toBeVisible();
      await expect(meta.getByRole("row", { name: new RegExp(`-e2e-${tag}-sim`) })).toHaveCount(0);
      await expect(meta.getByRole("row", { name: new RegExp(`-e2e-${tag}-sent`) })).toHaveCount(0);
      await meta.scrollIntoViewIfNeeded();
      await shot(page, `93-admin-system-meta-outbox-failed-${width}`);
      await show.click();
      await page.getByRole("option", { name: "All events" }).click();
      await expect(meta.getByRole("row", { name: new RegExp(`-e2e-${tag}-sim`) })).toBeVisible();
    }
  } finally {
    clearOutbox(tag);
  }
  await openSystemTab(page);
  await expect(page.getByTestId("meta-outbox-paused")).toHaveCount(0);
});

test("a pixel Meta refuses pauses the outbox with the pixel id to fix", async ({ page }) => {
  const tag = `px${Date.now()}`;
  const email = uniqueEmail("meta-pixel");
  createSuperuser(email);
  await loginThroughForm(page, email);
  await page.waitForURL("**/dashboard");
  seedOutbox(tag);
  runSql(
    "UPDATE meta_outbox_state SET paused_reason = ? WHERE token_fingerprint = 'e2e'",
    PIXEL_REFUSED,
  );
  try {
    for (const width of [1440, 768, 390]) {
      await page.setViewportSize({ width, height: 900 });
      await openSystemTab(page);
      const paused = page.getByTestId("meta-outbox-paused");
      await expect(paused).toContainText("Meta refused the pixel");
      await expect(paused).toContainText(
        "once CA_META_PIXEL_ID names a pixel this access token may send to",
      );
      await expect(paused).not.toContainText("Meta token rejected");
      await expect(paused).toContainText("subcode 33");
      await page.waitForLoadState("networkidle");
      await page.evaluate(() => window.scrollTo(0, 0));
      await shot(page, `93-admin-system-meta-pixel-refused-${width}`);
      if (width !== 768) await expectAccessible(page, `meta pixel refused at ${width}px`);
    }
  } finally {
    clearOutbox(tag);
  }
});
