/**
 * Coming back after signing in: the sign-in pages carry the page that was asked for in `?next=`,
 * and go there once signed in. Only a path of this site is followed; anything that could lead
 * elsewhere (`//evil.com`, `https://…`, `/\evil.com`) is ignored and the dashboard opens instead.
 */

/** The query parameter that carries the page to come back to. */
export const NEXT_PARAM = "next";

/** Where signing in goes when no page (or no acceptable page) was asked for. */
export const DEFAULT_AFTER_SIGN_IN = "/dashboard";

/** The sign-in pages themselves: coming back to one of them would ask to sign in again. */
const SIGN_IN_PAGES = ["/login", "/register", "/auth", "/forgot-password", "/reset-password"];

/** An origin no real page has, to read a path against without trusting the browser's own. */
const PROBE = "https://return-to.invalid";

/**
 * The page to open after signing in: `raw` when it is a path of this site (kept with its query
 * and fragment), else `fallback`.
 */
export function safeNext(
  raw: string | null | undefined,
  fallback: string = DEFAULT_AFTER_SIGN_IN,
): string {
  if (!raw) return fallback;
  // A path, never a scheme or a host: "/x" yes; "//host", "/\host", "https:…" no. Browsers read
  // a backslash as a slash and skip tabs and newlines, so none of them is accepted anywhere.
  if (!raw.startsWith("/") || raw.startsWith("//")) return fallback;
  // eslint-disable-next-line no-control-regex
  if (/[\\\u0000-\u001f\u007f]/.test(raw)) return fallback;
  let url: URL;
  try {
    url = new URL(raw, PROBE);
  } catch {
    return fallback;
  }
  if (url.origin !== PROBE) return fallback;
  if (SIGN_IN_PAGES.some((p) => url.pathname === p || url.pathname.startsWith(`${p}/`))) {
    return fallback;
  }
  return `${url.pathname}${url.search}${url.hash}`;
}

/**
 * `page` (a sign-in page) with the page to come back to; nothing is added for the dashboard
 * itself, which signing in opens anyway.
 */
export function withNext(page: string, next: string | null | undefined): string {
  const back = safeNext(next, "");
  if (!back || back === "/" || back === DEFAULT_AFTER_SIGN_IN) return page;
  return `${page}?${NEXT_PARAM}=${encodeURIComponent(back)}`;
}

/** The page the browser shows now, as `next` carries it. */
export function currentPage(loc: Pick<Location, "pathname" | "search" | "hash">): string {
  return `${loc.pathname}${loc.search}${loc.hash}`;
}
