import { describe, expect, it } from "vitest";
import { conversionRate } from "./figures";

describe("conversionRate", () => {
  it("gives conversions per 100 impressions, to 2 decimals", () => {
    expect(conversionRate(1, 3)).toBe(33.33);
    expect(conversionRate(2, 3)).toBe(66.67);
    expect(conversionRate(5, 5)).toBe(100);
    expect(conversionRate(1, 8)).toBe(12.5);
  });

  it("is 0 without impressions", () => {
    expect(conversionRate(0, 0)).toBe(0);
    expect(conversionRate(3, 0)).toBe(0);
  });
});
