import type { Payment } from "./history";

export const CSV_COLUMNS = [
  "Transaction ID",
  "Date",
  "Amount",
  "Description",
  "Status",
  "Payment Mode",
] as const;

/**
 * One CSV cell. A cell a spreadsheet would run as a formula (starting with = + - @, or a tab or
 * carriage return) gets a leading apostrophe; cells with a comma, quote or line break are quoted.
 */
export function csvCell(value: string): string {
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

/** A local calendar date as YYYY-MM-DD. */
export function localIsoDate(d: Date): string {
  const pad = (n: number) => String(n).padStart(2, "0");
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
}

/** The export of the listed payments: a header row, then one row per payment (CRLF lines). */
export function historyCsv(payments: Payment[]): string {
  const rows = payments.map((p) => [
    p.txnid,
    localIsoDate(new Date(p.createdAt)),
    String(p.amount),
    p.productinfo,
    p.status,
    p.paymentMode || "N/A",
  ]);
  return [[...CSV_COLUMNS], ...rows].map((row) => row.map(csvCell).join(",")).join("\r\n") + "\r\n";
}

/** The export's file name, dated the day it is made. */
export function historyCsvName(now: Date): string {
  return `payment-history-${localIsoDate(now)}.csv`;
}
