// Writes corpus.json: the gesture corpus that gestures.spec.ts replays as CDP touch events on a
// Pixel 7 (412 × 839 CSS px). Deterministic (a seeded random generator), so the file only
// changes when this script does: `node e2e/gestures/generate.mjs` in frontend/widget.
//
// Each trace is a list of steps `{at, touch, points}` (ms from the start of the trace; touch
// "start" | "move" | "end"; finger positions in CSS px) or `{at, page}` ("hide" / "show": the
// visitor leaves the tab and comes back; "rest": time passes with nothing touched, fast-forwarded
// by the page clock). The timing is uneven as real touch screens report it: most moves 8–20 ms
// apart, some bunched 1–3 ms apart (two reports in one frame), some late by 30–60 ms (a busy main
// thread), and the finger's speed wanders around its mean.
import { writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

let seed = 0x2b7e1516;
function random() {
  // mulberry32
  seed = (seed + 0x6d2b79f5) | 0;
  let t = seed;
  t = Math.imul(t ^ (t >>> 15), t | 1);
  t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
}
const between = (a, b) => a + (b - a) * random();
const r1 = (v) => Math.round(v * 10) / 10;

/** A gap between two touch reports, uneven as on a real device. */
function gap(mean) {
  const p = random();
  if (p < 0.12) return Math.round(between(1, 3));
  if (p < 0.2) return Math.round(between(30, 60));
  return Math.round(between(mean * 0.6, mean * 1.4));
}

/**
 * One finger from (x, y) moving by `dy` in total at about `speed` px/ms (positive: the finger
 * moves down the screen, scrolling the page up), from time `t0`. `hold`: ms still before lifting
 * (0: lifted while moving, so the page flings on). Answers the steps and the end time.
 */
function stroke({ x, y, dy, speed, t0 = 0, mean = 14, hold = 0, lift = true, wobble = 0.35 }) {
  const steps = [{ at: t0, touch: "start", points: [[x, y]] }];
  let t = t0;
  let moved = 0;
  const dir = Math.sign(dy);
  while (Math.abs(moved) < Math.abs(dy)) {
    const g = gap(mean);
    t += g;
    // The distance follows the time that passed (a bunched report moves little), the speed
    // wandering ±wobble around the mean.
    const step = Math.max(1, speed * Math.max(g, 4) * between(1 - wobble, 1 + wobble));
    moved += dir * Math.min(step, Math.abs(dy) - Math.abs(moved));
    x += between(-1.5, 1.5);
    steps.push({ at: t, touch: "move", points: [[r1(x), r1(y + moved)]] });
  }
  if (hold) {
    // A finger at rest still reports a pixel or two of jitter.
    const until = t + hold;
    while (t < until - 20) {
      t += Math.round(between(30, 80));
      steps.push({ at: t, touch: "move", points: [[r1(x + between(-1, 1)), r1(y + moved)]] });
    }
    t = until;
  }
  if (lift) steps.push({ at: t + Math.round(between(8, 16)), touch: "end", points: [] });
  return { steps, end: t + 16 };
}

/** A tap at (x, y). */
function tap(x, y, t0) {
  const down = Math.round(between(50, 110));
  return [
    { at: t0, touch: "start", points: [[x, y]] },
    { at: t0 + down, touch: "end", points: [] },
  ];
}

const traces = [];
function trace(kind, name, what, start, steps) {
  traces.push({ name, kind, what, start, steps });
}

// --- Reading: none of these may open the popup ---------------------------------------------

// Reading on: the finger pushes the page up (scrolls down), at reading speeds, three times.
for (let i = 0; i < 3; i += 1) {
  let t = 0;
  const steps = [];
  for (let k = 0; k < 3; k += 1) {
    const s = stroke({
      x: between(150, 300),
      y: between(600, 700),
      dy: -between(220, 380),
      speed: between(0.3, 1.1),
      t0: t,
    });
    steps.push(...s.steps);
    t = s.end + Math.round(between(700, 1600));
  }
  trace(
    "reading",
    `read-down-${i + 1}`,
    "reading on: three scrolls down at 0.3–1.1 px/ms",
    1400,
    steps,
  );
}

// Scrolling back slowly to reread (the finger moves down the screen), with bunched reports
// that make one pair of events look fast (the 1 ms pairs of the report).
for (let i = 0; i < 4; i += 1) {
  const s = stroke({
    x: between(150, 300),
    y: between(180, 260),
    dy: between(220, 420),
    speed: [0.25, 0.4, 0.55, 0.75][i],
    mean: 16,
  });
  trace(
    "reading",
    `scroll-back-${i + 1}`,
    `scrolling back to reread at about ${[0.25, 0.4, 0.55, 0.75][i]} px/ms, lifted while moving`,
    2600,
    s.steps,
  );
}

// Scrolling back in two short strokes, the second after a pause.
{
  const a = stroke({ x: 210, y: 220, dy: 160, speed: 0.6, hold: 120 });
  const b = stroke({ x: 215, y: 240, dy: 180, speed: 0.7, t0: a.end + 900 });
  trace("reading", "scroll-back-twice", "two short strokes back, 0.6 and 0.7 px/ms", 2600, [
    ...a.steps,
    ...b.steps,
  ]);
}

// Tapping the sticky header's "Top" link: the page scrolls itself (smoothly) to the top.
trace(
  "reading",
  "tap-top-link",
  "a tap on the header's \u201cTop\u201d link (smooth scroll to the top)",
  3000,
  tap(372, 22, 0),
);

// Tapping an in-page link in the footer bar that jumps up to the contents.
trace(
  "reading",
  "tap-contents-link",
  "a tap on the footer's \u201cContents\u201d link (anchor jump up)",
  3000,
  tap(60, 818, 0),
);

// Pinch zoom in and out: two fingers apart, then together again.
{
  const steps = [
    {
      at: 0,
      touch: "start",
      points: [
        [170, 420],
        [240, 470],
      ],
    },
  ];
  let t = 0;
  for (let k = 1; k <= 14; k += 1) {
    t += gap(16);
    const d = k * 9;
    steps.push({
      at: t,
      touch: "move",
      points: [
        [r1(170 - d), r1(420 - d)],
        [r1(240 + d), r1(470 + d)],
      ],
    });
  }
  steps.push({ at: t + 12, touch: "end", points: [] });
  t += 700;
  steps.push({
    at: t,
    touch: "start",
    points: [
      [44, 294],
      [366, 596],
    ],
  });
  for (let k = 13; k >= 0; k -= 1) {
    t += gap(16);
    const d = k * 9;
    steps.push({
      at: t,
      touch: "move",
      points: [
        [r1(170 - d), r1(420 - d)],
        [r1(240 + d), r1(470 + d)],
      ],
    });
  }
  steps.push({ at: t + 12, touch: "end", points: [] });
  trace("reading", "pinch-zoom", "pinch zoom in, then out", 1800, steps);
}

// Selecting text: a long press, then the finger drags the selection down the screen quickly.
{
  const s = stroke({ x: 120, y: 360, dy: 0.1, speed: 0.01, hold: 650, lift: false });
  const last = s.steps[s.steps.length - 1];
  const drag = stroke({ x: 120, y: 360, dy: 260, speed: 1.6, t0: last.at + 10 });
  trace(
    "reading",
    "select-text",
    "a long press, then the selection dragged down at 1.6 px/ms",
    2200,
    [...s.steps, ...drag.steps.slice(1)],
  );
}

// Resting: the thumb on the screen without moving, then nothing touched for 65 s (longer than
// every idle rule the widget ever had).
{
  const s = stroke({ x: 200, y: 700, dy: 0.1, speed: 0.01, hold: 1800 });
  trace("reading", "rest", "the thumb resting on the screen, then 65 s untouched", 1800, [
    ...s.steps,
    { at: s.end + 300, page: "rest", ms: 65_000 },
  ]);
}

// --- Exits: the popup should open --------------------------------------------------------------

// A fast flick back towards the top across most of the screen, lifted while moving (the page
// flings on), at 2.8–6 px/ms over 380–560 px.
const flicks = [
  [3.2, 420, 10],
  [4.0, 480, 12],
  [5.0, 520, 9],
  [2.8, 400, 14],
  [6.0, 560, 8],
  [3.6, 380, 16],
];
flicks.forEach(([speed, dy, mean], i) => {
  const s = stroke({ x: between(150, 300), y: between(120, 220), dy, speed, mean, wobble: 0.25 });
  trace(
    "exit",
    `flick-${i + 1}`,
    `a flick to the top at about ${speed} px/ms over ${dy} px`,
    3200,
    s.steps,
  );
});

// A slow drag that turns into a fast flick (the finger speeds up), held still before lifting.
{
  const a = stroke({ x: 200, y: 220, dy: 110, speed: 0.45, lift: false });
  const b = stroke({ x: 200, y: 330, dy: 300, speed: 4.5, t0: a.end, hold: 220, mean: 10 });
  trace(
    "exit",
    "drag-then-flick",
    "a slow drag speeding up into a 4.5 px/ms flick, held before lifting",
    3200,
    [...a.steps, ...b.steps.slice(1)],
  );
}

// Two quick flicks in a row, the second one faster.
{
  const a = stroke({ x: 220, y: 160, dy: 220, speed: 2.6, mean: 12 });
  const b = stroke({ x: 225, y: 170, dy: 360, speed: 4.2, t0: a.end + 180, mean: 10 });
  trace("exit", "double-flick", "two flicks to the top, 2.6 then 4.2 px/ms", 3800, [
    ...a.steps,
    ...b.steps,
  ]);
}

// Leaving the tab (switching apps) and coming back, after reading a little.
for (const [i, away] of [4000, 1500].entries()) {
  const s = stroke({ x: 200, y: 650, dy: -260, speed: 0.6 });
  trace(
    "exit",
    `leave-tab-${i + 1}`,
    `reading, then away from the tab for ${away / 1000} s and back`,
    1400,
    [...s.steps, { at: s.end + 900, page: "hide" }, { at: s.end + 900 + away, page: "show" }],
  );
}

const file = join(dirname(fileURLToPath(import.meta.url)), "corpus.json");
writeFileSync(
  file,
  JSON.stringify(
    {
      about:
        "Touch traces replayed by e2e/gestures.spec.ts on a Pixel 7 (CSS px, ms). Made by generate.mjs; see e2e/README.md.",
      traces,
    },
    null,
    1,
  ) + "\n",
);
console.log(`${traces.length} traces written to ${file}`);
