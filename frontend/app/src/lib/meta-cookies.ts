import { client } from "./api-client";

/** Meta's cookies last 90 days, as its own pixel sets them. */
const MAX_AGE_SECONDS = 90 * 24 * 60 * 60;

/** The value of cookie `name` in a `document.cookie` string, or null. */
export function readCookie(name: string, cookies: string): string | null {
  for (const part of cookies.split(";")) {
    const [key, ...rest] = part.trim().split("=");
    if (key === name) return rest.join("=") || null;
  }
  return null;
}

/** `_fbc` as Meta builds it from an ad click: `fb.1.<ms>.<fbclid>`. */
export function fbcFromClick(fbclid: string, nowMs: number): string {
  return `fb.1.${nowMs}.${fbclid}`;
}

/** A new `_fbp` browser id: `fb.1.<ms>.<random number>`. */
export function newFbp(nowMs: number, random: () => number = Math.random): string {
  return `fb.1.${nowMs}.${Math.floor(1e9 + random() * 9e9)}`;
}

/** The Meta cookies this page should set: `_fbp` when the browser has none,
 * `_fbc` when the page was opened from an ad click (`fbclid` in its address)
 * other than the one already kept. */
export function metaCookiesFor(
  href: string,
  cookies: string,
  nowMs: number,
  random: () => number = Math.random,
): Record<string, string> {
  const out: Record<string, string> = {};
  if (!readCookie("_fbp", cookies)) out._fbp = newFbp(nowMs, random);
  const fbclid = new URL(href).searchParams.get("fbclid")?.trim();
  if (fbclid && /^[\w.-]{1,500}$/.test(fbclid)) {
    const kept = readCookie("_fbc", cookies);
    if (!kept?.endsWith(`.${fbclid}`)) out._fbc = fbcFromClick(fbclid, nowMs);
  }
  return out;
}

/** When a Meta pixel is configured, keeps Meta's `_fbp` cookie and turns an
 * ad click's `fbclid` into `_fbc`, so the server's Lead and Purchase events
 * (which read these cookies) are attributed to the ad. Without a pixel it
 * sets nothing. A failure is only logged. */
export async function keepMetaClickCookies(): Promise<void> {
  try {
    const { data } = await client.GET("/api/meta/config");
    if (!data?.pixelId) return;
    const secure = window.location.protocol === "https:" ? "; Secure" : "";
    const set = metaCookiesFor(window.location.href, document.cookie, Date.now());
    for (const [name, value] of Object.entries(set)) {
      document.cookie = `${name}=${value}; Max-Age=${MAX_AGE_SECONDS}; Path=/; SameSite=Lax${secure}`;
    }
  } catch (err) {
    console.error("Meta cookies could not be set", err);
  }
}
