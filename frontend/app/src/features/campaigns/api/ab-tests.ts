import type { CampaignSettings } from "./campaigns";

/**
 * The rules of the Tests tab that need no server: what a variant changes relative to the
 * campaign, the traffic split, the cumulative results chart, and the test's state in words.
 */

/** A test's metric: leads per impression, or revenue per impression. */
export type TestMetric = "conversionRate" | "revenuePerVisitor";

export const METRICS: { value: TestMetric; label: string }[] = [
  { value: "conversionRate", label: "Conversion rate" },
  { value: "revenuePerVisitor", label: "Revenue per visitor" },
];

/** A test has the control and 1 to 3 variants. */
export const MAX_VARIANTS = 3;

/**
 * The parts of a campaign's settings a variant may change, section by section (`null`: every
 * key of the section), as the server allows: the popup (message and design), the greeting, the
 * forms, and the exit intent's sensitivity and delay.
 */
export const OVERRIDABLE: Record<string, readonly string[] | null> = {
  popup: null,
  aiSettings: ["initialMessage"],
  forms: null,
  exitIntent: ["sensitivity", "delay"],
};

type Obj = Record<string, unknown>;

function isObject(v: unknown): v is Obj {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/**
 * What `next` changes in `base`: objects key by key, anything else (lists included) whole, as the
 * server lays overrides over the campaign. `undefined` when nothing changed.
 */
function diff(base: unknown, next: unknown): unknown {
  if (isObject(base) && isObject(next)) {
    const out: Obj = {};
    for (const key of Object.keys(next)) {
      const d = diff(base[key], next[key]);
      if (d !== undefined) out[key] = d;
    }
    return Object.keys(out).length > 0 ? out : undefined;
  }
  return JSON.stringify(base) === JSON.stringify(next) ? undefined : next;
}

/**
 * A variant's overrides: the fields the owner changed relative to the campaign, limited to what
 * a test may change (`{}` when nothing changed).
 */
export function overridesOf(base: CampaignSettings, variant: CampaignSettings): Obj {
  const out: Obj = {};
  const b = base as unknown as Obj;
  const v = variant as unknown as Obj;
  for (const [section, keys] of Object.entries(OVERRIDABLE)) {
    const from = b[section];
    const to = v[section];
    if (!isObject(from) || !isObject(to)) continue;
    const picked = keys === null ? to : Object.fromEntries(keys.map((k) => [k, to[k]]));
    const d = diff(from, picked);
    if (d !== undefined) out[section] = d;
  }
  return out;
}

/** `base` with `patch` laid over it, as the server does: objects merge, anything else replaces. */
function merge(base: unknown, patch: unknown): unknown {
  if (isObject(base) && isObject(patch)) {
    const out: Obj = { ...base };
    for (const [k, v] of Object.entries(patch)) out[k] = merge(base[k], v);
    return out;
  }
  return patch;
}

/** The campaign as a variant shows it: its settings with the variant's overrides laid over. */
export function applyOverrides(base: CampaignSettings, overrides: unknown): CampaignSettings {
  return merge(base, isObject(overrides) ? overrides : {}) as CampaignSettings;
}

/** The traffic split in whole percent shared as evenly as it goes, the first arms rounded up. */
export function evenSplit(arms: number): number[] {
  if (arms <= 0) return [];
  const share = Math.floor(100 / arms);
  const left = 100 - share * arms;
  return Array.from({ length: arms }, (_, i) => share + (i < left ? 1 : 0));
}

/** What is wrong with a traffic split, in the server's words, or null when it is whole and adds to 100. */
export function weightError(weights: number[]): string | null {
  if (weights.some((w) => !Number.isInteger(w) || w < 0 || w > 100))
    return "The weight is a whole percent from 0 to 100";
  const total = weights.reduce((a, b) => a + b, 0);
  if (total !== 100) return `The weights must add up to 100 percent; they add up to ${total}`;
  return null;
}

/** One arm of a test being written: its name, its share, and the settings it shows. */
export interface ArmDraft {
  name: string;
  weight: number;
  settings: CampaignSettings;
}

/** The errors of a new test, by field (`name`, `arms.<i>.name`, `arms.<i>.design`, `weights`). */
export function testDraftErrors(
  name: string,
  arms: ArmDraft[],
  base: CampaignSettings,
): Record<string, string> {
  const errors: Record<string, string> = {};
  const n = name.trim().length;
  if (n < 1 || n > 120) errors.name = "Give the test a name of 1 to 120 characters";
  arms.forEach((arm, i) => {
    const l = arm.name.trim().length;
    if (l < 1 || l > 60)
      errors[`arms.${i}.name`] = "Give each variant a name of 1 to 60 characters";
    if (i > 0 && Object.keys(overridesOf(base, arm.settings)).length === 0)
      errors[`arms.${i}.design`] =
        "This variant is the same as the control: change its design, greeting, forms or timing";
  });
  const weights = weightError(arms.map((a) => a.weight));
  if (weights) errors.weights = weights;
  return errors;
}

/** One day of one arm, as the results carry it. */
export interface ArmDay {
  day: string;
  /** Visitors the arm counted for the first time that day. */
  visitors: number;
  impressions: number;
  leads: number;
  revenue: number;
}

/** One point of the chart: the day, and each arm's cumulative metric by arm id (null before its first visitor). */
export type ChartPoint = { day: string } & Record<string, number | string | null>;

/**
 * The cumulative metric per arm over the test's days: from the first day to each day, leads per
 * visitor in percent (conversion rate) or revenue per visitor in rupees, to 2 decimals (a visitor
 * counts once, on the day they first saw the arm, however many pages they saw it on).
 * Days without traffic for an arm carry its figure so far.
 */
export function cumulativeSeries(
  arms: { id: string; daily: ArmDay[] }[],
  metric: TestMetric,
): ChartPoint[] {
  const days = [...new Set(arms.flatMap((a) => a.daily.map((d) => d.day)))].sort();
  const totals = arms.map(() => ({ visitors: 0, leads: 0, revenue: 0 }));
  const byDay = arms.map((a) => new Map(a.daily.map((d) => [d.day, d])));
  return days.map((day) => {
    const point: ChartPoint = { day };
    arms.forEach((arm, i) => {
      const t = totals[i]!;
      const d = byDay[i]!.get(day);
      if (d) {
        t.visitors += d.visitors;
        t.leads += d.leads;
        t.revenue += d.revenue;
      }
      const value =
        metric === "conversionRate" ? (t.leads / t.visitors) * 100 : t.revenue / t.visitors;
      point[arm.id] = t.visitors > 0 ? Math.round(value * 100) / 100 : null;
    });
    return point;
  });
}

/** Where a test stands, in plain words: a short label, its colour, and a sentence. */
export function stateWords(
  state: string,
  status: string,
  days: number,
): { label: string; color: string; text: string } {
  if (status === "paused" && state !== "closed")
    return {
      label: "Paused",
      color: "yellow",
      text: "Paused: every visitor sees the campaign as it is until you resume the test.",
    };
  switch (state) {
    case "tooEarly":
      return {
        label: "Too early",
        color: "gray",
        text: `Too early to call: a test needs at least 7 days (day ${days} of 7).`,
      };
    case "tooFewVisitors":
      return {
        label: "Too few visitors",
        color: "gray",
        text: "Too few visitors so far to call a winner.",
      };
    case "running":
      return {
        label: "Running",
        color: "blue",
        text: "Running: no variant is ahead of the control beyond doubt yet.",
      };
    case "winner":
      return { label: "Winner", color: "green", text: "A winner is found: you can promote it." };
    case "inconclusive":
      return {
        label: "Inconclusive",
        color: "orange",
        text: "Inconclusive: no variant differs from the control beyond doubt after the maximum duration.",
      };
    case "closed":
      return {
        label: "Closed",
        color: "dark",
        text: "Closed: this test is over; its results stay readable here.",
      };
    default:
      return { label: state, color: "gray", text: state };
  }
}

/**
 * How long a test may run without a winner before it is called inconclusive, in whole days:
 * 30 unless the owner chooses, from 14 to 90 (no call is made before 7 days in any case).
 */
export const MAX_DAYS = { min: 14, max: 90, default: 30 } as const;

/** What is wrong with a maximum duration, in the server's words, or null. */
export function maxDaysError(days: number): string | null {
  return Number.isInteger(days) && days >= MAX_DAYS.min && days <= MAX_DAYS.max
    ? null
    : `The maximum duration is a whole number of days from ${MAX_DAYS.min} to ${MAX_DAYS.max}`;
}
