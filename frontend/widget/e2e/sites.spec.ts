import { writeFileSync } from "node:fs";
import { test as base, expect, type CDPSession, type Locator, type Page } from "@playwright/test";
import { analytics, API, campaign, CAPTURED, DESIGN, owner } from "./support/api";
import { PAGES, startSites, type Sites } from "./support/sites";
import {
  firstFamily,
  loadPreview,
  PARTS,
  readStyles,
  SCREENSHOTS,
  WIDGET_PARTS,
  type Styles,
} from "./support/styles";
import {
  drag,
  layoutQuiet,
  layoutShift,
  probe,
  scrollPos,
  settle,
  shiftSources,
  swipe,
  tap,
} from "./support/visitor";

/**
 * The widget on each test site, as a visitor meets it on a desktop (the pointer leaves through
 * the top edge) and on a Pixel 7 (a fast flick up): the popup is fully visible above everything
 * with its close button reachable, looks like the dashboard's preview whatever the host's CSS,
 * moves neither the page's layout nor its scroll position (opening, scrolling over it, typing,
 * closing), and its chat and email capture work.
 */

/** Per worker: the sites, and one owner's campaign for their origin (a trial allows one). */
const test = base.extend<object, { sites: Sites; shop: { token: string; id: string } }>({
  sites: [
    // eslint-disable-next-line no-empty-pattern
    async ({}, use) => {
      const sites = await startSites(API);
      await use(sites);
      await sites.close();
    },
    { scope: "worker" },
  ],
  shop: [
    async ({ playwright, sites }, use) => {
      const request = await playwright.request.newContext();
      const token = await owner(request);
      const id = await campaign(request, token, { website: sites.origin });
      await use({ token, id });
      await request.dispose();
    },
    { scope: "worker" },
  ],
});

/** The query string of the hostile page: an XSS payload in the query and the fragment. */
const HOSTILE_QUERY = `&q=${encodeURIComponent(`"><script>window.__xss='query'</script>`)}#<img src=x onerror="window.__xss='hash'">`;

/**
 * Where the dashboard's preview does not draw the popup as visitors get it: reason →
 * `part.property` list. Empty since the preview draws the widget's own popup (popup.ts
 * `preview()`); every computed style in support/styles.ts PARTS must be equal.
 */
const KNOWN: Record<string, string> = {};
const KNOWN_PROPS = new Set(Object.values(KNOWN).join(" ").split(" "));

/** The computed styles that differ from the preview's, but for the known differences. */
function compare(widget: Styles, preview: Styles, phone: boolean): string[] {
  const out: string[] = [];
  for (const [part, props] of Object.entries(PARTS)) {
    for (const prop of props) {
      if (KNOWN_PROPS.has(`${part}.${prop}`)) continue;
      // A phone's popup fills the screen (so its parts are narrower) and has a smaller title
      // (20px, so its line is 29px high).
      if (
        phone &&
        (prop === "width" ||
          prop === "height" ||
          `${part}.${prop}` === "title.fontSize" ||
          `${part}.${prop}` === "title.lineHeight")
      )
        continue;
      let a = widget[part]?.[prop] ?? "";
      let b = preview[part]?.[prop] ?? "";
      if (prop === "fontFamily") {
        a = firstFamily(a);
        b = firstFamily(b);
      }
      if (a !== b) out.push(`${part}.${prop}: widget ${a} ≠ preview ${b}`);
    }
  }
  return out;
}

/** Inherited properties the host sets globally that must not reach the popup's text. */
async function inherited(page: Page) {
  return page.evaluate(() => {
    const root = document.querySelector("convertassist-widget")?.shadowRoot;
    const out: Record<string, string> = {};
    const names = [".title", ".sub", ".msg.assistant", "input[name=message]", "button.primary"];
    for (let i = 0; i < names.length; i += 1) {
      const name = names[i] as string;
      const el = root?.querySelector(name);
      if (!el) continue;
      const cs = getComputedStyle(el);
      out[`${name} text-transform`] = cs.textTransform;
      out[`${name} font-style`] = cs.fontStyle;
      out[`${name} font-variant`] = cs.fontVariantCaps;
      out[`${name} text-shadow`] = cs.textShadow;
      out[`${name} letter-spacing`] = cs.letterSpacing;
      out[`${name} word-spacing`] = cs.wordSpacing;
      out[`${name} text-indent`] = cs.textIndent;
      out[`${name} white-space`] = cs.whiteSpaceCollapse;
      out[`${name} fill-color`] =
        cs.getPropertyValue("-webkit-text-fill-color") === cs.color ? "as color" : "other";
      if (el.localName !== "input" && el.localName !== "button") out[`${name} cursor`] = cs.cursor;
    }
    return out;
  });
}

