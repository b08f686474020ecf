import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Page } from "@playwright/test";

/** Where screenshots and the preview's styles land (the widget workspace's e2e-screenshots/). */
export const SCREENSHOTS = join(import.meta.dirname, "..", "..", "e2e-screenshots");
mkdirSync(SCREENSHOTS, { recursive: true });
const PREVIEW_FILE = join(SCREENSHOTS, "preview-styles.json");

/**
 * The parts of the popup compared with the dashboard's preview, and their computed styles that
 * make its look. Sizes of the whole popup (width, height) are compared on the desktop only: on a
 * phone the popup fills the screen, as before.
 */
const ALL = [
  "fontFamily",
  "fontSize",
  "fontWeight",
  "lineHeight",
  "color",
  "backgroundColor",
  "backgroundImage",
  "borderRadius",
  "paddingTop",
  "paddingRight",
  "paddingBottom",
  "paddingLeft",
  "width",
  "height",
  "letterSpacing",
  "textTransform",
  "fontStyle",
  "textShadow",
  "opacity",
  "borderTopColor",
  "borderTopWidth",
];
export const PARTS: Record<string, string[]> = {
  popup: ALL,
  header: ALL,
  title: ALL,
  subtitle: ALL,
  greeting: ALL,
  bubble: ALL,
  formCard: ALL,
  formTitle: ALL,
  formSubtitle: ALL,
  email: ALL,
  submit: ALL,
  message: ALL,
  send: ALL,
  close: ALL,
  badge: ALL,
};

export type Styles = Record<string, Record<string, string>>;

/**
 * The computed styles of `PARTS`, from elements `findSource` finds (a `function (part)` body);
 * a part it does not find fails, or with `allowMissing` is left out.
 */
export async function readStyles(
  page: Page,
  findSource: string,
  allowMissing = false,
): Promise<Styles> {
  return page.evaluate(
    ({ parts, findSource, allowMissing }) => {
      const locate = new Function("part", findSource) as (part: string) => Element | null;
      const out: Record<string, Record<string, string>> = {};
      for (const part of Object.keys(parts)) {
        const el = locate(part);
        if (!el && allowMissing) continue;
        if (!el) throw new Error(`no element for ${part}`);
        const cs = getComputedStyle(el) as unknown as Record<string, string>;
        const props = parts[part] as string[];
        const row: Record<string, string> = {};
        for (let i = 0; i < props.length; i += 1) {
          const p = props[i] as string;
          row[p] =
            p === "width"
              ? `${(el as HTMLElement).offsetWidth}px`
              : p === "height"
                ? `${(el as HTMLElement).offsetHeight}px`
                : cs[p];
        }
        out[part] = row;
      }
      return out;
    },
    { parts: PARTS, findSource, allowMissing },
  );
}

/**
 * Finds a part of the popup drawn by the widget's code in the shadow root of the first
 * `convertassist-widget` that `host` selects (runs in the page, as the body of `function (part)`).
 */
function partsIn(host: string): string {
  return `
  const root = document.querySelector(${JSON.stringify(host)})?.shadowRoot;
  if (!root) return null;
  const q = (s) => root.querySelector(s);
  switch (part) {
    case "popup": return q("[role=dialog], dialog");
    case "header": return q(".head");
    case "title": return q(".title");
    case "subtitle": return q(".sub");
    case "greeting": return q(".msg.assistant");
    case "bubble": return q(".msg.assistant");
    case "visitorBubble": return q(".msg.user");
    case "formCard": return q("form.card");
    case "formTitle": return q("form.card h3");
    case "formSubtitle": return q("form.card p");
    case "email": return q("form.card input[name=email]");
    case "submit": return q("form.card button.primary");
    case "message": return q("input[name=message]");
    case "send": return q("button.secondary");
    case "close": return q("button.close");
    case "badge": return q(".badge");
  }
  return null;
`;
}

/** Finds a part of the widget's popup on a site. */
export const WIDGET_PARTS = partsIn("convertassist-widget");

/**
 * Finds a part of the dashboard's preview (the wizard's Design step, Edit campaign → Popup
 * Design): the widget's own popup, drawn in the preview's box.
 */
export const PREVIEW_PARTS = partsIn("[data-testid=popup-preview] convertassist-widget");

/** The popup's texts (and its email field's placeholder), as a visitor reads them. */
export async function readTexts(page: Page, host: string): Promise<Record<string, string>> {
  return page.evaluate((host) => {
    const root = document.querySelector(host)?.shadowRoot;
    const text = (s: string) =>
      Array.from(root?.querySelectorAll(s) ?? [])
        .map((e) => (e.textContent ?? "").trim())
        .join(" | ");
    const attr = (s: string, a: string) => root?.querySelector(s)?.getAttribute(a) ?? "";
    return {
      title: text(".title"),
      subtitle: text(".sub"),
      close: attr("button.close", "aria-label"),
      badges: text(".badge"),
      greeting: text(".msg.assistant:first-child"),
      formTitle: text("form.card h3"),
      formSubtitle: text("form.card p"),
      emailPlaceholder: attr("form.card input[name=email]", "placeholder"),
      submit: text("form.card button.primary"),
      messagePlaceholder: attr("input[name=message]", "placeholder"),
      send: text("button.secondary"),
      direction: attr("dialog", "dir"),
    };
  }, host);
}

export function savePreview(styles: Styles): void {
  writeFileSync(PREVIEW_FILE, JSON.stringify(styles, null, 2));
}

export function loadPreview(): Styles {
  return JSON.parse(readFileSync(PREVIEW_FILE, "utf8")) as Styles;
}

/** The first family of a font-family list, unquoted. */
export function firstFamily(list: string): string {
  return (list.split(",")[0] ?? "").trim().replace(/^["']|["']$/g, "");
}
