import { describe, expect, it } from "vitest";
import { usagePercent } from "./UsageCard";

describe("usage bars", () => {
  it("cap at 100 %", () => {
    expect(usagePercent(5, 10)).toBe(50);
    expect(usagePercent(15, 10)).toBe(100);
    expect(usagePercent(0, 0)).toBe(0);
  });
});