function noLeaks(styles: Record<string, string>): string[] {
  const expected: Record<string, string> = {
    "text-transform": "none",
    "font-style": "normal",
    "font-variant": "normal",
    "text-shadow": "none",
    "letter-spacing": "normal",
    "word-spacing": "0px",
    "text-indent": "0px",
    "fill-color": "as color",
    cursor: "auto",
  };
  const out: string[] = [];
  for (const [key, value] of Object.entries(styles)) {
    const prop = key.slice(key.lastIndexOf(" ") + 1);
    const want =
      prop === "white-space" ? (key.startsWith(".msg") ? "preserve" : "collapse") : expected[prop];
    if (want !== undefined && value !== want) out.push(`${key}: ${value} (want ${want})`);
  }
  return out;
}

/** Where the popup, its close button and its message field are, against the visible viewport. */
async function geometry(page: Page) {
  return page.evaluate(() => {
    const host = document.querySelector("convertassist-widget");
    const root = host?.shadowRoot;
    const card = root?.querySelector("[role=dialog], dialog") as HTMLElement | null;
    const close = root?.querySelector("button.close") as HTMLElement | null;
    const input = root?.querySelector("input[name=message]") as HTMLElement | null;
    const body = root?.querySelector(".body") as HTMLElement | null;
    const vv = window.visualViewport;
    const view = {
      left: vv ? vv.offsetLeft : 0,
      top: vv ? vv.offsetTop : 0,
      width: vv ? vv.width : window.innerWidth,
      height: vv ? vv.height : window.innerHeight,
    };
    const box = (el: Element | null | undefined) => {
      if (!el) return null;
      const r = el.getBoundingClientRect();
      return { left: r.left, top: r.top, right: r.right, bottom: r.bottom };
    };
    let hitHost = false;
    let hitClose = false;
    const c = box(close);
    if (c && root) {
      const x = (c.left + c.right) / 2;
      const y = (c.top + c.bottom) / 2;
      hitHost = document.elementFromPoint(x, y) === host;
      hitClose = root.elementFromPoint(x, y) === close;
    }
    return {
      view,
      card: box(card),
      body: box(body),
      close: c,
      input: box(input),
      hitHost,
      hitClose,
    };
  });
}

type Box = { left: number; top: number; right: number; bottom: number };
type View = { left: number; top: number; width: number; height: number };

function inBox(b: Box | null, v: Box | null): boolean {
  return (
    !!v &&
    inside(b, { left: v.left, top: v.top, width: v.right - v.left, height: v.bottom - v.top })
  );
}

function inside(b: Box | null, v: View): boolean {
  const e = 0.5;
  return (
    !!b &&
    b.left >= v.left - e &&
    b.top >= v.top - e &&
    b.right <= v.left + v.width + e &&
    b.bottom <= v.top + v.height + e
  );
}

/**
 * A phone's on-screen keyboard takes the bottom of the screen: the popup still fits what is
 * visible, and the message field stays in view while typing. Chromium's emulation cannot show a
 * keyboard, so both ways browsers make room are emulated: a shorter layout viewport (Firefox,
 * `interactive-widget=resizes-content`) and a visual viewport smaller than the layout viewport
 * (Chrome and Safari; emulated by zooming in, which also moves it away from the page's corner).
 */
