import type { components } from "../../../api/schema";
import { supportMailto } from "../../../lib/contact";

type Plan = components["schemas"]["PlanOut"];

/** What a plan card's button does. */
export interface PlanAction {
  label: string;
  disabled: boolean;
  /** The button writes to sales instead of buying. */
  contact: boolean;
  /** The card shows "Custom Pricing" instead of a price (enterprise plans). */
  customPricing: boolean;
}

/**
 * What a plan card's button says and whether it can be pressed. The owner's current plan (the
 * one whose id matches the usage's planId) and the free plan cannot be bought; enterprise plans
 * go through sales rather than checkout, and so does a plan checkout cannot charge (checkout is
 * in INR only: a plan priced in another currency shows its price and "Contact Sales").
 */
export function planAction(plan: Plan, currentPlanId: string | undefined): PlanAction {
  const none = { contact: false, customPricing: false };
  if (plan.id === currentPlanId) return { label: "Current Plan", disabled: true, ...none };
  if (plan.price === 0) return { label: "Free Plan", disabled: true, ...none };
  if (plan.contactSales || plan.displayName.toLowerCase().includes("enterprise")) {
    return { label: "Contact Sales", disabled: false, contact: true, customPricing: true };
  }
  if (!plan.checkoutAvailable) {
    return { label: "Contact Sales", disabled: false, contact: true, customPricing: false };
  }
  return { label: `Choose ${plan.displayName}`, disabled: false, ...none };
}

/** Why a plan is sold through sales although it has a price: checkout charges INR only. */
export function salesNote(plan: Plan): string | null {
  if (plan.checkoutAvailable || plan.contactSales) return null;
  return `Priced in ${plan.currency}. Online payment is in INR only, so our team sets this plan up for you.`;
}

/**
 * Whether a plan card offers "Request an invite" instead of buying: an invite-only plan this
 * owner has not been invited to (checkout would refuse it), unless it is their current plan.
 */
export function needsInvite(
  plan: Pick<Plan, "id" | "inviteOnly">,
  currentPlanId: string | undefined,
  invitedPlans: readonly string[] | undefined,
): boolean {
  return plan.inviteOnly && plan.id !== currentPlanId && !(invitedPlans ?? []).includes(plan.id);
}

/** The draft e-mail asking support for an invitation to `plan` for the account `email`. */
export function inviteRequestMailto(plan: Pick<Plan, "displayName">, email: string): string {
  return supportMailto(
    `Invite request: ${plan.displayName} plan`,
    `Hello, please invite my account (${email}) to the ${plan.displayName} plan.`,
  );
}
