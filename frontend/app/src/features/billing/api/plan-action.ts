import type { components } from "../../../api/schema";

type Plan = components["schemas"]["PlanOut"];

/**
 * What a plan card's button says and whether it can be pressed. The owner's current plan (the
 * one whose id matches the usage's planId) and the free plan cannot be bought; enterprise plans
 * go through sales rather than checkout.
 */
export function planAction(plan: Plan, currentPlanId: string | undefined) {
  if (plan.id === currentPlanId) return { label: "Current Plan", disabled: true, contact: false };
  if (plan.price === 0) return { label: "Free Plan", disabled: true, contact: false };
  if (plan.contactSales || plan.displayName.toLowerCase().includes("enterprise")) {
    return { label: "Contact Sales", disabled: false, contact: true };
  }
  return { label: `Choose ${plan.displayName}`, disabled: false, contact: false };
}
