import type { components } from "../api/schema";
import { $api } from "./api-client";

export type Usage = components["schemas"]["Usage"];

/** The owner's plan usage (campaigns and visitors against their limits). */
export function useUsage() {
  return $api.useQuery("get", "/api/billing/usage");
}

/**
 * Whether the app offers campaign creation (the wizard, the empty list's create button): always
 * on an active plan, otherwise only while below the campaign limit. The server still refuses a
 * create beyond the plan's limit.
 */
export function canCreate(usage: Usage): boolean {
  return usage.plan.status === "active" || usage.campaigns.current < usage.campaigns.limit;
}

/** How full a usage meter is, in words the bar's colour and hint follow. */
export type UsageLevel = "normal" | "near" | "full" | "over";

/** At this share of the limit a meter starts to say the limit is near. */
export const NEAR_LIMIT_PERCENT = 80;

/** The smallest width a bar with any usage at all is drawn at, so 38 of 10,000 still shows. */
export const MIN_VISIBLE_PERCENT = 2;

/** Share of a limit used, capped at 100 % so an over-limit bar stays full, not overflowing. */
export function usagePercent(current: number, limit: number): number {
  if (limit < 0) return 0;
  if (limit === 0) return current > 0 ? 100 : 0;
  return Math.min(100, (current / limit) * 100);
}

/**
 * One usage meter as shown: the level (a full plan is a state to act on, not an error), the
 * colour for it, and the bar's drawn width, never less than a sliver once anything is used.
 */
export function usageMeter(
  current: number,
  limit: number,
): { level: UsageLevel; color: string; percent: number; width: number } {
  const percent = usagePercent(current, limit);
  let level: UsageLevel = "normal";
  if (limit >= 0 && current > limit) level = "over";
  else if (limit >= 0 && current === limit && current > 0) level = "full";
  else if (percent >= NEAR_LIMIT_PERCENT) level = "near";
  // Plain shades, not the text-darkened "filled" ones: a bar is no text, and darkened amber is brown.
  const color = { normal: "indigo", near: "yellow.5", full: "yellow.6", over: "orange.6" }[level];
  const width = current > 0 ? Math.max(MIN_VISIBLE_PERCENT, percent) : 0;
  return { level, color, percent, width };
}
