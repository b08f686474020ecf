/** The Business tab's rules: the churn target, and figures the server could not compute. */

/**
 * The two subscription figures, named apart: accounts on a paid plan now (staff may set one by
 * hand, without a payment), and the paying subscriptions behind the MRR.
 */
export const ON_PAID_PLAN = { label: "On a Paid Plan", note: "incl. set by staff" } as const;

/** The MRR card's note: how many paying subscriptions it comes from. */
export function payingSubscriptionsText(n: number): string {
  return `${n.toLocaleString("en-IN")} paying subscription${n === 1 ? "" : "s"}`;
}

/** Monthly churn should stay below this percentage. */
export const CHURN_TARGET_PERCENT = 5;

export function churnOnTarget(churnRate: number): boolean {
  return churnRate < CHURN_TARGET_PERCENT;
}

/** A percentage with one decimal, or an em dash when the server has none. */
export function percentText(value: number | null | undefined): string {
  return value === null || value === undefined ? "—" : `${value.toFixed(1)}%`;
}

/** "2026-03" → "Mar 2026" (short: "Mar"). */
export function monthLabel(month: string, short = false): string {
  const [y, m] = month.split("-").map(Number);
  if (!y || !m) return month;
  const d = new Date(Date.UTC(y, m - 1, 1));
  return new Intl.DateTimeFormat("en-IN", {
    month: "short",
    ...(short ? {} : { year: "numeric" }),
    timeZone: "UTC",
  }).format(d);
}

/** An ad spend as typed: a whole or decimal number of rupees, at least 0; null when not. */
export function parseAdSpend(input: string): number | null {
  const text = input.trim().replace(/,/g, "");
  if (!/^\d+(\.\d{1,2})?$/.test(text)) return null;
  return Number(text);
}
