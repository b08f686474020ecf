/**
 * ConvertAssist widget loader (`/widget/ca-widget.js`), loaded `async defer`
 * with `data-campaign-id` and `data-api-url`. Small on purpose: it reads the
 * campaign's public configuration, counts the page view, watches for exit
 * intent and only then imports the popup chunk.
 *
 * Exit intent:
 * - desktop: the pointer leaves the page through the top edge, within
 *   `TOP_EDGE_PX[sensitivity]` pixels of it (low 5, medium 20, high 50);
 * - touch devices: a finger's flick back to the top, measured over several
 *   scroll events (see `exit.ts` for the thresholds), or coming back to the
 *   tab after leaving it; never time without touching;
 * - armed only after `exitIntent.delay` ms and `targeting.minTimeOnPage` s;
 *   between two displays the longer of `exitIntent.cooldown` and
 *   `targeting.cooldownMinutes`, both minutes.
 *
 * Engaged time on the page is reported when it is hidden or left (`engaged.ts`).
 *
 * A/B tests: while one runs, the visitor's arm is a hash of the visitor id and the test id
 * (`variantOf` in assign.ts; the same arm on every page and visit, no extra request). Its exit-intent
 * sensitivity and delay apply here; the popup chunk lays its other overrides over the campaign.
 * The arm's id goes with the impression and the conversation's start, and is kept in
 * localStorage `ca_var_<campaign id>` for the thank-you page's purchases.
 *
 * With `data-mode="conversion"` (the thank-you page snippet) it only records
 * purchases queued by `caTrack('purchase', {value, currency, orderId})`.
 *
 * Host pages replace built-ins (fetch wrappers, old libraries' `JSON` and
 * `Array.prototype` methods): the widget writes its own JSON, uses no array
 * methods, and falls back to a blank frame's `fetch` when the page's refuses.
 */
import { trackEngagement } from "./engaged";
import { watchTouchExit } from "./exit";
import { toJson } from "./json";
import { variantOf } from "./assign";
import type { OpenOptions, PublicCampaign, PublicConfig, Realm } from "./types";

declare const __POPUP_CHUNK__: string;

type TrackArgs = [string, Record<string, unknown>?];
interface CaWindow extends Window {
  caTrack?: (...args: TrackArgs) => void;
  caTrackQueue?: ArrayLike<unknown>[];
  __caWidget?: Record<string, boolean>;
}

const TOP_EDGE_PX: Record<string, number> = { low: 5, medium: 20, high: 50 };

const w = window as CaWindow;

/** True for the browser's own implementation (not a page's replacement). */
function native(f: unknown): boolean {
  try {
    return /\{\s*\[native code\]\s*\}\s*$/.test(Function.prototype.toString.call(f));
  } catch {
    return false;
  }
}

let frameFetch: typeof fetch | undefined;

/** `fetch` of a blank same-origin frame, made on first need: the browser's own. */
function blankFetch(): typeof fetch {
  if (!frameFetch) {
    const frame = document.createElement("iframe");
    frame.setAttribute("aria-hidden", "true");
    frame.tabIndex = -1;
    frame.style.cssText = "display:none!important";
    document.documentElement.appendChild(frame);
    const r = (frame.contentWindow as typeof globalThis | null) ?? window;
    frameFetch = r.fetch.bind(r);
  }
  return frameFetch;
}

/**
 * `fetch` and `JSON.parse` for the widget. The page's `fetch` when it is the browser's own, or
 * when the page's wrapper (error trackers and analytics wrap it) works; a blank frame's when the
 * wrapper refuses or throws. The page's `JSON.parse` when it is the browser's own, else the
 * `Response` body reader's.
 */
const realm: Realm = {
  fetch: (input, init) => {
    const f = window.fetch;
    if (native(f)) return f.call(window, input, init);
    try {
      return f.call(window, input, init).catch(() => blankFetch()(input, init));
    } catch {
      return blankFetch()(input, init);
    }
  },
  parse: (text) => (native(JSON.parse) ? JSON.parse(text) : new Response(text).json()),
};

function has(list: readonly string[], value: string): boolean {
  for (let i = 0; i < list.length; i += 1) if (list[i] === value) return true;
  return false;
}

