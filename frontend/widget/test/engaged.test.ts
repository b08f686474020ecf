import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import {
  IDLE_MS,
  MAX_SECONDS,
  SESSION_KEY,
  trackEngagement,
  type EngagementReport,
} from "../src/engaged";

/**
 * Engaged time with fake timers: each test gets a fresh window (jsdom's own, listeners removed
 * by giving each test its own EventTarget stand-ins) and controls visibility.
 */
let visibility: DocumentVisibilityState = "visible";
let win: EventTarget;
let doc: EventTarget & { visibilityState: DocumentVisibilityState };
let reports: EngagementReport[];

const T0 = Date.UTC(2026, 10, 23, 12, 0, 0);

function start(session: Storage | null = sessionStorage) {
  return trackEngagement(
    win as unknown as Window,
    doc as unknown as Document,
    Date.now(),
    session,
    (r) => reports.push(r),
  );
}

const act = (type = "pointermove") => win.dispatchEvent(new Event(type));
const wait = (ms: number) => vi.advanceTimersByTime(ms);
function setVisible(v: boolean) {
  visibility = v ? "visible" : "hidden";
  doc.dispatchEvent(new Event("visibilitychange"));
}
const pagehide = () => win.dispatchEvent(new Event("pagehide"));

beforeEach(() => {
  vi.useFakeTimers();
  vi.setSystemTime(T0);
  sessionStorage.clear();
  visibility = "visible";
  win = new EventTarget();
  const d = new EventTarget() as EventTarget & { visibilityState: DocumentVisibilityState };
  Object.defineProperty(d, "visibilityState", { get: () => visibility });
  doc = d;
  reports = [];
});

afterEach(() => {
  vi.useRealTimers();
});

describe("engaged time", () => {
  it("counts from load while the visitor is active, then at most 30 s after the last activity", () => {
    const e = start();
    wait(10_000);
    expect(e.seconds()).toBe(10);
    wait(100_000); // nothing happens: only the first 30 s count
    expect(e.seconds()).toBe(IDLE_MS / 1000);
    act("keydown");
    wait(5_000);
    act("wheel");
    wait(45_000);
    expect(e.seconds()).toBe(30 + 5 + 30);
  });

  it("counts every kind of activity", () => {
    const e = start();
    for (const type of ["pointerdown", "pointermove", "keydown", "scroll", "touchstart", "wheel"]) {
      wait(29_000);
      act(type);
    }
    expect(e.seconds()).toBe(6 * 29);
  });

  it("does not count while the page is hidden", () => {
    const e = start();
    wait(4_000);
    setVisible(false);
    act(); // a scroll event while hidden (a script)
    wait(60_000);
    expect(e.seconds()).toBe(4);
    setVisible(true);
    act();
    wait(3_000);
    expect(e.seconds()).toBe(7);
  });

  it("reports the whole seconds not yet reported on hidden and pagehide, nothing when 0", () => {
    start();
    wait(12_400);
    setVisible(false);
    expect(reports).toEqual([{ seconds: 12, newSession: true }]);
    pagehide(); // straight after: nothing new
    expect(reports).toHaveLength(1);
    setVisible(true);
    act();
    wait(1_700); // 12.4 + 1.7 = 14.1: 2 more whole seconds
    pagehide();
    expect(reports[1]).toEqual({ seconds: 2, newSession: false });
    setVisible(false);
    expect(reports).toHaveLength(2);
  });

  it("caps a report at 1800 s and sends the rest with the next", () => {
    start();
    for (let i = 0; i < 80; i += 1) {
      wait(29_000);
      act();
    }
    setVisible(false); // 2320 s engaged
    expect(reports[0]!.seconds).toBe(MAX_SECONDS);
    setVisible(true);
    pagehide();
    expect(reports[1]!.seconds).toBe(80 * 29 - MAX_SECONDS);
  });

  it("starts a new session when the last report is older than 30 minutes", () => {
    start();
    wait(5_000);
    pagehide();
    expect(reports[0]!.newSession).toBe(true);
    expect(sessionStorage.getItem(SESSION_KEY)).toBe(String(T0 + 5_000));

    // The next page of the same tab, 10 minutes later: the same session.
    wait(10 * 60_000);
    win = new EventTarget();
    start();
    wait(3_000);
    pagehide();
    expect(reports[1]).toEqual({ seconds: 3, newSession: false });

    // Back 31 minutes after that report: a new session.
    wait(31 * 60_000);
    win = new EventTarget();
    start();
    wait(2_000);
    pagehide();
    expect(reports[2]).toEqual({ seconds: 2, newSession: true });
  });

  it("with storage blocked: a new session on the page's first report only", () => {
    const blocked = {
      getItem: () => {
        throw new DOMException("blocked", "SecurityError");
      },
      setItem: () => {
        throw new DOMException("blocked", "SecurityError");
      },
    } as unknown as Storage;
    start(blocked);
    wait(2_000);
    setVisible(false);
    setVisible(true);
    act();
    wait(2_000);
    pagehide();
    expect(reports).toEqual([
      { seconds: 2, newSession: true },
      { seconds: 2, newSession: false },
    ]);
    win = new EventTarget();
    start(null);
    wait(1_000);
    pagehide();
    expect(reports[2]).toEqual({ seconds: 1, newSession: true });
  });
});
