import { test as base, expect, type Request } from "@playwright/test";
import { API, campaign, owner } from "./support/api";
import { PAGES, startSites, type Sites } from "./support/sites";

/**
 * What the widget reports without the popup: the engaged time on the page, sent with
 * `navigator.sendBeacon` when the visitor leaves (pagehide), as text/plain JSON to the events
 * endpoint, exactly like the page view.
 */
const test = base.extend<object, { sites: Sites }>({
  sites: [
    // eslint-disable-next-line no-empty-pattern
    async ({}, use) => {
      const sites = await startSites(API);
      await use(sites);
      await sites.close();
    },
    { scope: "worker" },
  ],
});

test("engaged time is beaconed on pagehide", async ({ page, context, request, sites }) => {
  const token = await owner(request);
  const id = await campaign(request, token, {
    website: sites.origin,
    // No popup while the visitor moves about near the top edge.
    exitIntent: { enabled: false },
  });
  await context.route(/^https?:\/\/(?!localhost|127\.0\.0\.1)/, (r) => r.abort());
  // Every sendBeacon call, kept where the next page of the site can read it (Playwright does not
  // report a beacon sent by a page that is going away as a request).
  await page.addInitScript(() => {
    const RealBlob = Blob;
    const texts = new WeakMap<Blob, string>();
    window.Blob = function (parts?: BlobPart[], options?: BlobPropertyBag) {
      const blob = new RealBlob(parts, options);
      texts.set(blob, (parts ?? []).map(String).join(""));
      return blob;
    } as unknown as typeof Blob;
    window.Blob.prototype = RealBlob.prototype;
    const send = navigator.sendBeacon;
    navigator.sendBeacon = function (url: string | URL, data?: BodyInit | null) {
      const blob = data as Blob;
      const calls = JSON.parse(localStorage.getItem("__beacons") ?? "[]") as unknown[];
      calls.push({ url: String(url), type: blob.type, text: texts.get(blob) });
      localStorage.setItem("__beacons", JSON.stringify(calls));
      return send.call(navigator, url, data);
    };
  });
  const pageviews: Request[] = [];
  page.on("request", (r) => {
    if (r.url() === `${API}/api/widget/events` && r.method() === "POST") pageviews.push(r);
  });
  const site = PAGES.find((p) => p.name === "bootstrap")!;
  await page.goto(sites.url(site, id), { waitUntil: "load" });
  await expect.poll(() => pageviews.length, { message: "the page view" }).toBe(1);
  const pageview = JSON.parse(pageviews[0]!.postData() ?? "null");
  expect(pageview).toMatchObject({ campaignId: id, type: "pageview" });
  await page.evaluate(() => localStorage.removeItem("__beacons"));

  // About 3.5 s of a visitor moving the pointer and scrolling, then the next page of the site.
  for (let i = 0; i < 7; i += 1) {
    await page.mouse.move(300 + i * 20, 400);
    await page.mouse.wheel(0, 120);
    await page.waitForTimeout(500);
  }
  await page.goto(sites.url(site, ""), { waitUntil: "load" });
  const beacons = await page.evaluate(
    () => JSON.parse(localStorage.getItem("__beacons") ?? "[]") as Record<string, unknown>[],
  );
  expect(beacons).toHaveLength(1);
  const beacon = beacons[0]!;
  expect(beacon.url).toBe(`${API}/api/widget/events`);
  expect(beacon.type).toBe("text/plain;charset=utf-8");
  const body = JSON.parse(String(beacon.text)) as Record<string, unknown>;
  expect(Object.keys(body).sort()).toEqual([
    "campaignId",
    "newSession",
    "seconds",
    "type",
    "visitorId",
  ]);
  expect(body).toMatchObject({
    campaignId: id,
    visitorId: pageview.visitorId,
    type: "engagement",
    newSession: true,
  });
  expect(body.seconds).toBeGreaterThanOrEqual(3);
  expect(body.seconds).toBeLessThanOrEqual(8);
  expect(Number.isInteger(body.seconds)).toBe(true);
});

test("a popup that cannot be styled is not shown, and the console says why", async ({
  page,
  context,
  request,
  sites,
}) => {
  const token = await owner(request);
  const id = await campaign(request, token, { website: sites.origin });
  await context.route(/^https?:\/\/(?!localhost|127\.0\.0\.1)/, (r) => r.abort());
  // A browser without constructable stylesheets.
  await page.addInitScript(() => {
    delete (CSSStyleSheet.prototype as { replaceSync?: unknown }).replaceSync;
  });
  const warnings: string[] = [];
  page.on("console", (m) => {
    if (m.type() === "warning") warnings.push(m.text());
  });
  const impressions: string[] = [];
  page.on("request", (r) => {
    if (r.url().endsWith("/api/widget/events") && /"impression"/.test(r.postData() ?? ""))
      impressions.push(r.url());
  });
  const popupChunk = page.waitForResponse((r) => r.url().includes("/widget/chunks/popup-"));
  const site = PAGES.find((p) => p.name === "bootstrap")!;
  await page.goto(sites.url(site, id), { waitUntil: "load" });
  const before = await page.evaluate(() => document.body.childElementCount);
  await page.mouse.move(640, 300);
  await page.mouse.move(640, 120, { steps: 3 });
  await page.mouse.move(640, -10, { steps: 3 });
  await popupChunk;
  await expect
    .poll(() => warnings.join("\n"))
    .toMatch(/ConvertAssist: the popup is not shown because this browser cannot style it/);
  expect(await page.locator("convertassist-widget").count()).toBe(0);
  expect(await page.evaluate(() => document.body.childElementCount)).toBe(before);
  // Not counted as an impression, nor as a display of the session.
  await page.waitForTimeout(300);
  expect(impressions).toEqual([]);
  expect(await page.evaluate(() => Object.keys(sessionStorage).join(","))).not.toMatch(/ca_shown_/);
});
