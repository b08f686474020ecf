import { describe, expect, it } from "vitest";
import { csvCell, historyCsv, historyCsvName, localIsoDate } from "./history-csv";
import {
  dateFloor,
  filterPayments,
  hasInvoice,
  mostRecent,
  paidRecently,
  summarize,
  type Payment,
} from "./history";

const now = new Date(2026, 10, 25, 15, 30); // 25 Nov 2026, 15:30 local time
const daysAgo = (days: number, hour = 12) => {
  const d = new Date(2026, 10, 25 - days, hour);
  return d.toISOString();
};

/** A payment with the fields these tests do not look at filled in. */
const payment = (
  p: Pick<Payment, "txnid" | "productinfo" | "amount" | "status" | "createdAt"> & Partial<Payment>,
): Payment => ({
  _id: p.txnid,
  cycle: "monthly",
  email: "owner@example.com",
  firstname: "Owner",
  phone: "+91 9876543210",
  planId: "basic",
  provider: "simulator",
  ...p,
});

const payments: Payment[] = [
  payment({
    txnid: "CA1AAA",
    productinfo: "Basic Plan - Monthly",
    amount: 999,
    status: "success",
    paymentMode: "CC",
    createdAt: daysAgo(0, 9),
  }),
  payment({
    txnid: "CA2BBB",
    productinfo: "Basic Plan - Annual",
    amount: 9990,
    status: "failure",
    paymentMode: null,
    createdAt: daysAgo(3),
  }),
  payment({
    txnid: "CA3CCC",
    productinfo: "Beta Plan - Monthly",
    amount: 5000,
    status: "pending",
    createdAt: daysAgo(20),
  }),
  payment({
    txnid: "CA4DDD",
    productinfo: "Basic Plan - Monthly",
    amount: 999.5,
    status: "success",
    paymentMode: "UPI",
    createdAt: daysAgo(200),
  }),
  payment({
    txnid: "CA5EEE",
    productinfo: "Basic Plan - Monthly",
    amount: 999,
    status: "success",
    paymentMode: "NB",
    createdAt: daysAgo(400),
  }),
];

const all = { search: "", status: "all", date: "all" } as const;
const ids = (rows: Payment[]) => rows.map((p) => p.txnid);

describe("payment history filters", () => {
  it("searches the transaction id or the description, in any case", () => {
    expect(ids(filterPayments(payments, { ...all, search: "ca2b" }, now))).toEqual(["CA2BBB"]);
    expect(ids(filterPayments(payments, { ...all, search: "  ANNUAL " }, now))).toEqual(["CA2BBB"]);
    expect(ids(filterPayments(payments, { ...all, search: "beta" }, now))).toEqual(["CA3CCC"]);
    expect(filterPayments(payments, { ...all, search: "nothing" }, now)).toEqual([]);
  });

  it("filters by status; Failed means failure", () => {
    expect(ids(filterPayments(payments, { ...all, status: "failure" }, now))).toEqual(["CA2BBB"]);
    expect(ids(filterPayments(payments, { ...all, status: "pending" }, now))).toEqual(["CA3CCC"]);
    expect(filterPayments(payments, { ...all, status: "success" }, now)).toHaveLength(3);
  });

  it("filters by date: today, 7 days, 30 days, a year", () => {
    expect(ids(filterPayments(payments, { ...all, date: "today" }, now))).toEqual(["CA1AAA"]);
    expect(ids(filterPayments(payments, { ...all, date: "7d" }, now))).toEqual([
      "CA1AAA",
      "CA2BBB",
    ]);
    expect(filterPayments(payments, { ...all, date: "30d" }, now)).toHaveLength(3);
    expect(filterPayments(payments, { ...all, date: "year" }, now)).toHaveLength(4);
    expect(filterPayments(payments, all, now)).toHaveLength(5);
    expect(dateFloor("today", now)?.getHours()).toBe(0);
  });

  it("combines the filters", () => {
    expect(
      ids(filterPayments(payments, { search: "basic", status: "success", date: "year" }, now)),
    ).toEqual(["CA1AAA", "CA4DDD"]);
  });

  it("sums only successful payments into the amount tile", () => {
    expect(summarize(payments)).toEqual({ total: 5, amount: 2997.5, successful: 3, failed: 1 });
    expect(summarize([])).toEqual({ total: 0, amount: 0, successful: 0, failed: 0 });
  });

  it("leaves checkouts never completed out of every total, and counts refunds as no income", () => {
    const more = [
      ...payments,
      payment({
        txnid: "CA6FFF",
        productinfo: "Basic Plan - Monthly",
        amount: 999,
        status: "expired",
        errorMessage: "Not completed: no payment arrived within 30 minutes",
        createdAt: daysAgo(1),
      }),
      payment({
        txnid: "CA7GGG",
        productinfo: "Basic Plan - Monthly",
        amount: 999,
        status: "refunded",
        createdAt: daysAgo(2),
      }),
    ];
    expect(summarize(more)).toEqual({ total: 6, amount: 2997.5, successful: 3, failed: 1 });
    expect(ids(filterPayments(more, { ...all, status: "expired" }, now))).toEqual(["CA6FFF"]);
    expect(ids(filterPayments(more, { ...all, status: "refunded" }, now))).toEqual(["CA7GGG"]);
    // Recent Transactions shows real payments only.
    expect(ids(mostRecent(more))).toEqual(["CA1AAA", "CA7GGG", "CA2BBB", "CA3CCC", "CA4DDD"]);
  });

  it("previews the five newest", () => {
    const shuffled = [payments[3]!, payments[0]!, payments[4]!, payments[2]!, payments[1]!];
    expect(
      ids(mostRecent([...shuffled, { ...payments[0]!, txnid: "OLD", createdAt: daysAgo(900) }])),
    ).toEqual(["CA1AAA", "CA2BBB", "CA3CCC", "CA4DDD", "CA5EEE"]);
  });
});

