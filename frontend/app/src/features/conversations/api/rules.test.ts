import { describe, expect, it } from "vitest";
import { badgeOf, inTimeFilter, preview } from "./rules";

describe("conversation badges", () => {
  it("put the outcome before the status", () => {
    expect(badgeOf({ outcome: "conversion", status: "active" }).label).toBe("Converted");
    expect(badgeOf({ outcome: "dismissal", status: "completed" }).label).toBe("Dismissed");
    expect(badgeOf({ outcome: "none", status: "active" }).label).toBe("Active");
    expect(badgeOf({ outcome: "none", status: "completed" }).label).toBe("Completed");
  });
});

describe("previews", () => {
  it("cut at 80 characters", () => {
    expect(preview("short")).toBe("short");
    const long = "₹".repeat(81);
    expect(preview(long)).toBe(`${"₹".repeat(80)}…`);
    expect(preview("a".repeat(80))).toBe("a".repeat(80));
  });
});

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
