import { describe, expect, it } from "vitest";
import {
  auditAction,
  auditChanges,
  auditDetails,
  formatPrice,
  ownersOnPlanText,
  perInterval,
} from "./display";

describe("display", () => {
  it("formats prices per currency without decimals", () => {
    expect(formatPrice(2999, "INR")).toBe("₹2,999");
    expect(formatPrice(100000, "INR")).toBe("₹1,00,000");
    expect(formatPrice(49, "USD")).toMatch(/\$49$/);
    expect(formatPrice(10, "rupees")).toBe("10 rupees");
  });
  it("names the interval", () => {
    expect(perInterval("monthly")).toBe("/month");
    expect(perInterval("yearly")).toBe("/year");
  });
  it("lists an audit entry's changed fields", () => {
    expect(
      auditChanges(
        { planId: "free", subscriptionStatus: "free", name: "A" },
        { planId: "basic", subscriptionStatus: "active", name: "A" },
      ),
    ).toEqual(["planId: free → basic", "subscriptionStatus: free → active"]);
    expect(auditChanges(null, { role: "admin" })).toEqual(["role: — → admin"]);
    expect(auditChanges(null, null)).toEqual([]);
    expect(auditChanges({ endsAt: null }, { endsAt: "2027-01-22T23:59:59Z" })).toEqual([
      "endsAt: — → 22 Jan 2027",
    ]);
    expect(auditAction("change_plan")).toBe("change plan");
  });

  it("says who is on a plan being deactivated", () => {
    expect(ownersOnPlanText(3)).toBe(
      "3 owners are on this plan; they keep it until their period ends.",
    );
    expect(ownersOnPlanText(1)).toBe(
      "1 owner is on this plan; they keep it until their period ends.",
    );
    expect(ownersOnPlanText(0)).toBe("No owners are on this plan.");
  });
});

describe("auditDetails", () => {
  it("shows a write made while signed in as the account as its request, not as field changes", () => {
    expect(
      auditDetails({
        action: "request_as_user",
        before: null,
        after: null,
        request: { method: "POST", path: "/api/campaigns" },
      }),
    ).toEqual(["POST /api/campaigns"]);
  });

  it("shows a refusal with its reason", () => {
    expect(
      auditDetails({
        action: "delete_user_refused",
        after: { refused: "superuser_required", reason: "Only a superuser can do this" },
      }),
    ).toEqual(["Refused: Only a superuser can do this"]);
  });

  it("shows only the fields a change changed", () => {
    expect(
      auditDetails({
        action: "update_user",
        before: { name: "Asha", role: "user" },
        after: { name: "Meera", role: "user" },
        request: null,
      }),
    ).toEqual(["name: Asha → Meera"]);
  });
});

describe("auditChanges of a created record", () => {
  it("leaves out fields empty before and after", () => {
    expect(auditChanges(null, { name: "Kabir", subscriptionEndsAt: null })).toEqual([
      "name: — → Kabir",
    ]);
  });
});
