import { describe, expect, it } from "vitest";
import { badgeOf, preview } from "./display";

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
