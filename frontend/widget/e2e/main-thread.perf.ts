import { test, type Browser, type Page } from "@playwright/test";
import { API, campaign, owner } from "./support/api";
import { PAGES, startSites } from "./support/sites";

/**
 * The widget's main-thread cost, from Chromium traces (`npm run perf --workspace widget`):
 *
 * - on a page load: everything the renderer's main thread spends in the widget's own code
 *   (compiling and running ca-widget.js, its callbacks: the configuration's answer, listeners);
 * - when the popup opens: the widget's code from the exit (the listener, compiling and running
 *   the popup chunk, building the popup, its calls) and the style, layout and paint work of the
 *   frames that draw it.
 *
 * Median of five fresh browser contexts on the Start Bootstrap Creative template (another test
 * page with E2E_PERF_PAGE, e.g. `hostile`), desktop, no CPU throttling. Printed, never asserted.
 */

const RUNS = 5;
const WIDGET_URL = /\/widget\/(ca-widget\.js|chunks\/)/;
const SCRIPT = new Set([
  "EvaluateScript",
  "v8.compile",
  "v8.compileModule",
  "v8.evaluateModule",
  "FunctionCall",
  "TimerFire",
  "EventDispatch",
  "FireAnimationFrame",
  "RunMicrotasks",
  "v8.run",
  "V8.Execute",
]);
const RENDERING = new Set([
  "UpdateLayoutTree",
  "Layout",
  "PrePaint",
  "Paint",
  "Layerize",
  "UpdateLayer",
  "Commit",
  "ParseAuthorStyleSheet",
  "HitTest",
]);

interface TraceEvent {
  name: string;
  ph: string;
  id?: string;
  ts: number;
  dur?: number;
  tdur?: number;
  pid: number;
  tid: number;
  args?: { name?: string; data?: Record<string, unknown>; fileName?: string };
}

function urlOf(e: TraceEvent): string {
  const d = e.args?.data ?? {};
  const frames = (d.stackTrace as { url?: string }[] | undefined) ?? [];
  return String(d.url ?? d.scriptName ?? e.args?.fileName ?? frames[0]?.url ?? "");
}

/** The page's renderer main thread: the CrRendererMain that ran the widget. */
function mainThread(events: TraceEvent[]): { pid: number; tid: number } {
  const mains = events.filter((e) => e.ph === "M" && e.args?.name === "CrRendererMain");
  for (const m of mains) {
    if (events.some((e) => e.pid === m.pid && e.tid === m.tid && WIDGET_URL.test(urlOf(e))))
      return { pid: m.pid, tid: m.tid };
  }
  throw new Error("no renderer ran the widget");
}

interface ProfileNode {
  id: number;
  parent?: number;
  callFrame: { url?: string; functionName: string };
}

/** The V8 sampling profiler's samples of the thread: time, and whether the widget's code ran. */
function samples(
  events: TraceEvent[],
  pid: number,
  tid: number,
): { ts: number; widget: boolean }[] {
  const nodes = new Map<number, ProfileNode>();
  const out: { ts: number; id: number }[] = [];
  for (const e of events) {
    if (e.name !== "Profile" || e.pid !== pid || e.tid !== tid) continue;
    let ts = Number((e.args?.data as { startTime?: number } | undefined)?.startTime ?? 0);
    for (const c of events) {
      if (c.name !== "ProfileChunk" || c.id !== e.id || c.pid !== pid) continue;
      const d = c.args?.data as {
        cpuProfile?: { nodes?: ProfileNode[]; samples?: number[] };
        timeDeltas?: number[];
      };
      for (const n of d.cpuProfile?.nodes ?? []) nodes.set(n.id, n);
      const ids = d.cpuProfile?.samples ?? [];
      for (let i = 0; i < ids.length; i += 1) {
        ts += d.timeDeltas?.[i] ?? 0;
        out.push({ ts, id: ids[i] as number });
      }
    }
  }
  const memo = new Map<number, boolean>();
  const isWidget = (id: number): boolean => {
    const known = memo.get(id);
    if (known !== undefined) return known;
    const n = nodes.get(id);
    const yes =
      !!n &&
      (WIDGET_URL.test(n.callFrame.url ?? "") || (n.parent !== undefined && isWidget(n.parent)));
    memo.set(id, yes);
    return yes;
  };
  if (process.env.PERF_DEBUG) {
    const tops = new Map<string, number>();
    for (const s of out) {
      if (!isWidget(s.id)) continue;
      const n = nodes.get(s.id);
      const key = `${n?.callFrame.functionName || "(anonymous)"} ${(n?.callFrame.url ?? "").slice(-12)}`;
      tops.set(key, (tops.get(key) ?? 0) + 1);
    }
    console.log([...tops].sort((a, b) => b[1] - a[1]).slice(0, 12));
  }
  return out.map((s) => ({ ts: s.ts, widget: isWidget(s.id) }));
}

/**
 * Milliseconds of main-thread CPU time (the trace's thread time, so other processes on the
 * machine do not inflate it) the widget costs between two user-timing marks, or over the whole
 * trace:
 * - every task of the thread counts with the share of its V8 samples that were in the widget's
 *   scripts (with the DOM calls, style and layout they made), or whole when it compiled or ran
 *   them without being sampled (it is short then);
 * - with `rendering`, the style, layout and paint work of the other tasks in the window (the
 *   page is idle then: that is drawing the popup).
 */