async function onScreenKeyboard(
  page: Page,
  cdp: CDPSession,
  message: Locator,
  screen: { width: number; height: number },
  start: [number, number],
  shot: (step: string) => string,
) {
  const metrics = {
    width: screen.width,
    height: screen.height,
    deviceScaleFactor: 2.625,
    mobile: true,
  };
  await cdp.send("Emulation.setDeviceMetricsOverride", { ...metrics, height: screen.height - 336 });
  await message.pressSequentially("Do you");
  let geo = await geometry(page);
  expect.soft(geo.view.height, "the keyboard's room").toBe(screen.height - 336);
  expect
    .soft(inside(geo.card, geo.view), `popup ${JSON.stringify(geo)} above the keyboard`)
    .toBe(true);
  expect.soft(inside(geo.input, geo.view), "message field above the keyboard").toBe(true);
  expect.soft(inBox(geo.input, geo.body), "message field not cut off").toBe(true);
  // (Playwright's own screenshot would restore its emulated screen first.)
  const [x, y] = await page.evaluate(() => [window.scrollX, window.scrollY]);
  const { data } = await cdp.send("Page.captureScreenshot", {
    format: "png",
    clip: { x, y, width: screen.width, height: screen.height - 336, scale: 1 / 2.625 },
  });
  writeFileSync(shot("keyboard"), Buffer.from(data, "base64"));
  await cdp.send("Emulation.setDeviceMetricsOverride", metrics);

  await cdp.send("Emulation.setPageScaleFactor", { pageScaleFactor: 1.6 });
  await page.waitForTimeout(200);
  geo = await geometry(page);
  expect.soft(geo.view.width, "zoomed in").toBeLessThan(screen.width - 100);
  expect
    .soft(inside(geo.card, geo.view), `popup ${JSON.stringify(geo)} in the visual viewport`)
    .toBe(true);
  expect.soft(inside(geo.input, geo.view), "message field in the visual viewport").toBe(true);
  expect.soft(inBox(geo.input, geo.body), "message field not cut off").toBe(true);
  await page.screenshot({ path: shot("zoomed"), scale: "css" });
  await cdp.send("Emulation.setPageScaleFactor", { pageScaleFactor: 1 });
  await page.waitForTimeout(200);
  await message.fill("");
  expect.soft(await settle(page), "scroll position after the keyboard").toEqual(start);
}

function popup(page: Page): Locator {
  return page.locator("convertassist-widget").getByRole("dialog");
}

