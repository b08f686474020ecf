import { AxeBuilder } from "@axe-core/playwright";
import { appendFileSync } from "node:fs";
import { expect, type Page } from "@playwright/test";
import { SCREENSHOTS } from "./support";

/** The WCAG 2.1 A and AA rules axe-core knows. */
const TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"];

/**
 * Waits until transitions end: a dialog still fading in has translucent text that would read as
 * low contrast, and a panel still opening is not yet its size. (Spinners loop forever.)
 */
export async function settled(page: Page) {
  // A dialog opened by the last click may not have started its transition yet: let two frames
  // pass, then wait for running transitions to end and for every open dialog to be opaque.
  await page.evaluate(
    () =>
      new Promise<void>((done) => requestAnimationFrame(() => requestAnimationFrame(() => done()))),
  );
  await page.waitForFunction(() => {
    const settled = document
      .getAnimations()
      .every((a) => a.playState !== "running" || a.effect?.getTiming().iterations === Infinity);
    const opaque = [...document.querySelectorAll('[role="dialog"], [role="alertdialog"]')].every(
      (dialog) => {
        for (let el: Element | null = dialog; el; el = el.parentElement)
          if (Number.parseFloat(getComputedStyle(el).opacity) < 1) return false;
        return true;
      },
    );
    return settled && opaque;
  });
}

/**
 * Runs axe-core on the page and fails on any serious or critical violation, naming each rule and
 * the first elements it found (a soft failure: the journey goes on to its other screens). Every
 * run's counts go to `e2e-screenshots/axe.jsonl`, and each failing element with axe's reason to
 * `axe-nodes.jsonl`.
 */
export async function expectAccessible(
  page: Page,
  screen: string,
  /** Only this part of the page: the widget on a sample shop, whose own markup is not ours. */
  include?: string,
) {
  // The popup preview is included: it is the widget's own popup (in its shadow root), whose text
  // on the owner's colours is white or near-black, whichever reads.
  await settled(page);
  const builder = new AxeBuilder({ page }).withTags(TAGS);
  if (include) builder.include(include);
  const result = await builder.analyze();
  const bad = result.violations.filter((v) => v.impact === "serious" || v.impact === "critical");
  appendFileSync(
    `${SCREENSHOTS}/axe.jsonl`,
    `${JSON.stringify({
      screen,
      width: page.viewportSize()?.width,
      serious: bad.reduce((n, v) => n + v.nodes.length, 0),
      rules: bad.map((v) => `${v.id} ×${v.nodes.length}`),
    })}\n`,
  );
  // Each failing element with axe's own words (colours and ratio for contrast), to find the fix.
  for (const v of bad)
    for (const n of v.nodes)
      appendFileSync(
        `${SCREENSHOTS}/axe-nodes.jsonl`,
        `${JSON.stringify({ screen, rule: v.id, target: n.target.join(" "), html: n.html.slice(0, 200), why: n.failureSummary })}\n`,
      );
  const report = bad.map(
    (v) =>
      `${v.impact} ${v.id} (${v.help}): ${v.nodes
        .slice(0, 3)
        .map((n) => n.target.join(" "))
        .join(" | ")}`,
  );
  expect.soft(report, `axe-core on ${screen}`).toEqual([]);
}

/**
 * Fails when the page scrolls sideways, when a label is cut (text clipped by its box), or when a
 * visible element reaches past the window's edges outside a scroll container of its own. With
 * `containers`, also when any element in the flow (text or not: a button, a badge, a table)
 * reaches past the sides of the element it sits in, unless that one scrolls sideways, and when
 * text is drawn over other text.
 */
export async function expectFits(page: Page, screen: string, { containers = false } = {}) {
  // A layout is judged once it stops changing: right after the window is resized, a chart or a
  // panel that measures its box redraws a frame or more later (later still on a busy machine), and
  // what it drew for the old width is not what a person sees. A problem that lasts fails.
  let problems = await layoutProblems(page, containers);
  for (let i = 0; i < 10 && problems.length > 0; i += 1) {
    await page.waitForTimeout(300);
    problems = await layoutProblems(page, containers);
  }
  expect.soft(problems, `layout of ${screen}`).toEqual([]);
}

