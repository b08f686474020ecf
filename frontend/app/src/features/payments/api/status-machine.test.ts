import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import {
  afterAnswer,
  FAILED,
  initialStatus,
  MISSING_TXNID,
  pollPaymentStatus,
  type StatusAnswer,
  type StatusState,
} from "./status-machine";

const pending: StatusAnswer = { kind: "status", status: "pending" };
const paid: StatusAnswer = { kind: "status", status: "success", amount: 999, mihpayid: "M1" };

describe("payment status page states", () => {
  it("starts with an error without a txnid, failed with an error query, else checking", () => {
    expect(initialStatus(null, null)).toEqual({ kind: "error", message: MISSING_TXNID });
    expect(initialStatus("", "x")).toEqual({ kind: "error", message: MISSING_TXNID });
    expect(initialStatus("T1", "Card declined")).toEqual({
      kind: "failed",
      message: "Card declined",
    });
    expect(initialStatus("T1", null)).toEqual({ kind: "checking" });
  });

  it("reads each answer", () => {
    expect(afterAnswer(paid)).toEqual({ kind: "success", amount: 999, mihpayid: "M1" });
    expect(afterAnswer({ kind: "status", status: "failure" })).toEqual({
      kind: "failed",
      message: FAILED,
    });
    expect(afterAnswer(pending)).toEqual({ kind: "checking" });
    expect(afterAnswer({ kind: "unavailable" })).toEqual({ kind: "checking" });
    expect(afterAnswer({ kind: "not-found" })).toEqual({ kind: "error", message: MISSING_TXNID });
    expect(afterAnswer({ kind: "signed-out" })).toMatchObject({ kind: "error", signIn: true });
  });
});

describe("polling", () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it("asks at once, then every 3 s, and stops at the decision", async () => {
    const answers = [pending, pending, paid];
    const fetchStatus = vi.fn(async () => answers.shift() ?? pending);
    const states: StatusState[] = [];
    pollPaymentStatus({ txnid: "T1", fetchStatus, onChange: (s) => states.push(s) });

    await vi.advanceTimersByTimeAsync(0);
    expect(fetchStatus).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(2999);
    expect(fetchStatus).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(fetchStatus).toHaveBeenCalledTimes(2);
    expect(states).toEqual([]);
    await vi.advanceTimersByTimeAsync(3000);
    expect(fetchStatus).toHaveBeenCalledTimes(3);
    expect(states).toEqual([{ kind: "success", amount: 999, mihpayid: "M1" }]);

    await vi.advanceTimersByTimeAsync(60_000);
    expect(fetchStatus).toHaveBeenCalledTimes(3);
    expect(states).toHaveLength(1);
  });

  it("reports a failure", async () => {
    const states: StatusState[] = [];
    pollPaymentStatus({
      txnid: "T1",
      fetchStatus: async () => ({ kind: "status", status: "failure" }),
      onChange: (s) => states.push(s),
    });
    await vi.advanceTimersByTimeAsync(0);
    expect(states).toEqual([{ kind: "failed", message: FAILED }]);
  });

  it("keeps asking through failed calls and gives up after 30 s", async () => {
    let calls = 0;
    const fetchStatus = vi.fn(async (): Promise<StatusAnswer> => {
      calls += 1;
      if (calls % 2 === 0) throw new Error("network");
      return pending;
    });
    const states: StatusState[] = [];
    pollPaymentStatus({ txnid: "T9", fetchStatus, onChange: (s) => states.push(s) });
    await vi.advanceTimersByTimeAsync(29_999);
    expect(states).toEqual([]);
    expect(fetchStatus).toHaveBeenCalledTimes(10); // at 0, 3, …, 27 s
    await vi.advanceTimersByTimeAsync(1);
    expect(states).toEqual([
      {
        kind: "error",
        message: "Payment verification timeout. Please contact support with transaction ID: T9",
      },
    ]);
    await vi.advanceTimersByTimeAsync(30_000);
    expect(fetchStatus).toHaveBeenCalledTimes(10);
  });

  it("stops when the page goes away and ignores a late answer", async () => {
    let resolve: (a: StatusAnswer) => void = () => {};
    const states: StatusState[] = [];
    const stop = pollPaymentStatus({
      txnid: "T1",
      fetchStatus: () => new Promise<StatusAnswer>((r) => (resolve = r)),
      onChange: (s) => states.push(s),
    });
    stop();
    resolve(paid);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(states).toEqual([]);
  });
});
