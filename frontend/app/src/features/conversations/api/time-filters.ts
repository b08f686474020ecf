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

/** What the list says when conversations were loaded but none falls in the time filter. */
export function emptyFilterText(filter: TimeFilter): string {
  switch (filter) {
    case "Today":
      return "No conversations started today.";
    case "7 Days":
      return "No conversations started in the last 7 days.";
    case "30 Days":
      return "No conversations started in the last 30 days.";
    default:
      return "No conversations yet.";
  }
}

/**
 * Whether loading more could add to the filtered list. The list comes newest first by when each
 * conversation started, so once a loaded one is older than the filter, every later one is too.
 */
export function moreCanMatch(
  loaded: readonly { createdAt: string }[],
  filter: TimeFilter,
  now: Date = new Date(),
): boolean {
  const last = loaded[loaded.length - 1];
  return last === undefined || inTimeFilter(last.createdAt, filter, now);
}
