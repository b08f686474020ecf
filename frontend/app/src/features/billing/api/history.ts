import type { components } from "../../../api/schema";
import { isRealPayment } from "../../../lib/payment-status";

/** A payment as the history answers it: what the history screen filters, sums and exports. */
export type Payment = components["schemas"]["PaymentOut"];

export type StatusFilter = "all" | "success" | "failure" | "pending" | "refunded" | "expired";
export type DateFilter = "all" | "today" | "7d" | "30d" | "year";

export const STATUS_FILTERS: { value: StatusFilter; label: string }[] = [
  { value: "all", label: "All" },
  { value: "success", label: "Success" },
  { value: "failure", label: "Failed" },
  { value: "pending", label: "Pending" },
  { value: "refunded", label: "Refunded" },
  { value: "expired", label: "Not completed" },
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
export function filterPayments(payments: Payment[], filters: HistoryFilters, now: Date): Payment[] {
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
  /** Payments made: an abandoned checkout ("Not completed") is not one. */
  total: number;
  /** Rupees of the successful payments only. */
  amount: number;
  successful: number;
  failed: number;
}

/**
 * The four tiles: how many payments, the amount actually paid, and the success and failure
 * counts. Checkouts that were never completed are left out of every figure.
 */
export function summarize(payments: Payment[]): HistorySummary {
  let total = 0;
  let amount = 0;
  let successful = 0;
  let failed = 0;
  for (const p of payments) {
    if (!isRealPayment(p.status)) continue;
    total += 1;
    if (p.status === "success") {
      successful += 1;
      amount += p.amount;
    } else if (p.status === "failure") {
      failed += 1;
    }
  }
  return { total, amount: Math.round(amount * 100) / 100, successful, failed };
}

/** The newest payments first, at most `limit` of them; checkouts never completed are not shown. */
export function mostRecent(payments: Payment[], limit = RECENT_PAYMENTS): Payment[] {
  return payments
    .filter((p) => isRealPayment(p.status))
    .sort((a, b) => new Date(b.createdAt).getTime() - new Date(a.createdAt).getTime())
    .slice(0, limit);
}

/** Whether a payment has a tax invoice to open: a success, or a refund of one (with its credit note). */
export function hasInvoice(p: Pick<Payment, "status" | "invoiceNumber">): boolean {
  return p.status === "success" || (p.status === "refunded" && !!p.invoiceNumber);
}

/** How long after a successful payment the billing screen still thanks the owner for it. */
export const RECENT_PAYMENT_MS = 60 * 60 * 1000;

/**
 * Whether the owner has a payment that went through within the last hour, as the server's
 * history says: only then does `/settings/billing?success=true` say "Payment successful" (the
 * address alone proves nothing; anyone can type it).
 */
export function paidRecently(
  payments: Pick<Payment, "status" | "settledAt">[],
  now: Date,
): boolean {
  return payments.some((p) => {
    if (p.status !== "success" || !p.settledAt) return false;
    const age = now.getTime() - new Date(p.settledAt).getTime();
    return !Number.isNaN(age) && age <= RECENT_PAYMENT_MS;
  });
}