function cost(
  buffer: Buffer,
  window?: [string, string],
  rendering = false,
): { js: number; drawing: number } {
  const events = (JSON.parse(buffer.toString("utf8")) as { traceEvents: TraceEvent[] }).traceEvents;
  const { pid, tid } = mainThread(events);
  let from = -Infinity;
  let to = Infinity;
  if (window) {
    const mark = (name: string) => events.find((e) => e.name === name)?.ts;
    from = mark(window[0]) ?? from;
    to = mark(window[1]) ?? to;
  }
  const own = events
    .filter((e) => e.pid === pid && e.tid === tid && e.ph === "X" && e.dur !== undefined)
    .filter((e) => e.ts >= from && e.ts <= to)
    .sort((a, b) => a.ts - b.ts);
  const sampled = samples(events, pid, tid);
  const cpu = (e: TraceEvent) => e.tdur ?? e.dur ?? 0;
  let js = 0;
  let drawing = 0;
  for (const task of own) {
    if (task.name !== "RunTask") continue;
    const end = task.ts + (task.dur ?? 0);
    const inside = own.filter((e) => e !== task && e.ts >= task.ts && e.ts < end);
    let n = 0;
    let w = 0;
    for (const s of sampled) {
      if (s.ts < task.ts || s.ts >= end) continue;
      n += 1;
      if (s.widget) w += 1;
    }
    const runsWidget = inside.some((e) => SCRIPT.has(e.name) && WIDGET_URL.test(urlOf(e)));
    const share = n ? w / n : runsWidget ? 1 : 0;
    js += cpu(task) * share;
    if (!rendering || share > 0) continue;
    let skipUntil = -Infinity;
    for (const e of inside) {
      if (e.ts < skipUntil || !RENDERING.has(e.name)) continue;
      drawing += cpu(e);
      skipUntil = e.ts + (e.dur ?? 0);
    }
  }
  return { js: js / 1000, drawing: drawing / 1000 };
}

const CATEGORIES = [
  "devtools.timeline",
  "disabled-by-default-devtools.timeline",

  "v8.execute",
  "blink.user_timing",
  "toplevel",
  "disabled-by-default-v8.cpu_profiler",
  "disabled-by-default-v8.cpu_profiler.hires",
];

async function traced<T>(browser: Browser, page: Page, f: () => Promise<T>): Promise<Buffer> {
  await browser.startTracing(page, { categories: CATEGORIES });
  await f();
  return browser.stopTracing();
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;

test("the widget's main-thread cost on a page load and on opening", async ({
  browser,
  request,
}) => {
  test.setTimeout(180_000);
  const sites = await startSites(API);
  const token = await owner(request);
  const id = await campaign(request, token, { website: sites.origin });
  const name = process.env.E2E_PERF_PAGE ?? "creative";
  const page0 = PAGES.find((p) => p.name === name);
  if (!page0) throw new Error(`no test page ${name}`);
  const load: number[] = [];
  const open: number[] = [];
  const openJs: number[] = [];
  for (let run = 0; run < RUNS; run += 1) {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    await context.route(/^https?:\/\/(?!localhost|127\.0\.0\.1)/, (r) => r.abort());
    const page = await context.newPage();
    await page.mouse.move(640, 200);
    const config = page.waitForResponse((r) => r.url().includes("/config"));
    const loaded = cost(
      await traced(browser, page, async () => {
        await page.goto(sites.url(page0, id), { waitUntil: "load" });
        await config;
        await page.waitForTimeout(1000);
      }),
    );
    load.push(loaded.js);
    await page.mouse.move(640, 120);
    await page.waitForTimeout(300);
    const opened = cost(
      await traced(browser, page, async () => {
        const shown = page.evaluate(
          () =>
            new Promise<void>((resolve) => {
              performance.mark("ca-exit");
              const mo = new MutationObserver(() => {
                if (!document.querySelector("convertassist-widget")) return;
                mo.disconnect();
                requestAnimationFrame(() =>
                  requestAnimationFrame(() =>
                    setTimeout(() => {
                      performance.mark("ca-shown");
                      resolve();
                    }, 100),
                  ),
                );
              });
              mo.observe(document.body, { childList: true });
            }),
        );
        await page.mouse.move(640, -10);
        await shown;
        await page.waitForTimeout(200);
      }),
      ["ca-exit", "ca-shown"],
      true,
    );
    open.push(opened.js + opened.drawing);
    openJs.push(opened.js);
    await context.close();
  }
  await sites.close();
  const fmt = (xs: number[]) => xs.map((x) => x.toFixed(1)).join(", ");
  console.log(
    [
      "",
      `widget main-thread time, median of ${RUNS} (runs in ms), ${page0.title}, desktop:`,
      `  page load:  ${median(load).toFixed(1)} ms  (${fmt(load)})`,
      `  popup open: ${median(open).toFixed(1)} ms  (${fmt(open)}; of which the widget's JavaScript ${median(openJs).toFixed(1)} ms, the rest style, layout and paint)`,
      "  published per-page figures of other widgets: Fathom 59 ms, Chatwoot 102 ms, OptinMonster 473 ms",
      "",
    ].join("\n"),
  );
});
