/**
 * The admin users table's state (search, filters, sign-up dates, order, page) as kept in the
 * address bar, so a reload or a shared link shows the same list.
 */
import { ROLES, STATUS_FILTERS } from "./status";

/** Columns the server sorts by, as the API names them. */
export const SORT_COLUMNS = [
  "name",
  "email",
  "role",
  "plan",
  "status",
  "createdAt",
  "lastLoginAt",
] as const;
export type SortColumn = (typeof SORT_COLUMNS)[number];
export type SortOrder = "asc" | "desc";

export interface UserListState {
  search: string;
  role: string | null;
  status: string | null;
  /** A plan id, or null for any plan. */
  plan: string | null;
  /** Signed up from this day, YYYY-MM-DD, or empty. */
  from: string;
  /** Signed up up to this day (included), YYYY-MM-DD, or empty. */
  to: string;
  sort: SortColumn;
  order: SortOrder;
  page: number;
}

/** Dates newest first, everything else A to Z (as the server orders by default). */
export function defaultOrder(column: SortColumn): SortOrder {
  return column === "createdAt" || column === "lastLoginAt" ? "desc" : "asc";
}

export const DEFAULT_LIST: UserListState = {
  search: "",
  role: null,
  status: null,
  plan: null,
  from: "",
  to: "",
  sort: "createdAt",
  order: "desc",
  page: 1,
};

const DAY = /^\d{4}-\d{2}-\d{2}$/;
const PLAN_ID = /^[a-z0-9][a-z0-9_-]{0,63}$/;

function isDay(v: string): boolean {
  if (!DAY.test(v)) return false;
  const d = new Date(`${v}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === v;
}

function oneOf<T extends string>(values: readonly T[], v: string | null): T | null {
  return v !== null && (values as readonly string[]).includes(v) ? (v as T) : null;
}

/**
 * The state a URL's query holds. Anything malformed reads as no filter (a hand-edited link never
 * breaks the page); a range whose end is before its start keeps only its start.
 */
export function listFromParams(params: URLSearchParams): UserListState {
  const text = (key: string) => params.get(key)?.trim() ?? "";
  const sort = oneOf(SORT_COLUMNS, text("sort")) ?? DEFAULT_LIST.sort;
  const order = oneOf(["asc", "desc"] as const, text("order")) ?? defaultOrder(sort);
  const from = isDay(text("from")) ? text("from") : "";
  let to = isDay(text("to")) ? text("to") : "";
  if (from && to && to < from) to = "";
  const page = Number(text("page"));
  const plan = text("plan");
  return {
    search: text("search").slice(0, 100),
    role: oneOf(ROLES, text("role")),
    status: oneOf(STATUS_FILTERS, text("status")),
    plan: PLAN_ID.test(plan) ? plan : null,
    from,
    to,
    sort,
    order,
    page: Number.isInteger(page) && page > 1 && page <= 1_000_000 ? page : 1,
  };
}

/** The query string of `s`, leaving out what is empty or the default. */
export function paramsFromList(s: UserListState): URLSearchParams {
  const params = new URLSearchParams();
  if (s.search.trim()) params.set("search", s.search.trim());
  if (s.role) params.set("role", s.role);
  if (s.status) params.set("status", s.status);
  if (s.plan) params.set("plan", s.plan);
  if (s.from) params.set("from", s.from);
  if (s.to) params.set("to", s.to);
  if (s.sort !== DEFAULT_LIST.sort || s.order !== defaultOrder(s.sort)) {
    params.set("sort", s.sort);
    params.set("order", s.order);
  }
  if (s.page > 1) params.set("page", String(s.page));
  return params;
}

/** A click on a column's header: the column in its natural order, or the other way round. */
export function toggleSort(s: UserListState, column: SortColumn): UserListState {
  const order: SortOrder =
    s.sort === column ? (s.order === "asc" ? "desc" : "asc") : defaultOrder(column);
  return { ...s, sort: column, order, page: 1 };
}

/** Whether any filter (not the order or page) is set. */
export function isFiltered(s: UserListState): boolean {
  return Boolean(s.search.trim() || s.role || s.status || s.plan || s.from || s.to);
}

/** The filters and order as the list and export calls take them; empty ones are left out. */
export function listQuery(s: UserListState) {
  return {
    search: s.search.trim() || undefined,
    role: s.role ?? undefined,
    subscriptionStatus: s.status ?? undefined,
    planId: s.plan ?? undefined,
    from: s.from || undefined,
    to: s.to || undefined,
    sort: s.sort,
    order: s.order,
  };
}

/** The header's `aria-sort` for `column`. */
export function ariaSort(
  s: UserListState,
  column: SortColumn,
): "ascending" | "descending" | "none" {
  if (s.sort !== column) return "none";
  return s.order === "asc" ? "ascending" : "descending";
}

/** The ids selected on the page after a click on "select all on this page". */
export function toggleAll(selected: ReadonlySet<string>, pageIds: string[]): Set<string> {
  const next = new Set(selected);
  const all = pageIds.length > 0 && pageIds.every((id) => next.has(id));
  for (const id of pageIds) {
    if (all) next.delete(id);
    else next.add(id);
  }
  return next;
}