for (const [index, site] of PAGES.entries()) {
  test(`${site.title}`, async ({ page, request, sites, shop }, info) => {
    const phone = info.project.name === "pixel7";
    const shotName = (step: string) =>
      `${SCREENSHOTS}/${String(index + 1).padStart(2, "0")}-${site.name}-${info.project.name}-${step}.png`;
    const widgetErrors: string[] = [];
    page.on("pageerror", (e) => {
      if (/\/widget\//.test(e.stack ?? "")) widgetErrors.push(e.message);
    });
    // Nothing leaves the machine: the sites' CDN links were made local; anything else fails fast.
    await page.context().route(/^https?:\/\/(?!localhost|127\.0\.0\.1)/, (r) => r.abort());
    await page.addInitScript(probe);

    const { token, id } = shop;
    const counted = await analytics(request, token, id);
    const query = site.name === "hostile" ? HOSTILE_QUERY : "";
    const config = page.waitForResponse((r) => r.url().includes(`/campaigns/${id}/config`));
    await page.goto(sites.url(site, id, query), { waitUntil: "load" });
    await config;

    // The visitor has scrolled down the page and focused something on it.
    await page.evaluate(() => {
      const links = document.querySelectorAll<HTMLElement>("a[href], button");
      for (let i = 0; i < links.length; i += 1) {
        const link = links[i] as HTMLElement;
        link.focus({ preventScroll: true });
        if (document.activeElement !== link) continue;
        link.setAttribute("data-visitor-focus", "");
        break;
      }
      const max = document.documentElement.scrollHeight - window.innerHeight;
      window.scrollTo({ left: 0, top: Math.min(1500, Math.max(0, max - 40)), behavior: "instant" });
    });
    let start = await settle(page);
    expect(start[1], "the page scrolls").toBeGreaterThan(200);
    // (Creative and Agency shrink their navigation bar with a transition once scrolled.)
    const shiftBefore = await layoutQuiet(page);

    const cdp = phone ? await page.context().newCDPSession(page) : null;
    if (cdp) {
      // The finger drags the page down slowly, then flicks fast and stays still before it lifts:
      // the exit intent fires on the flick (several fast touch reports, not one), and the page
      // stops where the finger left it.
      await swipe(
        cdp,
        200,
        180,
        [
          [20, 45],
          [25, 60],
          [20, 40],
          [70, 16],
          [80, 16],
          [3, 1],
          [90, 16],
          [80, 16],
        ],
        250,
      );
    } else {
      await page.mouse.move(640, 300);
      await page.mouse.move(640, 120, { steps: 3 });
      await page.mouse.move(640, -10, { steps: 3 });
    }
    const dialog = popup(page);
    await expect(dialog)
      .toBeVisible()
      .catch(async (e: Error) => {
        const scrolls = await page.evaluate(() =>
          String((window as unknown as { __ca: { scrolls: number[][] } }).__ca.scrolls),
        );
        throw new Error(`${e.message}\nscroll events (ms, y): ${scrolls}`);
      });

    // Opening moved nothing (on a phone: from where the finger left the page).
    const opening = await page.evaluate(
      () => (window as unknown as { __ca: { opening: unknown } }).__ca.opening,
    );
    expect(opening, "the opening was observed").toBeTruthy();
    const { before } = opening as { before: [number, number] };
    if (phone) start = before;
    else expect.soft(before, "the page did not move before the popup opened").toEqual(start);
    let keyboardShift = 0;
    expect.soft(await settle(page), "scroll position after opening").toEqual(start);

    // Focus moved in: the message field on a desktop, the popup itself on a touch screen (no
    // on-screen keyboard until the visitor taps the field).
    const focusedIn = await page.evaluate(() => {
      const a = document.querySelector("convertassist-widget")?.shadowRoot?.activeElement;
      return a ? (a.getAttribute("name") ?? a.localName) : null;
    });
    expect.soft(focusedIn, "focus moved into the popup").toBe(phone ? "dialog" : "message");

    // Fully visible, above everything, the close button reachable.
    const geo = await geometry(page);
    info.annotations.push({ type: "geometry", description: JSON.stringify(geo) });
    expect
      .soft(
        inside(geo.card, geo.view),
        `popup ${JSON.stringify(geo.card)} inside ${JSON.stringify(geo.view)}`,
      )
      .toBe(true);
    expect
      .soft(
        inside(geo.close, geo.view),
        `close button ${JSON.stringify(geo.close)} inside the viewport`,
      )
      .toBe(true);
    expect.soft(geo.hitHost && geo.hitClose, "nothing covers the close button").toBe(true);

    // It looks like the dashboard's preview, whatever the host's CSS.
    const styles = await readStyles(page, WIDGET_PARTS);
    writeFileSync(shotName("styles").replace(/\.png$/, ".json"), JSON.stringify(styles, null, 2));
    expect.soft(compare(styles, loadPreview(), phone), "differences from the preview").toEqual([]);
    expect.soft(noLeaks(await inherited(page)), "host styles inherited into the popup").toEqual([]);
    // Styled by adopted stylesheets only: nothing a strict CSP blocks, and it blocked nothing.
    const inline = await page.evaluate(() => {
      const root = document.querySelector("convertassist-widget")?.shadowRoot;
      return {
        sheets: root?.adoptedStyleSheets.length ?? 0,
        styleElements: root?.querySelectorAll("style").length ?? -1,
        styleAttributes: root?.querySelectorAll("[style]").length ?? -1,
        violations: (window as unknown as { __ca: { csp: string[] } }).__ca.csp,
      };
    });
    expect
      .soft(inline, "adopted stylesheets, no inline styles, no CSP violations")
      .toEqual({ sheets: 2, styleElements: 0, styleAttributes: 0, violations: [] });
    // The popup's texts read in their own direction, whatever the host's dir.
    const directions = await page.evaluate(() => {
      const root = document.querySelector("convertassist-widget")?.shadowRoot;
      const dir = (s: string) => {
        const el = root?.querySelector(s);
        return el ? `${el.getAttribute("dir")} ${getComputedStyle(el).direction}` : "missing";
      };
      return {
        host: document.documentElement.dir || "ltr",
        dialog: dir("dialog"),
        title: dir(".title"),
        subtitle: dir(".sub"),
        greeting: dir(".msg.assistant"),
        formTitle: dir("form.card h3"),
      };
    });
    expect.soft(directions, "popup text direction").toEqual({
      host: site.name === "rtl" ? "rtl" : "ltr",
      dialog: "ltr ltr",
      title: "auto ltr",
      subtitle: "auto ltr",
      greeting: "auto ltr",
      formTitle: "auto ltr",
    });
    await page.screenshot({ path: shotName("open"), scale: "css" });

    // Scrolling over the popup and the dimmed page does not scroll the page.
    if (cdp) {
      await drag(cdp, 4, 300, 350);
      await drag(cdp, 200, 60, 440);
      await drag(cdp, 200, 500, -400);
    } else {
      await page.mouse.move(8, 400);
      await page.mouse.wheel(0, 700);
      await page.mouse.move(640, 130);
      await page.mouse.wheel(0, -500);
      await page.waitForTimeout(100);
      await dialog.getByRole("button", { name: "Close" }).focus();
      for (const key of ["PageDown", "ArrowDown", "End"]) await page.keyboard.press(key);
    }
    expect
      .soft(await settle(page), "scroll position after scrolling over the popup")
      .toEqual(start);

    // The chat answers.
    const message = dialog.getByLabel("Your message");
    if (cdp) {
      const box = (await message.boundingBox())!;
      await tap(cdp, box.x + 20, box.y + box.height / 2);
      await expect(message).toBeFocused();
      // Resizing the emulated screen moves the page's own content (100vh sections): not counted.
      const shifted = await layoutShift(page);
      await onScreenKeyboard(page, cdp, message, info.project.use.viewport!, start, shotName);
      await page.waitForTimeout(600);
      keyboardShift = (await layoutShift(page)) - shifted;
    }
    await message.fill("Do you have cash on delivery?");
    await message.press("Enter");
    await expect(dialog.getByText(/Cash on delivery \(COD\) is available/)).toBeVisible();
    expect.soft(await scrollPos(page), "scroll position after chatting").toEqual(start);

    // The email capture converts.
    const form = dialog.getByRole("form", { name: DESIGN.formTitle });
    await form.getByLabel("Email").fill(`visitor-${site.name}-${info.project.name}@example.in`);
    await form.getByRole("button", { name: DESIGN.submitButtonText }).click();
    await expect(dialog.getByText(CAPTURED)).toBeVisible();
    await page.screenshot({ path: shotName("chat"), scale: "css" });
    await expect
      .poll(async () => (await analytics(request, token, id)).conversions)
      .toBe(counted.conversions + 1);
    expect((await analytics(request, token, id)).impressions).toBe(counted.impressions + 1);

    // Closing: Escape on a desktop, the close button on a phone.
    if (cdp) {
      const box = (await dialog.getByRole("button", { name: "Close" }).boundingBox())!;
      await tap(cdp, box.x + box.width / 2, box.y + box.height / 2);
    } else {
      await page.keyboard.press("Escape");
    }
    await expect(page.locator("convertassist-widget")).toHaveCount(0);
    expect.soft(await settle(page), "scroll position after closing").toEqual(start);
    expect
      .soft(
        (await layoutShift(page)) - keyboardShift,
        `layout shift while the popup was open (all shifts: ${await shiftSources(page)})`,
      )
      .toBe(shiftBefore);
    const focused = await page.evaluate(() =>
      document.activeElement?.hasAttribute("data-visitor-focus")
        ? "returned"
        : document.activeElement?.tagName,
    );
    expect
      .soft(focused, "focus returns where it was")
      .toBe((await page.locator("[data-visitor-focus]").count()) ? "returned" : "BODY");
    expect(
      await page.evaluate(() => (window as unknown as { __xss?: string }).__xss),
    ).toBeUndefined();
    expect(widgetErrors).toEqual([]);
    // A working fetch wrapper is used as it is; a blank frame only where the page's fetch refuses.
    const frames = await page.evaluate(() => document.querySelectorAll("iframe").length);
    expect(frames, "frames the widget added").toBe(site.name === "hostile" ? 1 : 0);
    if (site.name === "tabler")
      expect(
        await page.evaluate(() => (window as unknown as { __tracked: number }).__tracked),
      ).toBeGreaterThan(0);
  });
}
