import { describe, expect, it } from "vitest";
import { annualSaving, cyclePrice, fullYearPrice, productInfo } from "./pricing";

describe("plan prices", () => {
  it("an annual plan costs ten months; a monthly one its price", () => {
    expect(cyclePrice(999, "monthly")).toBe(999);
    expect(cyclePrice(999, "annual")).toBe(9990);
    expect(cyclePrice(0, "annual")).toBe(0);
  });

  it("strikes through twelve months and saves two", () => {
    expect(fullYearPrice(999)).toBe(11988);
    expect(annualSaving(999)).toBe(1998);
    expect(annualSaving(5000)).toBe(10000);
  });

  it("marks an annual purchase in its description", () => {
    expect(productInfo("Basic", "annual")).toBe("Basic Plan (Annual)");
    expect(productInfo("Basic", "monthly")).toBe("Basic Plan (Monthly)");
  });
});
