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
  badge: ALL,
};

export type Styles = Record<string, Record<string, string>>;

/** The computed styles of `PARTS`, from elements `findSource` finds (a `function (part)` body). */
export async function readStyles(page: Page, findSource: string): Promise<Styles> {
  return page.evaluate(
    ({ parts, findSource }) => {
      const locate = new Function("part", findSource) as (part: string) => Element | null;
      const out: Record<string, Record<string, string>> = {};
      for (const part of Object.keys(parts)) {
        const el = locate(part);
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
    { parts: PARTS, findSource },
  );
}

/** Finds a part of the widget's popup (runs in the page, as the body of `function (part)`). */
export const WIDGET_PARTS = `
  const root = document.querySelector("convertassist-widget")?.shadowRoot;
  if (!root) return null;
  const q = (s) => root.querySelector(s);
  switch (part) {
    case "popup": return q("[role=dialog], dialog");
    case "header": return q(".head");
    case "title": return q(".title");
    case "subtitle": return q(".sub");
    case "greeting": return q(".msg.assistant");
    case "bubble": return q(".msg.assistant");
    case "formCard": return q("form.card");
    case "formTitle": return q("form.card h3");
    case "formSubtitle": return q("form.card p");
    case "email": return q("form.card input[name=email]");
    case "submit": return q("form.card button.primary");
    case "message": return q("input[name=message]");
    case "send": return q("button.secondary");
    case "badge": return q(".badge");
  }
  return null;
`;

/** Finds a part of the dashboard's preview (the Popup Design tab). */
export const PREVIEW_PARTS = `
  const box = document.querySelector("[data-testid=popup-preview]");
  if (!box) return null;
  const popup = box.querySelector("[data-popup-size]");
  const header = box.querySelector("[data-testid=preview-header]");
  const texts = header ? header.querySelectorAll("p") : [];
  const body = popup ? popup.children[1] : null;
  const greeting = body ? body.children[0] : null;
  const forms = popup ? popup.querySelectorAll(".mantine-Paper-root[data-with-border]") : [];
  const form = forms[forms.length - 1] || null;
  switch (part) {
    case "popup": return popup;
    case "header": return header;
    case "title": return texts[0] || null;
    case "subtitle": return texts[1] || null;
    case "greeting": return greeting ? greeting.querySelector("p") : null;
    case "bubble": return greeting;
    case "formCard": return form;
    case "formTitle": return form ? form.querySelectorAll("p")[0] : null;
    case "formSubtitle": return form ? form.querySelectorAll("p")[1] : null;
    case "email": return form ? form.querySelector("input") : null;
    case "submit": return form ? form.querySelector("button") : null;
    case "message": return box.querySelector("input[aria-label='Message (preview)']");
    case "send": return popup ? popup.querySelectorAll("button")[1] : null;
    case "badge": return header ? header.querySelector(".mantine-Badge-root") : null;
  }
  return null;
`;

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
