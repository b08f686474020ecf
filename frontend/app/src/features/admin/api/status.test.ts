import { describe, expect, it } from "vitest";
import { statusBadge } from "./status";

describe("statusBadge", () => {
  it.each([
    ["active", false, "active", "green"],
    ["active", true, "cancelled", "yellow"],
    ["cancelled", false, "cancelled", "yellow"],
    ["canceled", false, "cancelled", "yellow"],
    ["expired", false, "expired", "red"],
    ["trial", false, "trial", "blue"],
    ["trialing", false, "trial", "blue"],
    ["free", false, "free", "gray"],
    ["past_due", false, "past_due", "orange"],
    ["something", false, "something", "gray"],
  ])("%s (cancel at period end %s) shows %s in %s", (status, cancel, label, color) => {
    expect(statusBadge({ subscriptionStatus: status, cancelAtPeriodEnd: cancel })).toEqual({
      label,
      color,
    });
  });

  it("only marks an active subscription cancelled by cancelAtPeriodEnd", () => {
    expect(statusBadge({ subscriptionStatus: "expired", cancelAtPeriodEnd: true }).label).toBe(
      "expired",
    );
  });
});
