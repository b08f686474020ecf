import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { expect, test, type Page } from "@playwright/test";
import { checkScreen, settled } from "./a11y";
import { uniqueEmail } from "./support";

/**
 * Settings → Notifications → Push notifications in Chromium with the notification permission
 * granted: switching it on registers the dashboard's service worker (served at /sw.js), subscribes
 * with the server's VAPID key and stores the subscription; switching it off removes it, both
 * checked through the API. A browser that blocked notifications is told how to allow them.
 *
 * Chromium's own push service is Google's (FCM), which a test machine cannot reach, and Chromium
 * refuses push in Playwright's private contexts: so only `PushManager` is replaced, by one that
 * makes a real P-256 key pair and auth secret (WebCrypto) and an address at a push service
 * stand-in started here, as Chromium's would. The permission, the service worker, the dashboard
 * and the server are real.
 */

let service: Server;
let PUSH_BASE = "";

test.beforeAll(async () => {
  service = createServer((_req, res) => {
    res.statusCode = 201;
    res.end();
  });
  await new Promise<void>((resolve) => service.listen(0, "127.0.0.1", resolve));
  PUSH_BASE = `http://127.0.0.1:${(service.address() as AddressInfo).port}`;
});

test.afterAll(async () => {
  await new Promise((resolve) => service.close(resolve));
});

/** Replaces PushManager's subscription calls with the stand-in described above. */
async function pushServiceStandIn(page: Page) {
  await page.addInitScript((base: string) => {
    const b64url = (bytes: Uint8Array) =>
      btoa(String.fromCharCode(...bytes))
        .replace(/\+/g, "-")
        .replace(/\//g, "_")
        .replace(/=+$/, "");
    const w = window as unknown as { __pushKey?: string };
    let current: PushSubscription | null = null;
    PushManager.prototype.getSubscription = async () => current;
    PushManager.prototype.subscribe = async (options?: PushSubscriptionOptionsInit) => {
      if (Notification.permission !== "granted")
        throw new DOMException("denied", "NotAllowedError");
      const key = new Uint8Array(options?.applicationServerKey as ArrayBuffer);
      w.__pushKey = b64url(key);
      const pair = await crypto.subtle.generateKey({ name: "ECDH", namedCurve: "P-256" }, true, [
        "deriveBits",
      ]);
      const p256dh = b64url(new Uint8Array(await crypto.subtle.exportKey("raw", pair.publicKey)));
      const auth = b64url(crypto.getRandomValues(new Uint8Array(16)));
      const endpoint = `${base}/push/${b64url(crypto.getRandomValues(new Uint8Array(12)))}`;
      const sub = {
        endpoint,
        expirationTime: null,
        options: { applicationServerKey: key.buffer, userVisibleOnly: true },
        toJSON: () => ({ endpoint, expirationTime: null, keys: { p256dh, auth } }),
        unsubscribe: async () => {
          current = null;
          return true;
        },
      } as unknown as PushSubscription;
      current = sub;
      return sub;
    };
  }, PUSH_BASE);
}

async function signIn(page: Page): Promise<string> {
  const res = await page.request.post("/api/auth/register", {
    data: {
      name: "Kavya Raghunathan",
      email: uniqueEmail("push"),
      password: "kesar-123",
      phone: "9876543210",
    },
  });
  expect(res.status()).toBe(201);
  const token = (await res.json()).token as string;
  await page.goto("/login");
  await page.evaluate((t) => localStorage.setItem("token", t), token);
  return token;
}

async function storedEndpoints(page: Page, token: string): Promise<string[]> {
  const res = await page.request.get("/api/push/subscriptions", {
    headers: { authorization: `Bearer ${token}` },
  });
  expect(res.status()).toBe(200);
  return ((await res.json()).data as { endpoint: string }[]).map((s) => s.endpoint);
}

async function openNotifications(page: Page) {
  await page.goto("/settings");
  await page.getByRole("tab", { name: "Notifications" }).click();
}

test.describe("with the notification permission granted", () => {
  test.use({ permissions: ["notifications"] });

  test("switching push on stores this browser's subscription, switching it off removes it", async ({
    page,
  }) => {
    await pushServiceStandIn(page);
    const token = await signIn(page);

    const sw = await page.request.get("/sw.js");
    expect(sw.status()).toBe(200);
    expect(sw.headers()["content-type"]).toMatch(/javascript/);
    expect(sw.headers()["cache-control"]).toBe("no-cache");

    await openNotifications(page);
    const push = page.getByRole("switch", { name: "Push notifications" });
    await expect(push).toBeEnabled();
    await expect(push).not.toBeChecked();
    expect(await storedEndpoints(page, token)).toEqual([]);

    await push.click({ force: true });
    await expect(push).toBeChecked();
    const stored = await storedEndpoints(page, token);
    expect(stored).toHaveLength(1);
    expect(stored[0]).toContain(`${PUSH_BASE}/push/`);
    // Subscribed with the server's VAPID key, through the dashboard's service worker.
    const key = await page.request.get("/api/push/vapid-public-key", {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(await page.evaluate(() => (window as unknown as { __pushKey?: string }).__pushKey)).toBe(
      (await key.json()).publicKey,
    );
    const script = await page.evaluate(
      async () => (await navigator.serviceWorker.getRegistration("/"))?.active?.scriptURL ?? "",
    );
    expect(new URL(script).pathname).toBe("/sw.js");

    for (const width of [1440, 768, 390]) {
      await page.setViewportSize({ width, height: 900 });
      await settled(page);
      await checkScreen(page, "settings-push-on");
    }
    await page.setViewportSize({ width: 1280, height: 800 });

    await push.click({ force: true });
    await expect(push).not.toBeChecked();
    await expect.poll(() => storedEndpoints(page, token)).toEqual([]);
  });
});

test("a browser that blocked notifications is told how to allow them", async ({
  page,
  context,
}) => {
  await signIn(page);
  const origin = new URL(page.url()).origin;
  // As if the person had answered "Block": the browser context's own setting.
  const cdp = await context.newCDPSession(page);
  const { targetInfo } = await cdp.send("Target.getTargetInfo");
  await cdp.send("Browser.setPermission", {
    permission: { name: "notifications" },
    setting: "denied",
    origin,
    browserContextId: targetInfo.browserContextId,
  });
  expect(await page.evaluate(() => Notification.permission)).toBe("denied");
  await openNotifications(page);
  const push = page.getByRole("switch", { name: "Push notifications" });
  await expect(page.getByTestId("push-blocked")).toContainText(
    "Notifications are blocked for this site",
  );
  await expect(push).toBeDisabled();
  for (const width of [1440, 768, 390]) {
    await page.setViewportSize({ width, height: 900 });
    await settled(page);
    await checkScreen(page, "settings-push-blocked");
  }
});
