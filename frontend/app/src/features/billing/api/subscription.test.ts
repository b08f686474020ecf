import { describe, expect, it } from "vitest";
import {
  annualSwitchText,
  canCancel,
  canResume,
  canSwitchToAnnual,
  currentPlanOf,
  renewalCycle,
  renewalText,
  statusColor,
  statusText,
  subscriptionLines,
  subscriptionPrice,
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
  price: 999,
  currency: "INR",
  interval: "monthly",
  setByStaff: false,
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

  it("a plan our team set without a payment has no billing date and nothing to cancel", () => {
    const bySales = { ...base, cycle: null, setByStaff: true };
    expect(subscriptionLines(bySales)).toEqual([
      "Your plan runs until 25 Dec 2026",
      "It was set up by our team; nothing is billed to you.",
    ]);
    expect(subscriptionLines(bySales).join(" ")).not.toContain("Next billing date");
    expect(canCancel(bySales)).toBe(false);
  });

  it("shows the statuses staff can set with their effects", () => {
    expect(statusText("past_due")).toBe("Past due");
    expect(statusColor("past_due")).toBe("orange");
    expect(statusColor("cancelled")).toBe("yellow");
    expect(subscriptionLines({ ...base, status: "cancelled", cycle: null })[0]).toBe(
      "Your subscription ends on 25 Dec 2026",
    );
    expect(canCancel({ ...base, status: "cancelled" })).toBe(false);
    expect(subscriptionLines({ ...base, status: "past_due" })[0]).toContain("A payment is due");
  });

  it("prices the plan in its own currency and period", () => {
    expect(subscriptionPrice(base)).toBe("₹999 / month");
    expect(subscriptionPrice({ ...base, price: 49, currency: "USD", interval: "yearly" })).toBe(
      "$49 / year",
    );
    expect(subscriptionPrice({ ...base, price: 0 })).toBeNull();
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

describe("Switch to annual billing", () => {
  it("is offered only to an active monthly plan bought through checkout", () => {
    expect(canSwitchToAnnual(base)).toBe(true);
    expect(canSwitchToAnnual({ ...base, cancelAtPeriodEnd: true })).toBe(true);
    expect(canSwitchToAnnual(undefined)).toBe(false);
    expect(canSwitchToAnnual({ ...base, cycle: "annual" })).toBe(false);
    expect(canSwitchToAnnual({ ...base, interval: "yearly", cycle: "annual" })).toBe(false);
    expect(canSwitchToAnnual({ ...base, status: "trial", cycle: null })).toBe(false);
    expect(canSwitchToAnnual({ ...base, status: "expired" })).toBe(false);
    expect(canSwitchToAnnual({ ...base, setByStaff: true, cycle: null })).toBe(false);
  });

  it("says what the year costs, what it saves and when it starts", () => {
    expect(annualSwitchText(base)).toBe(
      "Pay ₹9,990 for a year of Basic (you save ₹1,998); the year starts when this month ends on 25 Dec 2026.",
    );
    expect(annualSwitchText({ ...base, cancelAtPeriodEnd: true })).toBe(
      "Pay ₹9,990 for a year of Basic (you save ₹1,998); the year starts when this month ends on 25 Dec 2026. Switching also undoes your cancellation.",
    );
  });
});

describe("Resume Subscription", () => {
  it("takes back the owner's own cancellation while the plan is active", () => {
    expect(canResume({ ...base, cancelAtPeriodEnd: true })).toBe(true);
    expect(canResume(base)).toBe(false);
    expect(canResume(undefined)).toBe(false);
    // Ended by our team, or already over: nothing for the owner to take back.
    expect(canResume({ ...base, status: "cancelled", cancelAtPeriodEnd: true })).toBe(false);
    expect(canResume({ ...base, status: "expired", cancelAtPeriodEnd: true })).toBe(false);
    expect(canResume({ ...base, setByStaff: true, cancelAtPeriodEnd: true })).toBe(false);
  });
});
