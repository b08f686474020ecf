import { describe, expect, it } from "vitest";
import type { components } from "../../../api/schema";
import { inviteRequestMailto, needsInvite, planAction, salesNote } from "./plan-action";

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
  checkoutAvailable: true,
  ...extra,
});

describe("plan card buttons", () => {
  it("current, free, enterprise, buyable", () => {
    expect(planAction(plan("basic", 999), "basic").label).toBe("Current Plan");
    expect(planAction(plan("free", 0), "basic")).toEqual({
      label: "Free Plan",
      disabled: true,
      contact: false,
      customPricing: false,
    });
    expect(planAction(plan("enterprise", 9999), "basic").contact).toBe(true);
    expect(planAction(plan("gold", 1, { displayName: "Gold ENTERPRISE" }), "basic").label).toBe(
      "Contact Sales",
    );
    expect(planAction(plan("basic", 999), "free")).toEqual({
      label: "Choose Basic",
      disabled: false,
      contact: false,
      customPricing: false,
    });
  });

  it("a plan checkout cannot charge shows its price and goes to sales", () => {
    const usd = plan("global", 49, {
      currency: "USD",
      interval: "yearly",
      checkoutAvailable: false,
    });
    expect(planAction(usd, "free")).toEqual({
      label: "Contact Sales",
      disabled: false,
      contact: true,
      customPricing: false,
    });
    expect(salesNote(usd)).toBe(
      "Priced in USD. Online payment is in INR only, so our team sets this plan up for you.",
    );
    expect(salesNote(plan("basic", 999))).toBeNull();
    expect(planAction(usd, "global").label).toBe("Current Plan");
  });
});

describe("invite-only plans", () => {
  const beta = plan("beta", 5000, { inviteOnly: true });
  it("offer an invite request unless the owner was invited or is on the plan", () => {
    expect(needsInvite(beta, "free", [])).toBe(true);
    expect(needsInvite(beta, "free", undefined)).toBe(true);
    expect(needsInvite(beta, "free", ["beta"])).toBe(false);
    expect(needsInvite(beta, "beta", [])).toBe(false);
    expect(needsInvite(plan("basic", 999), "free", [])).toBe(false);
  });

  it("ask support by e-mail, naming the plan and the account", () => {
    const href = inviteRequestMailto(beta, "owner@example.in");
    expect(href.startsWith("mailto:support@convertassist.in?subject=")).toBe(true);
    const query = new URLSearchParams(href.split("?")[1]);
    expect(query.get("subject")).toBe("Invite request: Beta plan");
    expect(query.get("body")).toContain("owner@example.in");
  });
});
