import { describe, expect, it } from "vitest";
import {
  canRefund,
  refundConfirmation,
  refundConsequence,
  refundOutcome,
  refundProgress,
  type UserPayment,
} from "./payments";

const payment = (p: Partial<UserPayment>): UserPayment => ({
  _id: "p1",
  txnid: "CA1AAA",
  productinfo: "Basic Plan (Monthly)",
  amount: 999,
  createdAt: "2026-11-20T10:00:00Z",
  planId: "basic",
  mode: "simulator",
  status: "success",
  ...p,
});

describe("staff refunds", () => {
  it("offers a refund only for a payment that went through", () => {
    expect(canRefund(payment({ status: "success" }))).toBe(true);
    for (const status of ["pending", "failure", "expired", "refunded"] as const) {
      expect(canRefund(payment({ status }))).toBe(false);
    }
  });

  it("offers no second refund while PayU is making one, and another after PayU failed one", () => {
    const waiting = payment({ refundRequestedAt: "2026-11-21T10:00:00Z" });
    expect(canRefund(waiting)).toBe(false);
    expect(refundProgress(waiting)).toEqual({ kind: "waiting", since: "2026-11-21T10:00:00Z" });
    const failed = payment({ refundError: "PayU could not make the refund: Insufficient balance" });
    expect(canRefund(failed)).toBe(true);
    expect(refundProgress(failed)).toEqual({
      kind: "failed",
      reason: "PayU could not make the refund: Insufficient balance",
    });
    expect(refundProgress(payment({}))).toBeNull();
    expect(refundProgress(payment({ status: "refunded", refundError: "old" }))).toBeNull();
  });

  it("tells staff whether the refund is done or on its way", () => {
    expect(refundConfirmation(payment({ status: "refunded" }), "₹999")).toBe(
      "Refunded ₹999 for CA1AAA.",
    );
    expect(
      refundConfirmation(payment({ refundRequestedAt: "2026-11-21T10:00:00Z" }), "₹999"),
    ).toMatch(/^PayU accepted the refund of ₹999 for CA1AAA\. It shows as refunded once/);
  });

  it("says what a refund did to the owner's plan", () => {
    expect(refundOutcome(payment({ status: "success" }))).toBeNull();
    expect(refundOutcome(payment({ status: "refunded", refundKeepsAccess: true }))).toBe(
      "The owner kept the period it paid for.",
    );
    expect(refundOutcome(payment({ status: "refunded", refundKeepsAccess: false }))).toBe(
      "The unused part of its period ended.",
    );
    expect(refundOutcome(payment({ status: "refunded", refundKeepsAccess: null }))).toBe(
      "The unused part of its period ended.",
    );
  });

  it("says before confirming what Keep access changes", () => {
    expect(refundConsequence(true)).toMatch(/keeps the plan/);
    expect(refundConsequence(false)).toMatch(/ends now/);
  });
});
