import { describe, expect, it } from "vitest";
import {
  canCancel,
  currentPlanOf,
  renewalCycle,
  renewalText,
  statusColor,
  subscriptionLines,
  upgradeLabel,
  type Subscription,
} from "./subscription";

const base: Subscription = {
  planId: "basic",
  planName: "Basic",
  status: "active",
  cycle: "monthly",
  subscriptionEndsAt: "2026-12-25T10:00:00Z",
  trialEndsAt: null,
  trialRemainingDays: 0,
  cancelAtPeriodEnd: false,
  invitedPlans: [],
};

describe("subscription card", () => {
  it("colours the badge", () => {
    expect(statusColor("active")).toBe("green");
    expect(statusColor("trial")).toBe("blue");
    expect(statusColor("free")).toBe("gray");
    expect(statusColor("expired")).toBe("gray");
  });

  it("shows the trial's days and end, the next billing date, or the end after a cancel", () => {
    expect(
      subscriptionLines({
        ...base,
        status: "trial",
        trialRemainingDays: 1,
        trialEndsAt: "2026-11-25T10:00:00Z",
      }),
    ).toEqual(["1 day remaining in your trial", "Trial ends on 25 Nov 2026"]);
    expect(subscriptionLines(base)).toEqual(["Next billing date: 25 Dec 2026"]);
    expect(subscriptionLines({ ...base, cancelAtPeriodEnd: true })[0]).toBe(
      "Your subscription ends on 25 Dec 2026",
    );
    expect(subscriptionLines({ ...base, status: "free" })).toEqual(["You're on the free plan."]);
  });

  it("offers a cancel only for an active plan not already ending", () => {
    expect(canCancel(base)).toBe(true);
    expect(canCancel({ ...base, cancelAtPeriodEnd: true })).toBe(false);
    expect(canCancel({ ...base, status: "trial" })).toBe(false);
    expect(canCancel(undefined)).toBe(false);
  });

  it("names the upgrade action after the trial", () => {
    expect(upgradeLabel("trial")).toBe("Upgrade Before Trial Ends");
    expect(upgradeLabel("active")).toBe("Upgrade Plan");
  });

  it("takes the usage's plan as current, free by default, none once expired", () => {
    expect(currentPlanOf({ planId: "basic", status: "active" })).toBe("basic");
    expect(currentPlanOf({ planId: "free", status: "trial" })).toBe("free");
    expect(currentPlanOf(undefined)).toBe("free");
    expect(currentPlanOf({ planId: "basic", status: "expired" })).toBe("");
  });
});

describe("Renew now", () => {
  it("is offered for an active plan bought for a cycle, cancelled or not", () => {
    expect(renewalCycle(base)).toBe("monthly");
    expect(renewalCycle({ ...base, cycle: "annual" })).toBe("annual");
    expect(renewalCycle({ ...base, cancelAtPeriodEnd: true })).toBe("monthly");
  });

  it("is not offered without a paid period to extend", () => {
    expect(renewalCycle(undefined)).toBeNull();
    expect(renewalCycle({ ...base, status: "trial", cycle: null })).toBeNull();
    expect(renewalCycle({ ...base, status: "free", cycle: null })).toBeNull();
    expect(renewalCycle({ ...base, status: "expired" })).toBeNull();
    // A plan staff set by hand has no cycle: nothing was bought, nothing renews.
    expect(renewalCycle({ ...base, cycle: null })).toBeNull();
  });

  it("says the new period starts where this one ends", () => {
    expect(renewalText(base, "monthly")).toBe(
      "Pay for another month of Basic now; it starts when this period ends on 25 Dec 2026.",
    );
    expect(renewalText({ ...base, cancelAtPeriodEnd: true }, "monthly")).toBe(
      "Pay for another month of Basic now; it starts when this period ends on 25 Dec 2026. Renewing also undoes your cancellation.",
    );
    expect(renewalText({ ...base, subscriptionEndsAt: null }, "annual")).toBe(
      "Pay for another year of Basic now.",
    );
  });
});