async function layoutProblems(page: Page, containers: boolean): Promise<string[]> {
  return page.evaluate((containers) => {
    const out: string[] = [];
    const vw = document.documentElement.clientWidth;
    if (document.documentElement.scrollWidth > vw + 1)
      out.push(`page scrolls sideways: ${document.documentElement.scrollWidth} > ${vw}`);
    const name = (el: Element) => {
      const part = [...el.classList].find((c) => c.startsWith("mantine-"));
      return `${el.tagName.toLowerCase()}${el.id ? `#${el.id}` : ""}${part ? `.${part}` : ""} "${(el.textContent ?? "").trim().slice(0, 40)}"`;
    };
    const inScroller = (el: Element) => {
      for (let p = el.parentElement; p; p = p.parentElement) {
        const o = getComputedStyle(p).overflowX;
        if (o === "auto" || o === "scroll") return true;
      }
      return false;
    };
    // The popup preview is a scaled-down picture of the popup, clipped on purpose.
    const clippedBy = (el: Element) => el.closest("[data-testid=popup-preview]") !== null;
    for (const el of Array.from(document.body.querySelectorAll("*"))) {
      if (el.closest("[aria-hidden=true], svg, script, style")) continue;
      const ownText = Array.from(el.childNodes).some(
        (n) => n.nodeType === Node.TEXT_NODE && (n.textContent ?? "").trim() !== "",
      );
      if (!ownText) continue;
      const r = el.getBoundingClientRect();
      // Empty boxes, and visually hidden text meant for screen readers only.
      if (r.width <= 1 || r.height <= 1) continue;
      const s = getComputedStyle(el);
      if (s.visibility === "hidden") continue;
      const h = el as HTMLElement;
      // Clipped, or spilling over its box's edge (into a border or a neighbour).
      const clips = s.overflowX !== "visible" || s.textOverflow === "ellipsis";
      const box = s.display !== "inline" && h.clientWidth > 0;
      if ((clips || box) && h.scrollWidth > h.clientWidth + 1 && !clippedBy(el))
        out.push(
          `${clips ? "cut" : "overflowing"} label ${name(el)}: ${h.scrollWidth} > ${h.clientWidth}`,
        );
      if ((r.right > vw + 1 || r.left < -1) && !inScroller(el) && !clippedBy(el))
        out.push(`off screen ${name(el)}: ${Math.round(r.left)}–${Math.round(r.right)} of ${vw}`);
    }
    if (containers)
      for (const el of Array.from(document.body.querySelectorAll("*"))) {
        const parent = el.parentElement;
        if (!parent || el.closest("[aria-hidden=true], script, style") || clippedBy(el)) continue;
        // An icon's own drawing is the icon's affair; the svg box itself is checked.
        if (parent.closest("svg")) continue;
        const s = getComputedStyle(el);
        // Out of the flow (dropdowns, badges pinned to a corner) or boxless.
        if (s.position === "absolute" || s.position === "fixed" || s.display === "contents")
          continue;
        if (s.visibility === "hidden") continue;
        // Pulled out on purpose (a grid's gutters).
        if (Number.parseFloat(s.marginLeft) < 0 || Number.parseFloat(s.marginRight) < 0) continue;
        const r = el.getBoundingClientRect();
        if (r.width <= 1 || r.height <= 1) continue;
        const ps = getComputedStyle(parent);
        if (ps.overflowX === "auto" || ps.overflowX === "scroll") continue;
        const pr = parent.getBoundingClientRect();
        if (r.right > pr.right + 1 || r.left < pr.left - 1)
          out.push(
            `${ps.overflowX === "visible" ? "overflowing" : "clipped"} ${name(el)} in ${name(parent)}: ${Math.round(r.left)}–${Math.round(r.right)} of ${Math.round(pr.left)}–${Math.round(pr.right)}`,
          );
      }
    if (containers) {
      // Text drawn over other text: each text node's lines as painted (cut to the boxes that clip
      // it), compared with every other node's. With a dialog open, only the dialog's text counts;
      // text on a bar that stays in sight while the page scrolls under it is left out.
      const dialogs = Array.from(document.querySelectorAll('[role="dialog"]')).filter(
        (d) => d.getBoundingClientRect().width > 0,
      );
      const boxes: { node: Text; r: { l: number; t: number; r: number; b: number } }[] = [];
      const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
      for (let n = walker.nextNode() as Text | null; n; n = walker.nextNode() as Text | null) {
        const host = n.parentElement;
        if (!host || (n.textContent ?? "").trim() === "") continue;
        if (host.closest("[aria-hidden=true], svg, script, style, title") || clippedBy(host))
          continue;
        if (dialogs.length > 0 && !dialogs.some((d) => d.contains(host))) continue;
        const hs = getComputedStyle(host);
        if (hs.visibility === "hidden" || Number.parseFloat(hs.opacity) === 0) continue;
        let clip = { l: -Infinity, t: -Infinity, r: Infinity, b: Infinity };
        let floats = false;
        for (let a: Element | null = host; a; a = a.parentElement) {
          const as = getComputedStyle(a);
          if (as.position === "sticky" || as.position === "fixed") floats = true;
          if (as.overflowX === "visible" && as.overflowY === "visible") continue;
          const ar = a.getBoundingClientRect();
          clip = {
            l: Math.max(clip.l, ar.left),
            t: Math.max(clip.t, ar.top),
            r: Math.min(clip.r, ar.right),
            b: Math.min(clip.b, ar.bottom),
          };
        }
        // A bar that stays in sight (the header, a save bar) covers what scrolls under it.
        if (floats) continue;
        const range = document.createRange();
        range.selectNodeContents(n);
        for (const line of Array.from(range.getClientRects())) {
          const r = {
            l: Math.max(line.left, clip.l),
            t: Math.max(line.top, clip.t),
            r: Math.min(line.right, clip.r),
            b: Math.min(line.bottom, clip.b),
          };
          if (r.r - r.l > 1 && r.b - r.t > 1) boxes.push({ node: n, r });
        }
      }
      for (let i = 0; i < boxes.length; i += 1)
        for (let j = i + 1; j < boxes.length; j += 1) {
          const a = boxes[i]!;
          const b = boxes[j]!;
          if (a.node === b.node) continue;
          const w = Math.min(a.r.r, b.r.r) - Math.max(a.r.l, b.r.l);
          const h = Math.min(a.r.b, b.r.b) - Math.max(a.r.t, b.r.t);
          // Line boxes of neighbouring lines may touch by a pixel or two.
          if (w > 2 && h > 3)
            out.push(
              `overlapping text "${(a.node.textContent ?? "").trim().slice(0, 30)}" and "${(b.node.textContent ?? "").trim().slice(0, 30)}"`,
            );
        }
    }
    return [...new Set(out)];
  }, containers);
}

/** Screenshot, no sideways overflow or cut labels, and no serious axe-core violation. */
export async function checkScreen(page: Page, screen: string) {
  const width = page.viewportSize()?.width ?? 0;
  await page.screenshot({ path: `${SCREENSHOTS}/6x-${screen}-${width}.png`, fullPage: true });
  await expectFits(page, `${screen} at ${width}px`);
  await expectAccessible(page, `${screen} at ${width}px`);
}
