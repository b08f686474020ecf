/** Paging of the admin user lists. */

/** Users per page on the admin lists. */
export const PAGE_SIZE = 10;

/** "Showing 11–20 of 42 users", or "No users" for an empty list. */
export function pageRange(page: number, limit: number, total: number): string {
  if (total <= 0) return "No users";
  const first = (page - 1) * limit + 1;
  const last = Math.min(page * limit, total);
  return `Showing ${first}–${last} of ${total.toLocaleString("en-IN")} users`;
}

/** The page to show after deleting one row: the one before when that row was the page's last. */
export function pageAfterDelete(page: number, rowsOnPage: number): number {
  return rowsOnPage <= 1 && page > 1 ? page - 1 : page;
}
