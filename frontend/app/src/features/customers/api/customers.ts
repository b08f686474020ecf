import { $api, client } from "../../../lib/api-client";
import type { Sort } from "./customer-sort";
import type { Status } from "./customer-status";

/** Customers per page of the list. */
export const PAGE_SIZE = 20;
/** The customer analytics period on the Customers screen. */
export const OVERVIEW_PERIOD = "30d";

/** The figures over the list: totals, change against the previous period, status shares. */
export function useCustomerOverview() {
  return $api.useQuery("get", "/api/customers/analytics/overview", {
    params: { query: { period: OVERVIEW_PERIOD } },
  });
}

export interface CustomerFilters {
  page: number;
  /** Already trimmed; empty for no search. */
  search: string;
  /** A status, or "all". */
  status: string;
  sort: Sort;
}

/** One page of the owner's customers, searched, filtered and sorted on the server. */
export function useCustomers(f: CustomerFilters) {
  return $api.useQuery("get", "/api/customers/user", {
    params: {
      query: {
        page: f.page,
        limit: PAGE_SIZE,
        search: f.search || undefined,
        status: f.status === "all" ? undefined : (f.status as Status),
        sortBy: f.sort.by,
        sortOrder: f.sort.order,
      },
    },
  });
}

/** Every customer as CSV, for the Export CSV button. */
export async function fetchCustomersCsv(): Promise<Blob> {
  const { data, error } = await client.GET("/api/customers/export/data", {
    params: { query: { format: "csv" } },
    parseAs: "blob",
  });
  if (error || !data) throw error ?? new Error("empty export");
  return data;
}

/** One customer by id (a notification's link names one); off while `id` is null. */
export function useCustomer(id: string | null) {
  return $api.useQuery(
    "get",
    "/api/customers/{id}",
    { params: { path: { id: id ?? "" } } },
    { enabled: id !== null, retry: false },
  );
}
