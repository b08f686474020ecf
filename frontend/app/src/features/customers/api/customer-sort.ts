/** The fields the customer list can be sorted by, as the server names them. */
export type SortBy = "lastConversationDate" | "leadScore" | "totalConversations";
export type SortOrder = "asc" | "desc";

export interface Sort {
  by: SortBy;
  order: SortOrder;
}

/** The list starts with the most recently active customers first. */
export const DEFAULT_SORT: Sort = { by: "lastConversationDate", order: "desc" };

/** Clicking the active sort button flips its direction; another button starts descending. */
export function nextSort(current: Sort, clicked: SortBy): Sort {
  if (current.by === clicked) {
    return { by: clicked, order: current.order === "desc" ? "asc" : "desc" };
  }
  return { by: clicked, order: "desc" };
}
