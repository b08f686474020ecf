/** The fields of a payment the history screen filters, sums and exports. */
export interface PaymentRow {
  txnid: string;
  productinfo: string;
  amount: number;
  status: string;
  paymentMode?: string | null;
  createdAt: string;
}

export type StatusFilter = "all" | "success" | "failure" | "pending";
export type DateFilter = "all" | "today" | "7d" | "30d" | "year";

export const STATUS_FILTERS: { value: StatusFilter; label: string }[] = [
  { value: "all", label: "All" },
  { value: "success", label: "Success" },
  { value: "failure", label: "Failed" },
  { value: "pending", label: "Pending" },
];

export const DATE_FILTERS: { value: DateFilter; label: string }[] = [
  { value: "all", label: "All time" },
  { value: "today", label: "Today" },
  { value: "7d", label: "Last 7 days" },
  { value: "30d", label: "Last 30 days" },
  { value: "year", label: "Last year" },
];

/** How many payments the billing page previews. */
export const RECENT_PAYMENTS = 5;

export interface HistoryFilters {
  search: string;
  status: StatusFilter;
  date: DateFilter;
}

/** The earliest moment a date filter keeps, or null for all time. "Today" starts at local midnight. */
export function dateFloor(filter: DateFilter, now: Date): Date | null {
  const d = new Date(now);
  switch (filter) {
    case "all":
      return null;
    case "today":
      d.setHours(0, 0, 0, 0);
      return d;
    case "7d":
      d.setDate(d.getDate() - 7);
      return d;
    case "30d":
      d.setDate(d.getDate() - 30);
      return d;
    case "year":
      d.setFullYear(d.getFullYear() - 1);
      return d;
  }
}

/** The payments a search (transaction id or description, any case), status and date filter keep. */
export function filterPayments<T extends PaymentRow>(
  payments: T[],
  filters: HistoryFilters,
  now: Date,
): T[] {
  const term = filters.search.trim().toLowerCase();
  const floor = dateFloor(filters.date, now)?.getTime() ?? null;
  return payments.filter((p) => {
    if (
      term &&
      !p.txnid.toLowerCase().includes(term) &&
      !p.productinfo.toLowerCase().includes(term)
    ) {
      return false;
    }
    if (filters.status !== "all" && p.status !== filters.status) return false;
    if (floor !== null && new Date(p.createdAt).getTime() < floor) return false;
    return true;
  });
}

export interface HistorySummary {
  total: number;
  /** Rupees of the successful payments only. */
  amount: number;
  successful: number;
  failed: number;
}

/** The four tiles: how many payments, the amount actually paid, and the success and failure counts. */
export function summarize(payments: PaymentRow[]): HistorySummary {
  let amount = 0;
  let successful = 0;
  let failed = 0;
  for (const p of payments) {
    if (p.status === "success") {
      successful += 1;
      amount += p.amount;
    } else if (p.status === "failure") {
      failed += 1;
    }
  }
  return { total: payments.length, amount: Math.round(amount * 100) / 100, successful, failed };
}

/** The newest payments first, at most `limit` of them. */
export function mostRecent<T extends PaymentRow>(payments: T[], limit = RECENT_PAYMENTS): T[] {
  return [...payments]
    .sort((a, b) => new Date(b.createdAt).getTime() - new Date(a.createdAt).getTime())
    .slice(0, limit);
}

/** What a status reads as in the table and the export. */
export function statusLabel(status: string): string {
  if (status === "success") return "Success";
  if (status === "failure") return "Failed";
  if (status === "pending") return "Pending";
  return status;
}
