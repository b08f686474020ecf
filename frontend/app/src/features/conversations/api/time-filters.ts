/** The conversation list's time filters; they apply on the client to the conversations loaded. */
export const TIME_FILTERS = ["All", "Today", "7 Days", "30 Days"] as const;
export type TimeFilter = (typeof TIME_FILTERS)[number];

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
