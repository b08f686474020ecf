import { describe, expect, it } from "vitest";
import type { User } from "../../../lib/api-client";
import { formatDate } from "../../../lib/format";
import { sampleUser } from "../../../test/fetch-mock";
import { planSummary } from "./plan-summary";

const user = (extra: Partial<User>): User => ({ ...sampleUser, ...extra });

describe("the plan summary", () => {
  it("follows the trial, then the subscription status", () => {
    expect(planSummary(user({}))).toEqual({
      badge: "Trial",
      color: "blue",
      text: `Your free trial ends in 3 days (on ${formatDate("2026-11-25T10:00:00Z")}).`,
    });
    expect(planSummary(user({ trialRemainingDays: 1 })).text).toContain("ends in 1 day (");
    const paid = user({
      isInTrial: false,
      subscriptionStatus: "active",
      planId: "basic",
      subscriptionEndsAt: "2026-12-22T10:00:00Z",
    });
    expect(planSummary(paid)).toEqual({
      badge: "Active",
      color: "green",
      text: `Your basic plan is active until ${formatDate("2026-12-22T10:00:00Z")}.`,
    });
    expect(planSummary(user({ isInTrial: false, subscriptionStatus: "expired" })).badge).toBe(
      "Expired",
    );
    expect(planSummary(user({ isInTrial: false, subscriptionStatus: "free" })).badge).toBe("Free");
  });
});
