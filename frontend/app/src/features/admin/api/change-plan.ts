import { hasEndDate, type SettableStatus } from "./status";

/** The change-plan and create-user forms' subscription part. */
export interface SubscriptionChoice {
  planId: string;
  subscriptionStatus: SettableStatus;
  /** A date as the date field gives it, YYYY-MM-DD; used only when active or cancelled. */
  endDate: string;
}

/** The end of that day in the admin's time zone, as RFC 3339; null for no or a broken date. */
export function endOfDayIso(date: string): string | null {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(date)) return null;
  const d = new Date(`${date}T23:59:59`);
  return Number.isNaN(d.getTime()) ? null : d.toISOString();
}

/** The date field's value `days` after `now`. */
export function dateAfter(now: Date, days: number): string {
  const d = new Date(now.getFullYear(), now.getMonth(), now.getDate() + days);
  const mm = String(d.getMonth() + 1).padStart(2, "0");
  const dd = String(d.getDate()).padStart(2, "0");
  return `${d.getFullYear()}-${mm}-${dd}`;
}

/**
 * Why the choice cannot be sent, or null: an active subscription needs an end date in the future;
 * a cancelled one may leave it out (the current period's end), but a date given must be ahead.
 */
export function subscriptionChoiceError(choice: SubscriptionChoice, now: Date): string | null {
  if (choice.planId === "") return "Choose a plan";
  if (!hasEndDate(choice.subscriptionStatus)) return null;
  if (choice.subscriptionStatus === "cancelled" && choice.endDate === "") return null;
  const iso = endOfDayIso(choice.endDate);
  if (!iso) return "Choose the date the subscription ends";
  if (new Date(iso).getTime() <= now.getTime()) return "The end date must be in the future";
  return null;
}

/** The body fields: the end date goes only with an active or cancelled status. */
export function subscriptionFields(choice: SubscriptionChoice): {
  planId: string;
  subscriptionStatus: SettableStatus;
  subscriptionEndsAt?: string;
} {
  const fields = { planId: choice.planId, subscriptionStatus: choice.subscriptionStatus };
  if (!hasEndDate(choice.subscriptionStatus) || choice.endDate === "") return fields;
  return { ...fields, subscriptionEndsAt: endOfDayIso(choice.endDate) ?? undefined };
}
