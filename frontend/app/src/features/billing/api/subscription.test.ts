import { describe, expect, it } from "vitest";
import {
  canCancel,
  currentPlanOf,
  statusColor,
  subscriptionLines,
  upgradeLabel,
  type SubscriptionView,
} from "./subscription";

const base: SubscriptionView = {
  planName: "Basic",
  status: "active",
  cycle: "monthly",
  subscriptionEndsAt: "2026-12-25T10:00:00Z",
  trialEndsAt: null,
  trialRemainingDays: 0,
  cancelAtPeriodEnd: false,
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
