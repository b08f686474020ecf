import { formatDate } from "../../../lib/format";
import type { SortBy } from "../api/customer-sort";
import type { Status } from "../api/customer-status";

/** What the Customers screen shows and how it words and colours it. */

/** Placeholder rows while the list loads. */
export const SKELETON_ROWS = 5;
/** Shown in place of the metric cards when the overview fails to load. */
export const OVERVIEW_ERROR = "Failed to load the customer overview. Please try again.";

/** The three sort buttons, in order. */
export const SORTS: { label: string; by: SortBy }[] = [
  { label: "Last Active", by: "lastConversationDate" },
  { label: "Lead Score", by: "leadScore" },
  { label: "Conversations", by: "totalConversations" },
];

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

/** The badge colour of each conversion status. */
export const STATUS_COLORS: Record<Status, string> = {
  lead: "blue",
  prospect: "yellow",
  customer: "green",
  churned: "gray",
};

/** A status as shown: its first letter capitalised. */
export function statusLabel(status: string): string {
  return status.charAt(0).toUpperCase() + status.slice(1);
}

function sameDay(a: Date, b: Date): boolean {
  return (
    a.getFullYear() === b.getFullYear() &&
    a.getMonth() === b.getMonth() &&
    a.getDate() === b.getDate()
  );
}

/** A time of day on the 24-hour clock, e.g. 09:12 or 14:05. */
function timeOfDay(d: Date): string {
  return `${String(d.getHours()).padStart(2, "0")}:${String(d.getMinutes()).padStart(2, "0")}`;
}

/**
 * "Last Active" as shown: with the time of day for today and yesterday ("Today, 14:05",
 * "Yesterday, 09:12"), the date before that ("25 Nov 2026"); empty when never active.
 */
export function formatLastActive(iso: string | null | undefined, now: Date = new Date()): string {
  if (!iso) return "";
  const at = new Date(iso);
  if (Number.isNaN(at.getTime())) return "";
  if (sameDay(at, now)) return `Today, ${timeOfDay(at)}`;
  const yesterday = new Date(now);
  yesterday.setDate(now.getDate() - 1);
  if (sameDay(at, yesterday)) return `Yesterday, ${timeOfDay(at)}`;
  return formatDate(iso);
}

/** A phone number as a `tel:` link: only its digits, with the leading `+` when there is one. */
export function telHref(phone: string): string {
  const trimmed = phone.trim();
  return `tel:${trimmed.startsWith("+") ? "+" : ""}${trimmed.replace(/\D/g, "")}`;
}

/** The conversations screen showing only this customer's conversations (found by their email). */
export function conversationsOf(email: string): string {
  return `/conversations?search=${encodeURIComponent(email)}`;
}
