import type { components } from "../../../api/schema";
import { supportMailto } from "../../../lib/contact";

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
