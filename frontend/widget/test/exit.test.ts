import { beforeEach, describe, expect, it } from "vitest";
import { watchTouchExit } from "../src/exit";

/**
 * The touch exit rule on synthetic events (the gesture corpus in e2e/ replays real touches in
 * Chromium): a stand-in window whose scrollY the test moves, events with the timestamps given.
 */
let y = 0;
let win: EventTarget & { scrollY: number; document: EventTarget };
let fired = 0;
let visibility: DocumentVisibilityState = "visible";

function ev(type: string, t: number, touches: { clientX: number; clientY: number }[] = []) {
  const e = new Event(type);
  Object.defineProperty(e, "timeStamp", { value: t });
  Object.defineProperty(e, "touches", { value: touches });
  return e;
}
const finger = (clientY: number, clientX = 200) => [{ clientX, clientY }];

function scrollTo(top: number, t: number) {
  y = top;
  win.dispatchEvent(ev("scroll", t));
}

/** A one-finger drag: the finger moves by `dy` per step every `gap` ms, the page follows. */
function drag(t0: number, steps: [dy: number, gap: number][], lift = true): number {
  let t = t0;
  let fy = 300;
  win.dispatchEvent(ev("touchstart", t, finger(fy)));
  for (const [dy, gap] of steps) {
    t += gap;
    fy += dy;
    win.dispatchEvent(ev("touchmove", t, finger(fy)));
    scrollTo(Math.max(0, y - dy), t);
  }
  if (lift) win.dispatchEvent(ev("touchend", t, []));
  return t;
}

beforeEach(() => {
  y = 3000;
  fired = 0;
  visibility = "visible";
  const doc = new EventTarget();
  Object.defineProperty(doc, "visibilityState", { get: () => visibility });
  const w = new EventTarget() as typeof win;
  Object.defineProperty(w, "scrollY", { get: () => y });
  w.document = doc;
  win = w;
  watchTouchExit(win as unknown as Window, "high", () => (fired += 1));
});

describe("touch exit intent", () => {
  it("opens on a fast flick up over several scroll events", () => {
    drag(1000, [
      [40, 12],
      [70, 17],
      [90, 15],
      [80, 19],
    ]);
    expect(fired).toBeGreaterThan(0);
  });

  it("never from one pair of events close together (uneven timing)", () => {
    // 0.3 px/ms overall, but one pair 1 ms apart looks like 30 px/ms.
    drag(1000, [
      [12, 40],
      [30, 1],
      [12, 60],
      [10, 50],
      [12, 45],
    ]);
    expect(fired).toBe(0);
  });

  it("never from a single jump, however fast (one pair of samples)", () => {
    win.dispatchEvent(ev("touchstart", 1000, finger(200)));
    win.dispatchEvent(ev("touchmove", 1060, finger(500)));
    scrollTo(y - 300, 1065);
    win.dispatchEvent(ev("touchend", 1070, []));
    expect(fired).toBe(0);
  });

  it("not on a slow scroll back", () => {
    drag(1000, [
      [15, 30],
      [20, 35],
      [18, 28],
      [22, 40],
      [20, 30],
      [25, 33],
    ]);
    expect(fired).toBe(0);
  });

  it("not on scrolling the page did itself (an anchor link, back to top)", () => {
    win.dispatchEvent(ev("touchstart", 1000, finger(500)));
    win.dispatchEvent(ev("touchend", 1060, []));
    for (let i = 1; i <= 20; i += 1) scrollTo(3000 - i * 150, 1060 + i * 16);
    expect(fired).toBe(0);
  });

  it("not on a long press that then moves (text selection)", () => {
    win.dispatchEvent(ev("touchstart", 1000, finger(300)));
    let t = 1600;
    for (let i = 1; i <= 6; i += 1) {
      t += 16;
      win.dispatchEvent(ev("touchmove", t, finger(300 + i * 60)));
      scrollTo(y - 60, t);
    }
    expect(fired).toBe(0);
  });

  it("not on two fingers (pinch zoom)", () => {
    win.dispatchEvent(
      ev("touchstart", 1000, [
        { clientX: 100, clientY: 300 },
        { clientX: 300, clientY: 500 },
      ]),
    );
    for (let i = 1; i <= 8; i += 1) scrollTo(y - 80, 1000 + i * 16);
    expect(fired).toBe(0);
  });

  it("not on momentum long after the finger lifted", () => {
    const t = drag(1000, [
      [15, 30],
      [15, 30],
    ]);
    for (let i = 1; i <= 8; i += 1) scrollTo(y - 80, t + 1300 + i * 16);
    expect(fired).toBe(0);
  });

  it("on the finger's reports when scroll events come once a frame, if the page follows", () => {
    // A busy page: one scroll event for the whole flick, yet five finger reports over 72 ms.
    let t = 1000;
    let fy = 200;
    win.dispatchEvent(ev("touchstart", t, finger(fy)));
    for (const [dy, gap] of [
      [60, 14],
      [70, 20],
      [80, 16],
      [90, 22],
    ]) {
      t += gap as number;
      fy += dy as number;
      win.dispatchEvent(ev("touchmove", t, finger(fy)));
    }
    expect(fired).toBe(0); // the page has not moved yet
    scrollTo(y - 300, t + 10);
    expect(fired).toBe(1);
  });

  it("not when the finger flicks but the page does not scroll (already at the top)", () => {
    y = 0;
    let t = 1000;
    let fy = 200;
    win.dispatchEvent(ev("touchstart", t, finger(fy)));
    for (let i = 0; i < 6; i += 1) {
      t += 15;
      fy += 70;
      win.dispatchEvent(ev("touchmove", t, finger(fy)));
    }
    expect(fired).toBe(0);
  });

  it("opens when the visitor comes back to the tab, not when it goes hidden", () => {
    visibility = "hidden";
    win.document.dispatchEvent(new Event("visibilitychange"));
    expect(fired).toBe(0);
    visibility = "visible";
    win.document.dispatchEvent(new Event("visibilitychange"));
    expect(fired).toBe(1);
  });
});
