import { describe, expect, it } from "vitest";
import { dateAfter, endOfDayIso, subscriptionChoiceError, subscriptionFields } from "./change-plan";

const now = new Date(2026, 10, 23, 12, 0, 0);

describe("change plan", () => {
  it("needs a future end date only for an active subscription", () => {
    const base = { planId: "basic", endDate: "" };
    expect(subscriptionChoiceError({ ...base, subscriptionStatus: "free" }, now)).toBeNull();
    expect(subscriptionChoiceError({ ...base, subscriptionStatus: "trial" }, now)).toBeNull();
    expect(subscriptionChoiceError({ ...base, subscriptionStatus: "active" }, now)).toBe(
      "Choose the date the subscription ends",
    );
    expect(
      subscriptionChoiceError(
        { ...base, subscriptionStatus: "active", endDate: "2026-11-22" },
        now,
      ),
    ).toBe("The end date must be in the future");
    expect(
      subscriptionChoiceError(
        { ...base, subscriptionStatus: "active", endDate: "2026-11-23" },
        now,
      ),
    ).toBeNull();
    expect(
      subscriptionChoiceError({ planId: "", subscriptionStatus: "free", endDate: "" }, now),
    ).toBe("Choose a plan");
  });

  it("lets a cancelled status keep the current period or take a future date", () => {
    const cancelled = { planId: "basic", subscriptionStatus: "cancelled" as const, endDate: "" };
    expect(subscriptionChoiceError(cancelled, now)).toBeNull();
    expect(subscriptionFields(cancelled)).toEqual({
      planId: "basic",
      subscriptionStatus: "cancelled",
    });
    expect(subscriptionChoiceError({ ...cancelled, endDate: "2026-11-01" }, now)).toBe(
      "The end date must be in the future",
    );
    expect(subscriptionFields({ ...cancelled, endDate: "2026-12-01" }).subscriptionEndsAt).toBe(
      new Date(2026, 11, 1, 23, 59, 59).toISOString(),
    );
    for (const s of ["past_due", "expired"] as const) {
      expect(subscriptionChoiceError({ ...cancelled, subscriptionStatus: s }, now)).toBeNull();
      expect(
        subscriptionFields({ ...cancelled, subscriptionStatus: s, endDate: "2026-12-01" }),
      ).toEqual({ planId: "basic", subscriptionStatus: s });
    }
  });

  it("sends the end date only with an active status", () => {
    expect(
      subscriptionFields({ planId: "basic", subscriptionStatus: "trial", endDate: "2026-12-01" }),
    ).toEqual({ planId: "basic", subscriptionStatus: "trial" });
    const active = subscriptionFields({
      planId: "basic",
      subscriptionStatus: "active",
      endDate: "2026-12-01",
    });
    expect(active.subscriptionEndsAt).toBe(new Date(2026, 11, 1, 23, 59, 59).toISOString());
  });

  it("reads and writes the date field", () => {
    expect(dateAfter(now, 30)).toBe("2026-12-23");
    expect(endOfDayIso("bad")).toBeNull();
  });
});
