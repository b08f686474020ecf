/** Pure rules of the Conversations screen (seed 001 §2, §9). */

export const LIST_LIMIT = 10;
export const MESSAGE_PAGE = 20;
export const OLDER_DELAY_MS = 500;
export const LOAD_OLDER_BELOW = 100;
export const SCROLL_TOP_AFTER = 300;
export const PREVIEW_CHARS = 80;

export const TIME_FILTERS = ["All", "Today", "7 Days", "30 Days"] as const;
export type TimeFilter = (typeof TIME_FILTERS)[number];

/** Converted / Dismissed by outcome, else Active / Completed by status. */
export function badgeOf(c: { outcome: string; status: string }): { label: string; color: string } {
  if (c.outcome === "conversion") return { label: "Converted", color: "green" };
  if (c.outcome === "dismissal") return { label: "Dismissed", color: "red" };
  if (c.status === "active") return { label: "Active", color: "blue" };
  return { label: "Completed", color: "gray" };
}

/** The last message cut at 80 characters. */
export function preview(text: string): string {
  const chars = Array.from(text);
  return chars.length > PREVIEW_CHARS ? `${chars.slice(0, PREVIEW_CHARS).join("")}…` : text;
}

/** Whether a conversation started at `iso` falls in the time filter (on the client). */
export function inTimeFilter(iso: string, filter: TimeFilter, now: Date = new Date()): boolean {
  if (filter === "All") return true;
  const at = new Date(iso);
  if (filter === "Today") {
    return (
      at.getFullYear() === now.getFullYear() &&
      at.getMonth() === now.getMonth() &&
      at.getDate() === now.getDate()
    );
  }
  const days = filter === "7 Days" ? 7 : 30;
  return now.getTime() - at.getTime() <= days * 24 * 60 * 60 * 1000;
}
