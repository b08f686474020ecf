import { describe, expect, it } from "vitest";
import {
  checkoutModeBadge,
  isRealPayment,
  paymentReason,
  paymentStatusColor,
  paymentStatusLabel,
} from "./payment-status";

describe("payment statuses as people read them", () => {
  it("labels every status the server sends", () => {
    expect(paymentStatusLabel("success")).toBe("Success");
    expect(paymentStatusLabel("pending")).toBe("Pending");
    expect(paymentStatusLabel("failure")).toBe("Failed");
    expect(paymentStatusLabel("refunded")).toBe("Refunded");
    // An abandoned checkout is no failed charge.
    expect(paymentStatusLabel("expired")).toBe("Not completed");
    expect(paymentStatusColor("expired")).toBe("gray");
    expect(paymentStatusColor("failure")).toBe("red");
    expect(paymentStatusLabel("toString")).toBe("toString");
    expect(paymentStatusColor("toString")).toBe("gray");
  });

  it("keeps checkouts never completed out of the owner's payments", () => {
    expect(isRealPayment("expired")).toBe(false);
    for (const s of ["success", "pending", "failure", "refunded"])
      expect(isRealPayment(s)).toBe(true);
  });

  it("gives PayU's reason for a failure or an unfinished checkout, and nothing otherwise", () => {
    // userCancelled, dropped, bounced and autoRefund all arrive as a failure with PayU's reason.
    expect(paymentReason("failure", "Cancelled on PayU's page")).toBe("Cancelled on PayU's page");
    expect(paymentReason("failure", "Refunded automatically by PayU")).toBe(
      "Refunded automatically by PayU",
    );
    expect(paymentReason("expired", "Not completed: no payment arrived within 30 minutes")).toBe(
      "Not completed: no payment arrived within 30 minutes",
    );
    expect(paymentReason("failure", "   ")).toBeNull();
    expect(paymentReason("failure", null)).toBeNull();
    expect(paymentReason("success", "leftover")).toBeNull();
    expect(paymentReason("pending", "x")).toBeNull();
  });

  it("badges where a payment was made; only live is real money", () => {
    expect(checkoutModeBadge("live")).toEqual({ label: "Live", color: "teal" });
    expect(checkoutModeBadge("test").label).toBe("PayU test");
    expect(checkoutModeBadge("simulator").label).toBe("Simulator");
    expect(checkoutModeBadge("demo").label).toBe("Demo");
    expect(checkoutModeBadge("other")).toEqual({ label: "other", color: "gray" });
  });
});
