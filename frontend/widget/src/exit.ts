/**
 * Exit intent on touch screens: tells a visitor leaving from one reading.
 *
 * A flick back to the top: one finger drags the page up (towards its top), fast and far, and
 * the page really scrolls. "Fast and far" is measured over a run of samples, never one pair:
 * within the last `WINDOW_MS`, a run of at least `MIN_SAMPLES` samples spanning at least
 * `MIN_SPAN_MS` that moved at least `FLICK[sensitivity].distance` px at an average of at least
 * `FLICK[sensitivity].speed` px/ms. The samples are either
 * - the finger's touch reports (from its touchstart; the page scrolls as the finger moves), the
 *   page having scrolled up by at least half that distance during the gesture; or
 * - the page's scroll events while the finger drags it, and during the momentum it leaves for
 *   `MOMENTUM_MS` after lifting.
 *
 * Not a flick: scrolling by the page or by a link (programmatic, anchor jumps, "back to top"),
 * a tap, two fingers (pinch zoom), a finger that rested before moving (a long press: text
 * selection), and any scrolling down. Time without touching is never taken for leaving.
 *
 * Leaving the tab (or the app) and coming back to it also opens the popup.
 */

export interface Flick {
  /** Average speed up over the run, px per ms. */
  speed: number;
  /** Moved up over the run, px. */
  distance: number;
}

/** `exitIntent.sensitivity` → the flick that counts as leaving (documented in the README). */
export const FLICK: Record<string, Flick> = {
  low: { speed: 2.2, distance: 180 },
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
 * Samples of a position moving up (a smaller value is further up): whether some run of them in
 * the window is a flick. No array methods: host pages replace them.
 */
class Run {
  private ts: number[] = [];
  private ys: number[] = [];
  private head = 0;

  clear(): void {
    this.ts = [];
    this.ys = [];
    this.head = 0;
  }

  /** Adds a sample; true when the newest run ending at it is a flick. */
  add(t: number, y: number, flick: Flick): boolean {
    // Moving down: reading on; start over from here.
    if (this.ys.length && y > (this.ys[this.ys.length - 1] as number)) this.clear();
    const ts = this.ts;
    const ys = this.ys;
    ts[ts.length] = t;
    ys[ys.length] = y;
    while (this.head < ts.length - 1 && t - (ts[this.head] as number) > WINDOW_MS) this.head += 1;
    for (let j = this.head; j <= ts.length - MIN_SAMPLES; j += 1) {
      const span = t - (ts[j] as number);
      if (span < MIN_SPAN_MS) break;
      const up = (ys[j] as number) - y;
      if (up >= flick.distance && up / span >= flick.speed) return true;
    }
    return false;
  }
}

/**
 * Watches `win` for a touch exit and calls `fire` (which decides whether the popup may open).
 * Answers a function that stops watching.
 */
export function watchTouchExit(win: Window, sensitivity: string, fire: () => void): () => void {
  const doc = win.document;
  const flick = FLICK[sensitivity] ?? (FLICK.medium as Flick);
  const finger = new Run();
  const scroll = new Run();
  let gesture: Gesture = "none";
  let fingers = 0;
  let startX = 0;
  let startY = 0;
  let startT = 0;
  let startScroll = 0;
  let endT = -Infinity;
  let flicked = false;
  let hidden = false;

  /** The finger flicked and the page followed it up. */
  const check = () => {
    if (flicked && startScroll - win.scrollY >= flick.distance / 2) fire();
  };

  const onStart = (e: TouchEvent) => {
    fingers = e.touches.length;
    finger.clear();
    scroll.clear();
    flicked = false;
    const t = e.touches[0];
    if (fingers > 1 || !t) {
      gesture = "multi";
      return;
    }
    gesture = "tap";
    startX = t.clientX;
    startY = t.clientY;
    startT = e.timeStamp;
    startScroll = win.scrollY;
    // The finger's position counts up as it moves down the screen (scrolling the page up).
    finger.add(startT, -startY, flick);
  };
  const onMove = (e: TouchEvent) => {
    if (e.touches.length > 1) gesture = "multi";
    const t = e.touches[0];
    if (!t) return;
    if (gesture === "tap") {
      if (Math.abs(t.clientY - startY) < SLOP_PX && Math.abs(t.clientX - startX) < SLOP_PX) return;
      gesture = e.timeStamp - startT > LONG_PRESS_MS ? "press" : "drag";
    }
    if (gesture !== "drag") return;
    if (finger.add(e.timeStamp, -t.clientY, flick)) flicked = true;
    check();
  };
  const onEnd = (e: TouchEvent) => {
    fingers = e.touches.length;
    if (!fingers) endT = e.timeStamp;
  };
  const onScroll = (e: Event) => {
    const t = e.timeStamp;
    // Only scrolling a finger drives: its drag, then the momentum it leaves for a moment.
    if (gesture !== "drag" || (!fingers && t - endT > MOMENTUM_MS)) {
      scroll.clear();
      return;
    }
    if (scroll.add(t, win.scrollY, flick)) fire();
    else check();
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
