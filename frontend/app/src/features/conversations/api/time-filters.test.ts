import { describe, expect, it } from "vitest";
import { emptyFilterText, inTimeFilter, moreCanMatch } from "./time-filters";

describe("time filters", () => {
  const now = new Date(2026, 10, 22, 15, 0, 0);
  it("keep what falls in the window", () => {
    expect(inTimeFilter(new Date(2026, 10, 22, 0, 5).toISOString(), "Today", now)).toBe(true);
    expect(inTimeFilter(new Date(2026, 10, 21, 23, 55).toISOString(), "Today", now)).toBe(false);
    expect(inTimeFilter(new Date(2026, 10, 16).toISOString(), "7 Days", now)).toBe(true);
    expect(inTimeFilter(new Date(2026, 10, 14).toISOString(), "7 Days", now)).toBe(false);
    expect(inTimeFilter(new Date(2026, 9, 25).toISOString(), "30 Days", now)).toBe(true);
    expect(inTimeFilter(new Date(2026, 0, 1).toISOString(), "All", now)).toBe(true);
  });

  it("say what the filter left out, not that there are none at all", () => {
    expect(emptyFilterText("Today")).toBe("No conversations started today.");
    expect(emptyFilterText("7 Days")).toBe("No conversations started in the last 7 days.");
    expect(emptyFilterText("All")).toBe("No conversations yet.");
  });

  it("offer more only while older pages could still match", () => {
    const at = (d: Date) => ({ createdAt: d.toISOString() });
    const today = at(new Date(2026, 10, 22, 9, 0));
    const lastWeek = at(new Date(2026, 10, 18, 9, 0));
    expect(moreCanMatch([today], "Today", now)).toBe(true);
    expect(moreCanMatch([today, lastWeek], "Today", now)).toBe(false);
    expect(moreCanMatch([today, lastWeek], "7 Days", now)).toBe(true);
    expect(moreCanMatch([today, lastWeek], "All", now)).toBe(true);
    expect(moreCanMatch([], "Today", now)).toBe(true);
  });
});
