import { describe, expect, it } from "vitest";
import { heldOrdersText, maxOrderError, maxOrderSettingPath } from "./revenue";

describe("largest order counted", () => {
  it("takes whole rupees from 1 to 1,00,00,000, as the server does", () => {
    for (const ok of [1, 1499, 500000, 10_000_000]) expect(maxOrderError(ok)).toBeNull();
  });

  it("refuses blank, zero, fractions and more than a crore, saying the bound in rupees", () => {
    expect(maxOrderError(Number.NaN)).toBe("Enter the largest order to count, in rupees");
    expect(maxOrderError(0)).toBe("Largest order counted must be at least ₹1");
    expect(maxOrderError(-5)).toBe("Largest order counted must be at least ₹1");
    expect(maxOrderError(99.5)).toBe("Largest order counted must be a whole number of rupees");
    expect(maxOrderError(10_000_001)).toBe("Largest order counted must be at most ₹1,00,00,000");
  });
});

describe("held orders", () => {
  it("says nothing when no order was held", () => {
    expect(heldOrdersText({ orders: 0, value: 0 })).toBeNull();
  });

  it("counts the orders and their value in Indian grouping", () => {
    expect(heldOrdersText({ orders: 2, value: 1_200_000 })).toBe(
      "2 orders (₹12,00,000) above your limit were not counted",
    );
    expect(heldOrdersText({ orders: 1, value: 600_000 })).toBe(
      "1 order (₹6,00,000) above your limit was not counted",
    );
  });

  it("leads to the setting on the Targeting tab", () => {
    expect(maxOrderSettingPath("c1")).toBe("/campaigns/c1/edit?tab=targeting&field=maxOrderValue");
  });
});
