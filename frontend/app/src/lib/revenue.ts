import type { components } from "../api/schema";
import { formatInr } from "./format";

export type HeldOrders = components["schemas"]["HeldOrders"];

/** What the dashboard says wherever it shows a campaign's revenue. */
export const REPORTED_REVENUE = "Reported by your site (caTrack), not verified";

/** The bounds the server holds `settings.revenue.maxOrderValue` to, in rupees. */
export const MAX_ORDER_MIN = 1;
export const MAX_ORDER_MAX = 10_000_000;

/**
 * The "Largest order counted" field's error, with the server's rules (a whole number of rupees
 * from 1 to 1,00,00,000) and its wording; null when the value is fine. Blank is NaN.
 */
export function maxOrderError(value: number): string | null {
  if (!Number.isFinite(value)) return "Enter the largest order to count, in rupees";
  if (!Number.isInteger(value)) return "Largest order counted must be a whole number of rupees";
  if (value < MAX_ORDER_MIN)
    return `Largest order counted must be at least ${formatInr(MAX_ORDER_MIN)}`;
  if (value > MAX_ORDER_MAX)
    return `Largest order counted must be at most ${formatInr(MAX_ORDER_MAX)}`;
  return null;
}

/**
 * "2 orders (₹12,00,000) above your limit were not counted", or null when none were held.
 */
export function heldOrdersText(held: HeldOrders): string | null {
  if (held.orders <= 0) return null;
  const one = held.orders === 1;
  return `${held.orders.toLocaleString("en-IN")} order${one ? "" : "s"} (${formatInr(held.value)}) above your limit ${one ? "was" : "were"} not counted`;
}

/** Where the owner changes a campaign's largest order counted. */
export function maxOrderSettingPath(campaignId: string): string {
  return `/campaigns/${campaignId}/edit?tab=targeting&field=maxOrderValue`;
}
