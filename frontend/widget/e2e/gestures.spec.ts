import { readFileSync } from "node:fs";
import { join } from "node:path";
import { test as base, expect, type CDPSession, type Page } from "@playwright/test";
import { API, campaign, owner } from "./support/api";
import { ARTICLE_PAGE, startSites, type Sites } from "./support/sites";

/**
 * The gesture corpus (gestures/corpus.json, made by gestures/generate.mjs) replayed on a Pixel 7
 * as CDP touch events (Input.dispatchTouchEvent) at the times they were recorded, on a long
 * article, once per sensitivity: no reading trace may open the popup, and at least 90 % of the
 * exit traces must. Each trace is a fresh visit (storage cleared, the popup armed at once).
 * The figures are printed per sensitivity.
 */

type Step =
  | { at: number; touch: "start" | "move" | "end"; points: [number, number][] }
  | { at: number; page: "hide" | "show" }
  | { at: number; page: "rest"; ms: number };
interface Trace {
  name: string;
  kind: "reading" | "exit";
  what: string;
  start: number;
  steps: Step[];
}

const CORPUS = JSON.parse(
  readFileSync(join(import.meta.dirname, "gestures", "corpus.json"), "utf8"),
) as { traces: Trace[] };

const SENSITIVITIES = ["low", "medium", "high"] as const;

const test = base.extend<object, { sites: Sites; owners: string[] }>({
  sites: [
    // eslint-disable-next-line no-empty-pattern
    async ({}, use) => {
      const sites = await startSites(API);
      await use(sites);
      await sites.close();
    },
    { scope: "worker" },
  ],
  owners: [
    async ({ playwright }, use) => {
      const request = await playwright.request.newContext();
      const tokens: string[] = [];
      for (let i = 0; i < SENSITIVITIES.length; i += 1) tokens.push(await owner(request));
      await use(tokens);
      await request.dispose();
    },
    { scope: "worker" },
  ],
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The visitor leaves the tab or comes back (headless Chromium never hides a page itself). */
async function visibility(page: Page, state: "hidden" | "visible") {
  await page.evaluate((s) => {
    Object.defineProperty(document, "visibilityState", { configurable: true, get: () => s });
    Object.defineProperty(document, "hidden", { configurable: true, get: () => s === "hidden" });
    document.dispatchEvent(new Event("visibilitychange"));
  }, state);
}

/**
 * Replays a trace at its recorded times. Chromium takes one touch event per frame from CDP (here
 * often 30 fps), so reports that fall due while the previous one is still being handled are
 * coalesced into the latest, as Chromium does with touch moves on a busy main thread: the finger
 * is always where the trace puts it at that time, only sampled less often.
 */
async function replay(page: Page, cdp: CDPSession, trace: Trace) {
  const t0 = Date.now();
  const steps = trace.steps;
  for (let i = 0; i < steps.length; i += 1) {
    const wait = (steps[i] as Step).at - (Date.now() - t0);
    if (wait > 0) await sleep(wait);
    const now = Date.now() - t0;
    const isMove = (s: Step | undefined) => !!s && "touch" in s && s.touch === "move";
    if (isMove(steps[i])) while (isMove(steps[i + 1]) && (steps[i + 1] as Step).at <= now) i += 1;
    const step = steps[i] as Step;
    if ("touch" in step) {
      const type =
        step.touch === "start" ? "touchStart" : step.touch === "move" ? "touchMove" : "touchEnd";
      await cdp.send("Input.dispatchTouchEvent", {
        type,
        touchPoints: step.points.map(([x, y], id) => ({ x, y, id })),
      });
    } else if (step.page === "rest") {
      // Time passes with nothing touched: every timer the widget may have set comes due.
      await page.clock.fastForward(step.ms);
    } else {
      await visibility(page, step.page === "hide" ? "hidden" : "visible");
    }
  }
}

for (const [n, sensitivity] of SENSITIVITIES.entries()) {
  test(`gesture corpus, sensitivity ${sensitivity}`, async ({
    page,
    context,
    request,
    sites,
    owners,
  }, info) => {
    test.setTimeout(300_000);
    const id = await campaign(request, owners[n] as string, {
      website: sites.origin,
      exitIntent: { sensitivity },
    });
    await context.route(/^https?:\/\/(?!localhost|127\.0\.0\.1)/, (r) => r.abort());
    // A fresh visitor every time: no earlier display, cooldown or session.
    await context.addInitScript(() => {
      try {
        localStorage.clear();
        sessionStorage.clear();
      } catch {
        // storage blocked: nothing to clear
      }
    });
    await page.clock.install();
    const cdp = await context.newCDPSession(page);
    const seen = { impression: false };
    page.on("request", (r) => {
      if (r.url().endsWith("/api/widget/events") && /"impression"/.test(r.postData() ?? ""))
        seen.impression = true;
    });

    const rows: string[] = [];
    const count = { reading: 0, falseOpens: 0, exit: 0, opens: 0 };
    const falseOpens: string[] = [];
    const missed: string[] = [];
    for (const trace of CORPUS.traces) {
      seen.impression = false;
      const config = page.waitForResponse((r) => r.url().includes(`/campaigns/${id}/config`));
      await page.goto(sites.url(ARTICLE_PAGE, id), { waitUntil: "load" });
      await config;
      await page.evaluate((y) => window.scrollTo({ top: y, behavior: "instant" }), trace.start);
      await sleep(400);
      await replay(page, cdp, trace);
      // The momentum of a flick, and the popup's import.
      await sleep(1200);
      const open = seen.impression || (await page.locator("convertassist-widget").count()) > 0;
      if (trace.kind === "reading") {
        count.reading += 1;
        if (open) {
          count.falseOpens += 1;
          falseOpens.push(trace.name);
        }
      } else {
        count.exit += 1;
        if (open) count.opens += 1;
        else missed.push(trace.name);
      }
      rows.push(
        `  ${open ? "open  " : "closed"} ${trace.kind.padEnd(7)} ${trace.name}: ${trace.what}`,
      );
    }
    const share = Math.round((100 * count.opens) / count.exit);
    const summary =
      `sensitivity ${sensitivity}: exit traces ${count.opens}/${count.exit} opened (${share} %), ` +
      `reading traces ${count.falseOpens}/${count.reading} opened (false opens)`;
    console.log(`${summary}\n${rows.join("\n")}`);
    info.annotations.push({ type: "gesture corpus", description: summary });
    expect(falseOpens, `false opens at ${sensitivity}`).toEqual([]);
    expect(
      count.opens / count.exit,
      `exit traces opened at ${sensitivity} (missed: ${missed.join(", ")})`,
    ).toBeGreaterThanOrEqual(0.9);
  });
}
