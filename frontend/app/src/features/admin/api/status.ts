/** How the admin screens word and colour a user's subscription and role. */

/** Statuses staff may set by hand: every status the product has. */
export const SETTABLE_STATUSES = [
  "free",
  "trial",
  "active",
  "cancelled",
  "past_due",
  "expired",
] as const;
export type SettableStatus = (typeof SETTABLE_STATUSES)[number];

/** What each status does to the owner, shown under the status field. */
export const STATUS_EFFECTS: Record<SettableStatus, string> = {
  free: "The free plan.",
  trial: "The trial's limits until the trial ends.",
  active: "The plan's limits until the end date. Nothing is charged and nothing renews.",
  cancelled:
    "The plan's limits until the end date (by default the end of the current period), then the free plan.",
  past_due: "A payment is due: the free plan's limits until the owner pays for the plan.",
  expired: "The plan has ended: the free plan's limits until the owner buys a plan.",
};

/** Statuses that keep the plan until an end date. */
export function hasEndDate(status: SettableStatus): boolean {
  return status === "active" || status === "cancelled";
}

/** "past_due" → "Past due". */
export function statusLabel(status: string): string {
  return capitalise(status.replace(/_/g, " "));
}

/** The user table's subscription filter, as the server takes it. */
export const STATUS_FILTERS = [
  "free",
  "trial",
  "active",
  "cancelled",
  "past_due",
  "expired",
] as const;
export const ROLES = ["user", "admin", "superuser"] as const;

const COLORS: Record<string, string> = {
  active: "green",
  cancelled: "yellow",
  expired: "red",
  trial: "blue",
  free: "gray",
  past_due: "orange",
};

/**
 * The status badge: an active subscription that ends at the period's end shows as cancelled;
 * the provider's spellings trialing and canceled read as trial and cancelled.
 */
export function statusBadge(user: { subscriptionStatus: string; cancelAtPeriodEnd?: boolean }): {
  label: string;
  color: string;
} {
  let label = user.subscriptionStatus;
  if (label === "trialing") label = "trial";
  if (label === "canceled") label = "cancelled";
  if (label === "active" && user.cancelAtPeriodEnd) label = "cancelled";
  return { label, color: COLORS[label] ?? "gray" };
}

// Plain users in gray 7: the outline's lighter default fell below 4.5:1 on a hovered row.
const ROLE_COLORS: Record<string, string> = { user: "gray.7", admin: "indigo", superuser: "grape" };

export function roleColor(role: string): string {
  return ROLE_COLORS[role] ?? "gray.7";
}

/** Capitalised for labels: "superuser" → "Superuser". */
export function capitalise(word: string): string {
  return word.charAt(0).toUpperCase() + word.slice(1);
}