describe("payment history CSV", () => {
  it("makes formula-like cells inert and quotes what needs it", () => {
    expect(csvCell('=HYPERLINK("x")')).toBe(`"'=HYPERLINK(""x"")"`);
    expect(csvCell("+91 99")).toBe("'+91 99");
    expect(csvCell("-5")).toBe("'-5");
    expect(csvCell("@SUM(A1)")).toBe("'@SUM(A1)");
    expect(csvCell("Basic, Monthly")).toBe('"Basic, Monthly"');
    expect(csvCell("line\nbreak")).toBe('"line\nbreak"');
    expect(csvCell("plain")).toBe("plain");
  });

  it("has the six columns, N/A for a missing payment mode, and one row per payment", () => {
    const csv = historyCsv([
      payments[0]!,
      payments[1]!,
      { ...payments[2]!, productinfo: "=cmd|' /C calc'!A0" },
    ]);
    const lines = csv.split("\r\n");
    expect(lines[0]).toBe("Transaction ID,Date,Amount,Description,Status,Payment Mode");
    expect(lines[1]).toBe(`CA1AAA,${localIsoDate(now)},999,Basic Plan - Monthly,success,CC`);
    expect(lines[2]).toMatch(/^CA2BBB,2026-11-22,9990,Basic Plan - Annual,failure,N\/A$/);
    expect(lines[3]).toBe("CA3CCC,2026-11-05,5000,'=cmd|' /C calc'!A0,pending,N/A");
    expect(lines).toHaveLength(5);
    expect(lines[4]).toBe("");
  });

  it("names the file after today's date", () => {
    expect(historyCsvName(now)).toBe("payment-history-2026-11-25.csv");
    expect(localIsoDate(new Date(2026, 0, 5))).toBe("2026-01-05");
  });
});

describe("invoices in the history", () => {
  it("opens the invoice of a success and of a refunded payment", () => {
    expect(hasInvoice({ status: "success", invoiceNumber: "CA-000001" })).toBe(true);
    expect(hasInvoice({ status: "refunded", invoiceNumber: "CA-000001" })).toBe(true);
    expect(hasInvoice({ status: "refunded", invoiceNumber: null })).toBe(false);
    expect(hasInvoice({ status: "failure", invoiceNumber: null })).toBe(false);
    expect(hasInvoice({ status: "pending" })).toBe(false);
  });
});

describe("paidRecently", () => {
  const now = new Date("2026-11-26T12:00:00Z");
  const at = (status: Payment["status"], settledAt: string | null) => ({ status, settledAt });
  it("is true only for a success the server settled within the last hour", () => {
    expect(paidRecently([at("success", "2026-11-26T11:05:00Z")], now)).toBe(true);
    expect(paidRecently([at("success", "2026-11-26T11:00:00Z")], now)).toBe(true);
    expect(paidRecently([at("success", "2026-11-26T10:59:00Z")], now)).toBe(false);
    expect(paidRecently([at("failure", "2026-11-26T11:55:00Z")], now)).toBe(false);
    expect(paidRecently([at("pending", null)], now)).toBe(false);
    expect(paidRecently([at("success", null)], now)).toBe(false);
    expect(paidRecently([], now)).toBe(false);
    expect(
      paidRecently(
        [at("failure", "2026-11-26T11:59:00Z"), at("success", "2026-11-26T11:30:00Z")],
        now,
      ),
    ).toBe(true);
  });
});
