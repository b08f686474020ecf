import type { components } from "../../../api/schema";
import { formatDate } from "../../../lib/format";

type Visitors = components["schemas"]["UsageVisitors"];

/** At this share of the monthly visitors the dashboard starts warning. */
export const QUOTA_WARNING_PERCENT = 80;

export type QuotaLevel = "warning" | "grace" | "stopped";

export interface QuotaBanner {
  level: QuotaLevel;
  color: string;
  title: string;
  text: string;
}

const n = (v: number) => v.toLocaleString("en-IN");

/**
 * The dashboard's banner for the month's visitors, from the server's figures only: from 80 % of
 * the limit a warning; from the limit the grace (the popup keeps showing until `stopAt`); from
 * `stopAt` the popup has stopped until the month starts again. Nothing below 80 %, on an
 * unlimited plan, or on one without visitors.
 */
export function visitorQuotaBanner(v: Visitors): QuotaBanner | null {
  // Unlimited, or a plan that covers no visitors at all (the free plan: its own note says so).
  if (v.limit <= 0 || v.stopAt < 0) return null;
  const until = formatDate(v.resetDate);
  if (v.current >= v.stopAt) {
    return {
      level: "stopped",
      color: "red",
      title: "Your popup has stopped for this month",
      text: `${n(v.current)} visitors this month: your plan's ${n(v.limit)} and the grace up to ${n(v.stopAt)} are used up. Visitors no longer see your popup until ${until}. Upgrade your plan to show it again.`,
    };
  }
  if (v.current >= v.limit) {
    return {
      level: "grace",
      color: "orange",
      title: "You've reached this month's visitor limit",
      text: `${n(v.current)} of ${n(v.limit)} visitors this month. Your popup keeps showing for a grace period and stops at ${n(v.stopAt)} visitors, until ${until}. Upgrade your plan to keep it running.`,
    };
  }
  if (v.current * 100 >= v.limit * QUOTA_WARNING_PERCENT) {
    const percent = Math.floor((v.current * 100) / v.limit);
    return {
      level: "warning",
      color: "yellow",
      title: `You've used ${percent}% of this month's visitors`,
      text: `${n(v.current)} of ${n(v.limit)} visitors this month. Past ${n(v.limit)} your popup keeps showing until ${n(v.stopAt)} visitors, then stops until ${until}.`,
    };
  }
  return null;
}