function thisScript(): HTMLScriptElement | null {
  const current = document.currentScript as HTMLScriptElement | null;
  if (current?.dataset.campaignId) return current;
  const all = document.querySelectorAll<HTMLScriptElement>("script[data-campaign-id]");
  for (let i = 0; i < all.length; i += 1) {
    const s = all[i] as HTMLScriptElement;
    if (/ca-widget\.js/.test(s.src)) return s;
  }
  return null;
}

function store(kind: "local" | "session"): Storage | null {
  try {
    return kind === "local" ? localStorage : sessionStorage;
  } catch {
    return null;
  }
}

function randomId(prefix: string): string {
  const bytes = new Uint8Array(12);
  crypto.getRandomValues(bytes);
  let id = prefix;
  for (let i = 0; i < bytes.length; i += 1)
    id += ((bytes[i] as number) + 256).toString(16).slice(1);
  return id;
}

function persistentId(kind: "local" | "session", key: string, prefix: string): string {
  const s = store(kind);
  const existing = s?.getItem(key);
  if (existing && /^[A-Za-z0-9_-]{8,64}$/.test(existing)) return existing;
  const id = randomId(prefix);
  s?.setItem(key, id);
  return id;
}

/**
 * Posts JSON as text/plain (no CORS preflight), surviving page unload: a string body is sent as
 * `text/plain;charset=UTF-8` by every browser, with no header to set.
 */
function beacon(url: string, body: unknown): Promise<Response | void> {
  return realm
    .fetch(url, {
      method: "POST",
      body: toJson(body),
      keepalive: true,
      mode: "cors",
      credentials: "omit",
    })
    .catch(() => undefined);
}

/**
 * `navigator.sendBeacon` with the JSON as text/plain (no CORS preflight; the browser sends it
 * after the page is gone); the keepalive `fetch` of `beacon` where it is missing or refuses.
 */
export function sendBeacon(url: string, body: unknown): void {
  try {
    const nav = navigator;
    const text = toJson(body);
    if (
      typeof nav.sendBeacon === "function" &&
      nav.sendBeacon(url, new Blob([text], { type: "text/plain;charset=UTF-8" }))
    )
      return;
  } catch {
    // a page's replacement that throws: the fetch below
  }
  void beacon(url, body);
}

/** Milliseconds between two displays: the longer of the two cooldowns, both in minutes. */
export function displayGapMs(c: PublicCampaign): number {
  return Math.max(c.exitIntent.cooldown, c.targeting.cooldownMinutes) * 60_000;
}

function deviceType(): string {
  const touch = "ontouchstart" in window || navigator.maxTouchPoints > 0;
  const width = Math.min(window.innerWidth, screen.width || window.innerWidth);
  if (width < 768) return "mobile";
  if (touch && width < 1100) return "tablet";
  return "desktop";
}

/** A page rule matches the path (or full URL); `*` is a wildcard. */
export function pageMatches(rule: string, url: URL): boolean {
  const r = rule.trim();
  if (!r) return false;
  const target = /^https?:\/\//.test(r) ? url.href : url.pathname + url.search;
  const pattern = new RegExp(
    "^" +
      r.replace(/[.+?^${}()|[\]\\]/g, "\\$&").replace(/\*/g, ".*") +
      (r.endsWith("*") ? "" : "/?(\\?.*)?$"),
  );
  return pattern.test(target);
}

function targeted(c: PublicCampaign, device: string): boolean {
  const t = c.targeting;
  if (t.devices.length && !has(t.devices, device)) return false;
  const url = new URL(location.href);
  const any = (rules: string[]) => {
    for (let i = 0; i < rules.length; i += 1) if (pageMatches(rules[i] as string, url)) return true;
    return false;
  };
  if (any(t.excludePages)) return false;
  return !t.includePages.length || any(t.includePages);
}

function trackPurchases(api: string, campaignId: string): void {
  const visitorId = persistentId("local", "ca_vid", "v_");
  const variantId = store("local")?.getItem(`ca_var_${campaignId}`) || undefined;
  const send = (event: unknown, data: unknown) => {
    if (event !== "purchase" || !data || typeof data !== "object") return;
    const d = data as Record<string, unknown>;
    void beacon(`${api}/api/widget/purchases`, {
      campaignId,
      visitorId,
      value: d.value,
      currency: d.currency ?? "INR",
      orderId: d.orderId == null ? "" : String(d.orderId),
      variantId,
    });
  };
  const queued = w.caTrackQueue;
  w.caTrackQueue = [];
  w.caTrack = (event: string, data?: Record<string, unknown>) => send(event, data);
  for (let i = 0; queued && i < queued.length; i += 1) {
    const args = queued[i] as ArrayLike<unknown>;
    send(args[0], args[1]);
  }
}

