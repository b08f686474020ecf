import { describe, expect, it } from "vitest";
import { inTimeFilter } from "./time-filters";

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
});
