/**
 * Engaged time on the page, reported for the campaign's measured session time.
 *
 * Time counts while the page is visible (`document.visibilityState === "visible"`) and the
 * visitor did something (pointer, key, scroll, touch, wheel) within the last `IDLE_MS`; it
 * starts counting at load. When the page goes hidden and on `pagehide` the whole seconds not yet
 * reported are sent (none when 0, at most `MAX_SECONDS` in one report; the rest goes with the
 * next), as `{campaignId, visitorId, type: "engagement", seconds, newSession}`.
 *
 * `newSession` is true on the first report of a browsing session: the time of the last report is
 * kept in sessionStorage (`ca_engaged_at`) and a session is new when there is none or it is older
 * than `SESSION_MS`; with storage blocked, true on the page's first report only.
 *
 * Nothing here runs a timer: the time is added up when something happens and when reporting.
 */

export const IDLE_MS = 30_000;
export const MAX_SECONDS = 1800;
export const SESSION_MS = 30 * 60_000;
export const SESSION_KEY = "ca_engaged_at";

const ACTIVITY = ["pointerdown", "pointermove", "keydown", "scroll", "touchstart", "wheel"];

export interface Engagement {
  /** Whole seconds counted so far (reported or not). */
  seconds: () => number;
  /** Sends what was not yet reported, if anything (what `pagehide` and hiding do). */
  flush: () => void;
}

export interface EngagementReport {
  seconds: number;
  newSession: boolean;
}

/**
 * Counts engaged time from `loadedAt` (a `Date.now()` time) and calls `send` with each report.
 * `session` is sessionStorage, or null where the page's storage is blocked.
 */
export function trackEngagement(
  win: Window,
  doc: Document,
  loadedAt: number,
  session: Storage | null,
  send: (report: EngagementReport) => void,
): Engagement {
  let counted = 0; // ms
  let reported = 0; // whole seconds
  let since = loadedAt;
  let active = loadedAt;
  let visible = doc.visibilityState === "visible";
  let first = true;

  /** Adds the engaged part of the time since the last look. */
  const settle = (now: number) => {
    if (visible) counted += Math.max(0, Math.min(now, active + IDLE_MS) - since);
    since = Math.max(since, now);
  };
  const onActivity = () => {
    const now = Date.now();
    settle(now);
    active = now;
  };

  const newSession = (now: number): boolean => {
    let fresh = first;
    try {
      if (session) {
        const last = Number(session.getItem(SESSION_KEY) || 0);
        fresh = !last || now - last > SESSION_MS;
        session.setItem(SESSION_KEY, String(now));
      }
    } catch {
      fresh = first;
    }
    first = false;
    return fresh;
  };

  const flush = () => {
    const now = Date.now();
    settle(now);
    const seconds = Math.min(Math.floor(counted / 1000) - reported, MAX_SECONDS);
    if (seconds <= 0) return;
    reported += seconds;
    send({ seconds, newSession: newSession(now) });
  };

  for (let i = 0; i < ACTIVITY.length; i += 1)
    win.addEventListener(ACTIVITY[i] as string, onActivity, { capture: true, passive: true });
  doc.addEventListener("visibilitychange", () => {
    settle(Date.now());
    visible = doc.visibilityState === "visible";
    if (!visible) flush();
  });
  win.addEventListener("pagehide", flush);

  return {
    seconds: () => {
      settle(Date.now());
      return Math.floor(counted / 1000);
    },
    flush,
  };
}