function start(): void {
  const script = thisScript();
  const campaignId = script?.dataset.campaignId;
  if (!script || !campaignId) return;
  const api = (script.dataset.apiUrl || new URL(script.src).origin).replace(/\/+$/, "");
  const registry = (w.__caWidget ??= {});
  const mode = script.dataset.mode === "conversion" ? "conversion" : "widget";
  if (registry[`${mode}:${campaignId}`]) return;
  registry[`${mode}:${campaignId}`] = true;
  if (mode === "conversion") {
    trackPurchases(api, campaignId);
    return;
  }
  const loadedAt = Date.now();
  const visitorId = persistentId("local", "ca_vid", "v_");
  const sessionId = persistentId("session", "ca_sid", "s_");
  const local = store("local");
  const session = store("session");
  const convertedKey = `ca_conv_${campaignId}`;
  const shownKey = `ca_shown_${campaignId}`;
  const lastKey = `ca_last_${campaignId}`;

  void realm
    .fetch(`${api}/api/widget/campaigns/${encodeURIComponent(campaignId)}/config`, {
      credentials: "omit",
    })
    .then((r) => (r.ok ? r.json() : null))
    .then((cfg: PublicConfig | null) => {
      const c = cfg?.active ? cfg.campaign : undefined;
      if (!c) return;
      const variant = variantOf(c.test, visitorId);
      if (variant) local?.setItem(`ca_var_${campaignId}`, variant.id);
      void beacon(`${api}/api/widget/events`, { campaignId, visitorId, type: "pageview" });
      trackEngagement(window, document, loadedAt, session, (r) =>
        sendBeacon(`${api}/api/widget/events`, {
          campaignId,
          visitorId,
          type: "engagement",
          // { seconds, newSession }
          ...r,
        }),
      );
      const device = deviceType();
      if (!c.exitIntent.enabled || !targeted(c, device)) return;
      if (local?.getItem(convertedKey)) return;
      const exit = { ...c.exitIntent, ...variant?.overrides.exitIntent };
      const sensitivity = exit.sensitivity;
      const armAt = loadedAt + Math.max(exit.delay, c.targeting.minTimeOnPage * 1000);
      let open = false;

      const allowed = (): boolean => {
        if (open || Date.now() < armAt || local?.getItem(convertedKey)) return false;
        const shown = Number(session?.getItem(shownKey) ?? 0);
        if (shown >= c.targeting.maxDisplaysPerSession) return false;
        const last = Number(local?.getItem(lastKey) ?? 0);
        return !last || Date.now() - last >= displayGapMs(c);
      };

      const fire = (): void => {
        if (!allowed()) return;
        open = true;
        const options: OpenOptions = {
          api,
          realm,
          campaign: c,
          visitorId,
          sessionId,
          device,
          variant,
          onConverted: () => local?.setItem(convertedKey, "1"),
          onClose: () => {
            open = false;
          },
        };
        import(/* @vite-ignore */ `${api}/widget/${__POPUP_CHUNK__}`)
          .then((m: { open: (o: OpenOptions) => boolean }) => {
            // Counted once it shows (a popup that cannot be styled stays away).
            if (!m.open(options)) return;
            session?.setItem(shownKey, String(Number(session.getItem(shownKey) ?? 0) + 1));
            local?.setItem(lastKey, String(Date.now()));
            void beacon(`${api}/api/widget/events`, {
              campaignId,
              visitorId,
              type: "impression",
              variantId: variant?.id,
            });
          })
          .catch(() => {
            open = false;
          });
      };

      if (device === "desktop") {
        const edge = TOP_EDGE_PX[sensitivity] ?? 20;
        document.addEventListener("mouseout", (e) => {
          if (!e.relatedTarget && e.clientY <= edge) fire();
        });
        return;
      }
      watchTouchExit(window, sensitivity, fire);
    })
    .catch(() => undefined);
}

start();
