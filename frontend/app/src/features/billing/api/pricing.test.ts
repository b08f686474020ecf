import { describe, expect, it } from "vitest";
import {
  annualSaving,
  cyclePrice,
  fullYearPrice,
  hasAnnualOffer,
  planCyclePrice,
  planPriceText,
  productInfo,
  purchaseCycle,
} from "./pricing";

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

describe("a plan's own currency and interval", () => {
  const usdYearly = { price: 49, currency: "USD", interval: "yearly" };
  const basic = { price: 999, currency: "INR", interval: "monthly" };

  it("shows each plan in its currency and period", () => {
    expect(planPriceText(usdYearly)).toBe("$49 / year");
    expect(planPriceText(usdYearly, "annual")).toBe("$49 / year");
    expect(planPriceText({ price: 10, currency: "eur", interval: "monthly" })).toBe("€10 / month");
    expect(planPriceText(basic)).toBe("₹999 / month");
    expect(planPriceText(basic, "annual")).toBe("₹9,990 / year");
    expect(planPriceText({ price: 150000, currency: "INR", interval: "yearly" })).toBe(
      "₹1,50,000 / year",
    );
  });

  it("buys a yearly plan by the year at its price, a monthly one as the toggle says", () => {
    expect(purchaseCycle(usdYearly, "monthly")).toBe("annual");
    expect(planCyclePrice(usdYearly, "annual")).toBe(49);
    expect(purchaseCycle(basic, "monthly")).toBe("monthly");
    expect(purchaseCycle(basic, "annual")).toBe("annual");
    expect(planCyclePrice(basic, "annual")).toBe(9990);
  });

  it("offers two months free only on monthly plans with a price", () => {
    expect(hasAnnualOffer(basic)).toBe(true);
    expect(hasAnnualOffer(usdYearly)).toBe(false);
    expect(hasAnnualOffer({ price: 0, currency: "INR", interval: "monthly" })).toBe(false);
  });
});
