/**
 * Exit intent on touch screens: tells a visitor leaving from one reading.
 *
 * - A flick back to the top: the page scrolls up, driven by one finger dragging it (or by the
 *   momentum of that drag after the finger lifts, for up to `MOMENTUM_MS`), at least
 *   `FLICK[sensitivity].speed` px/ms on average over the scroll events of the last `WINDOW_MS`
 *   (at least `MIN_SAMPLES` of them, spanning at least `MIN_SPAN_MS`), and by at least
 *   `FLICK[sensitivity].distance` px in that window. Speed is never taken from one pair of
 *   events, so uneven touch timing cannot make a slow scroll look fast.
 * - Not a flick: scrolling by the page or by a link (programmatic, anchor jumps, "back to top"),
 *   a tap, two fingers (pinch zoom), a finger that rested before moving (a long press: text
 *   selection), and any scrolling down. Time without touching is never taken for leaving.
 * - Leaving the tab (or the app) and coming back to it.
 */

export interface Flick {
  /** Average scroll speed up over the window, px per ms. */
  speed: number;
  /** Scrolled up within the window, px. */
  distance: number;
}

/** `exitIntent.sensitivity` → the flick that counts as leaving (documented in the README). */
export const FLICK: Record<string, Flick> = {
  low: { speed: 2.5, distance: 200 },
  medium: { speed: 1.8, distance: 150 },
  high: { speed: 1.2, distance: 100 },
};
export const WINDOW_MS = 250;
export const MIN_SAMPLES = 4;
export const MIN_SPAN_MS = 50;
export const MOMENTUM_MS = 1200;
/** A finger that moves less than this is a tap. */
export const SLOP_PX = 10;
/** A finger still this long before it moves is a long press (text selection), not a drag. */
export const LONG_PRESS_MS = 450;

type Gesture = "none" | "tap" | "drag" | "press" | "multi";

/**
 * Watches `win` for a touch exit and calls `fire` (which decides whether the popup may open).
 * Answers a function that stops watching.
 */
export function watchTouchExit(win: Window, sensitivity: string, fire: () => void): () => void {
  const doc = win.document;
  const flick = FLICK[sensitivity] ?? (FLICK.medium as Flick);
  let gesture: Gesture = "none";
  let fingers = 0;
  let startX = 0;
  let startY = 0;
  let startT = 0;
  let endT = -Infinity;
  let ts: number[] = [];
  let ys: number[] = [];
  let head = 0;
  let hidden = false;

  const onStart = (e: TouchEvent) => {
    fingers = e.touches.length;
    ts = [];
    ys = [];
    head = 0;
    const t = e.touches[0];
    if (fingers > 1 || !t) {
      gesture = "multi";
      return;
    }
    gesture = "tap";
    startX = t.clientX;
    startY = t.clientY;
    startT = e.timeStamp;
  };
  const onMove = (e: TouchEvent) => {
    if (e.touches.length > 1) gesture = "multi";
    const t = e.touches[0];
    if (gesture !== "tap" || !t) return;
    if (Math.abs(t.clientY - startY) < SLOP_PX && Math.abs(t.clientX - startX) < SLOP_PX) return;
    gesture = e.timeStamp - startT > LONG_PRESS_MS ? "press" : "drag";
  };
  const onEnd = (e: TouchEvent) => {
    fingers = e.touches.length;
    if (!fingers) endT = e.timeStamp;
  };
  const onScroll = (e: Event) => {
    const t = e.timeStamp;
    const y = win.scrollY;
    // Only scrolling a finger drives: its drag, then the momentum it leaves for a moment.
    // (No array methods: host pages replace them.)
    if (gesture !== "drag" || (!fingers && t - endT > MOMENTUM_MS)) {
      ts = [];
      ys = [];
      head = 0;
      return;
    }
    // Scrolling down: reading on; start over from here.
    if (ts.length && y > (ys[ys.length - 1] as number)) {
      ts = [];
      ys = [];
      head = 0;
    }
    ts[ts.length] = t;
    ys[ys.length] = y;
    while (head < ts.length - 1 && t - (ts[head] as number) > WINDOW_MS) head += 1;
    const span = t - (ts[head] as number);
    const up = (ys[head] as number) - y;
    if (
      ts.length - head >= MIN_SAMPLES &&
      span >= MIN_SPAN_MS &&
      up >= flick.distance &&
      up / span >= flick.speed
    )
      fire();
  };
  const onVisibility = () => {
    if (doc.visibilityState === "hidden") hidden = true;
    else if (hidden) {
      hidden = false;
      fire();
    }
  };

  const passive = { capture: true, passive: true };
  win.addEventListener("touchstart", onStart, passive);
  win.addEventListener("touchmove", onMove, passive);
  win.addEventListener("touchend", onEnd, passive);
  win.addEventListener("touchcancel", onEnd, passive);
  win.addEventListener("scroll", onScroll, { passive: true });
  doc.addEventListener("visibilitychange", onVisibility);
  return () => {
    win.removeEventListener("touchstart", onStart, passive);
    win.removeEventListener("touchmove", onMove, passive);
    win.removeEventListener("touchend", onEnd, passive);
    win.removeEventListener("touchcancel", onEnd, passive);
    win.removeEventListener("scroll", onScroll);
    doc.removeEventListener("visibilitychange", onVisibility);
  };
}
