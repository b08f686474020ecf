/** Pure rules of the Customers screen (seed 001 §2, §9). */

export const PAGE_SIZE = 20;
export const SKELETON_ROWS = 5;
/** The customer analytics period on this screen. */
export const OVERVIEW_PERIOD = "30d";

export const STATUSES = ["lead", "prospect", "customer", "churned"] as const;
export type Status = (typeof STATUSES)[number];

export type SortBy = "lastConversationDate" | "leadScore" | "totalConversations";
export type SortOrder = "asc" | "desc";

/** The three sort buttons, in order. */
export const SORTS: { label: string; by: SortBy }[] = [
  { label: "Last Active", by: "lastConversationDate" },
  { label: "Lead Score", by: "leadScore" },
  { label: "Conversations", by: "totalConversations" },
];

export interface Sort {
  by: SortBy;
  order: SortOrder;
}

export const DEFAULT_SORT: Sort = { by: "lastConversationDate", order: "desc" };

/** Clicking the active sort button flips its direction; another button starts descending. */
export function nextSort(current: Sort, clicked: SortBy): Sort {
  if (current.by === clicked) {
    return { by: clicked, order: current.order === "desc" ? "asc" : "desc" };
  }
  return { by: clicked, order: "desc" };
}

/** Session time as seconds, minutes, or hours and minutes. */
export function formatSessionTime(seconds: number): string {
  const s = Math.max(0, Math.round(seconds));
  if (s < 60) return `${s}s`;
  if (s < 3600) return `${Math.floor(s / 60)}m`;
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  return `${h}h ${m}m`;
}

/**
 * The small trend caption under a metric: the change from the period before.
 * `points` compares rates in percentage points instead of relative change.
 */
export function changeCaption(current: number, previous: number, points = false): string {
  if (points) {
    const diff = Math.round((current - previous) * 10) / 10;
    if (diff === 0) return "No change from last period";
    return `${diff > 0 ? "+" : ""}${diff.toFixed(1)} pts from last period`;
  }
  if (current === previous) return "No change from last period";
  if (previous === 0) return `+${current.toLocaleString("en-IN")} from last period`;
  const pct = Math.round(((current - previous) / previous) * 1000) / 10;
  return `${pct > 0 ? "+" : ""}${pct.toFixed(1)}% from last period`;
}

/** The trend's colour: up is good, down is bad, flat is neutral. */
export function changeColor(current: number, previous: number): string {
  if (current > previous) return "teal";
  if (current < previous) return "red";
  return "dimmed";
}

export const STATUS_COLORS: Record<Status, string> = {
  lead: "blue",
  prospect: "yellow",
  customer: "green",
  churned: "gray",
};

export function statusLabel(status: string): string {
  return status.charAt(0).toUpperCase() + status.slice(1);
}
