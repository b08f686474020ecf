import { describe, expect, it } from "vitest";
import type { components } from "../../../api/schema";
import { usagePercent } from "../components/UsageCard";
import { planAction, usageError } from "./BillingSettingsPage";

type Plan = components["schemas"]["PlanOut"];
const plan = (id: string, price: number, extra: Partial<Plan> = {}): Plan => ({
  id,
  _id: id,
  name: id,
  displayName: id[0]?.toUpperCase() + id.slice(1),
  price,
  currency: "INR",
  interval: "monthly",
  features: [],
  limits: {
    campaigns: 1,
    visitorsPerMonth: 1000,
    aiConversations: 100,
    customBranding: false,
    apiAccess: false,
    whiteLabel: false,
    prioritySupport: false,
    phoneSupport: false,
  },
  popular: false,
  active: true,
  sortOrder: 0,
  inviteOnly: false,
  contactSales: false,
  ...extra,
});

describe("plan card buttons (seed 001 §2)", () => {
  it("current, free, enterprise, buyable", () => {
    expect(planAction(plan("basic", 999), "basic").label).toBe("Current Plan");
    expect(planAction(plan("free", 0), "basic")).toEqual({
      label: "Free Plan",
      disabled: true,
      contact: false,
    });
    expect(planAction(plan("enterprise", 9999), "basic").contact).toBe(true);
    expect(planAction(plan("gold", 1, { displayName: "Gold ENTERPRISE" }), "basic").label).toBe(
      "Contact Sales",
    );
    expect(planAction(plan("basic", 999), "free")).toEqual({
      label: "Choose Basic",
      disabled: false,
      contact: false,
    });
  });

  it("usage bars cap at 100 % and errors follow the seed", () => {
    expect(usagePercent(5, 10)).toBe(50);
    expect(usagePercent(15, 10)).toBe(100);
    expect(usagePercent(0, 0)).toBe(0);
    expect(usageError({ code: "invalid_token" })).toBe(
      "Please log in again to view billing information.",
    );
    expect(usageError({ code: "internal_error" })).toBe(
      "Failed to load usage data. Please try again.",
    );
  });
});
