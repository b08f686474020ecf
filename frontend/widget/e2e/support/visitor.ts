import type { CDPSession, Page } from "@playwright/test";

/**
 * What the journeys watch on the host page, installed before the page's own scripts: layout
 * shifts, and the page's scroll position just before the popup is built and just after (the
 * popup chunk attaches its Shadow DOM, then renders and focuses in the same task).
 */
export function probe(): void {
  type Probe = {
    shifts: number[];
    shiftSources: string[];
    scrolls: number[][];
    opening: { before: number[]; after: number[] | null } | null;
    csp: string[];
  };
  const w = window as unknown as { __ca: Probe };
  const ca: Probe = { shifts: [], shiftSources: [], scrolls: [], opening: null, csp: [] };
  w.__ca = ca;
  document.addEventListener("securitypolicyviolation", (e) =>
    ca.csp.push(
      `${e.effectiveDirective} ${e.blockedURI || "inline"} ${e.sourceFile}:${e.lineNumber}`,
    ),
  );
  addEventListener(
    "scroll",
    () => ca.scrolls.push([Math.round(performance.now()), window.scrollY]),
    {
      passive: true,
    },
  );
  type Shift = {
    value: number;
    hadRecentInput: boolean;
    startTime: number;
    sources?: { node?: Node | null }[];
  };
  new PerformanceObserver((list) => {
    for (const e of list.getEntries() as unknown as Shift[]) {
      if (e.hadRecentInput) continue;
      ca.shifts.push(e.value);
      let what = "";
      for (const src of e.sources ?? []) {
        const n = src.node as Element | null | undefined;
        what += ` ${n?.nodeName ?? "?"}${n?.id ? "#" + n.id : ""}${n?.className && typeof n.className === "string" ? "." + n.className.split(" ")[0] : ""}`;
      }
      ca.shiftSources.push(`${Math.round(e.startTime)}ms ${e.value.toFixed(4)}${what}`);
    }
  }).observe({ type: "layout-shift", buffered: true });
  const attach = Element.prototype.attachShadow;
  Element.prototype.attachShadow = function (this: Element, init: ShadowRootInit) {
    if (this.localName === "convertassist-widget") {
      const opening = { before: [window.scrollX, window.scrollY], after: null as number[] | null };
      ca.opening = opening;
      queueMicrotask(() => {
        opening.after = [window.scrollX, window.scrollY];
      });
    }
    return attach.call(this, init);
  };
}

export async function layoutShift(page: Page): Promise<number> {
  return page.evaluate(() => {
    const s = (window as unknown as { __ca: { shifts: number[] } }).__ca.shifts;
    let sum = 0;
    for (let i = 0; i < s.length; i += 1) sum += s[i] as number;
    return sum;
  });
}

export async function scrollPos(page: Page): Promise<[number, number]> {
  return page.evaluate(() => [window.scrollX, window.scrollY] as [number, number]);
}

/**
 * Waits until the page's own layout stops shifting (transitions its scripts started, images
 * arriving), so that what shifts afterwards is the widget's doing; answers the shifts so far.
 */
export async function layoutQuiet(page: Page): Promise<number> {
  let last = await layoutShift(page);
  for (let i = 0; i < 20; i += 1) {
    await page.waitForTimeout(400);
    const now = await layoutShift(page);
    if (now === last) return now;
    last = now;
  }
  return last;
}

/** Waits until the page's scroll position stops changing (a fling, a smooth scroll). */
export async function settle(page: Page): Promise<[number, number]> {
  let last = await scrollPos(page);
  for (let i = 0; i < 40; i += 1) {
    await page.waitForTimeout(150);
    const now = await scrollPos(page);
    if (now[0] === last[0] && now[1] === last[1]) return now;
    last = now;
  }
  return last;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * A finger on a touch screen, through CDP like real touches (the page sees touch events and
 * scrolls): from (x, y) by each step's `dy` after its `gap` ms (uneven gaps, as a real finger),
 * then still for `hold` ms before it lifts (no fling afterwards).
 */
export async function swipe(
  cdp: CDPSession,
  x: number,
  y: number,
  steps: [dy: number, gap: number][],
  hold = 0,
): Promise<void> {
  await cdp.send("Input.dispatchTouchEvent", { type: "touchStart", touchPoints: [{ x, y }] });
  for (const [dy, gap] of steps) {
    await sleep(gap);
    y += dy;
    await cdp.send("Input.dispatchTouchEvent", { type: "touchMove", touchPoints: [{ x, y }] });
  }
  if (hold) await sleep(hold);
  await cdp.send("Input.dispatchTouchEvent", { type: "touchEnd", touchPoints: [] });
}

/** A vertical drag of `dy` px from (x, y) in four even steps. */
export async function drag(cdp: CDPSession, x: number, y: number, dy: number): Promise<void> {
  await swipe(
    cdp,
    x,
    y,
    [
      [dy / 4, 16],
      [dy / 4, 16],
      [dy / 4, 16],
      [dy / 4, 16],
    ],
    100,
  );
}

/** A tap, as a finger does it. */
export async function tap(cdp: CDPSession, x: number, y: number): Promise<void> {
  await cdp.send("Input.dispatchTouchEvent", { type: "touchStart", touchPoints: [{ x, y }] });
  await sleep(40);
  await cdp.send("Input.dispatchTouchEvent", { type: "touchEnd", touchPoints: [] });
}

/** The layout shifts so far: when, how much, which elements moved. */
export async function shiftSources(page: Page): Promise<string> {
  return page.evaluate(() =>
    (window as unknown as { __ca: { shiftSources: string[] } }).__ca.shiftSources.join("; "),
  );
}
