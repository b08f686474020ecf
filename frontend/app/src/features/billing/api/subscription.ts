import type { components } from "../../../api/schema";
import { formatDate, formatMoney } from "../../../lib/format";
import { annualSaving, cyclePrice, planPriceText, type Cycle } from "./pricing";

/** The owner's subscription as the server answers it. */
export type Subscription = components["schemas"]["SubscriptionOut"];

/** The status badge: green while active, blue in a trial, yellow once cancelled, orange when due. */
export function statusColor(status: string): string {
  if (status === "active") return "green";
  if (status === "trial") return "blue";
  if (status === "cancelled") return "yellow";
  if (status === "past_due") return "orange";
  return "gray";
}

/** "Active", "Past due". */
export function statusText(status: string): string {
  const words = status.replace(/_/g, " ");
  return words ? words[0]!.toUpperCase() + words.slice(1) : "";
}

export function cycleText(cycle: string | null | undefined): string | null {
  if (cycle === "annual") return "Billed annually";
  if (cycle === "monthly") return "Billed monthly";
  return null;
}

/**
 * What the subscription card says under the plan name: the trial's days left and end, the next
 * billing date of an active plan, or, once cancelled, the day it ends.
 */
export function subscriptionLines(sub: Subscription): string[] {
  switch (sub.status) {
    case "trial": {
      const days = sub.trialRemainingDays;
      return [
        `${days} day${days === 1 ? "" : "s"} remaining in your trial`,
        `Trial ends on ${formatDate(sub.trialEndsAt)}`,
      ];
    }
    case "active":
    case "cancelled":
      if (sub.cancelAtPeriodEnd || sub.status === "cancelled") {
        return [
          `Your subscription ends on ${formatDate(sub.subscriptionEndsAt)}`,
          "After that your account moves to the free plan.",
        ];
      }
      // A plan our team set up without a payment: nothing is billed, so no billing date.
      if (sub.setByStaff) {
        return [
          `Your plan runs until ${formatDate(sub.subscriptionEndsAt)}`,
          "It was set up by our team; nothing is billed to you.",
        ];
      }
      return [`Next billing date: ${formatDate(sub.subscriptionEndsAt)}`];
    case "past_due":
      return ["A payment is due for your plan. Until it is paid, the free plan's limits apply."];
    case "expired":
      return ["Your subscription has ended. Choose a plan to continue."];
    default:
      return ["You're on the free plan."];
  }
}

/** Only a paid plan that is not already set to end can be cancelled (a plan staff set is not paid). */
export function canCancel(sub: Subscription | undefined): boolean {
  return sub?.status === "active" && !sub.cancelAtPeriodEnd && !sub.setByStaff;
}

/** The plan's own price under its name ("$49 / year"); nothing for a free plan. */
export function subscriptionPrice(sub: Subscription): string | null {
  return sub.price > 0 ? planPriceText(sub) : null;
}

export function upgradeLabel(status: string | undefined): string {
  return status === "trial" ? "Upgrade Before Trial Ends" : "Upgrade Plan";
}

/**
 * The plan whose card reads "Current Plan": the usage's plan id, except after the subscription
 * expired, when the old plan can be bought again.
 */
export function currentPlanOf(plan: { planId: string; status: string } | undefined): string {
  if (!plan) return "free";
  return plan.status === "expired" ? "" : plan.planId;
}

/**
 * The cycle "Renew now" pays for: an active paid plan (bought through checkout, so it has a
 * cycle) can be paid again before its period ends, for the same plan and cycle; the new period
 * starts where the current one ends. Null when there is nothing to renew (trial, free, a plan set
 * by staff, or an ended one, which is bought again from the plan cards).
 */
export function renewalCycle(sub: Subscription | undefined): Cycle | null {
  if (sub?.status !== "active") return null;
  return sub.cycle === "monthly" || sub.cycle === "annual" ? sub.cycle : null;
}

/** What renewing adds, said before the owner pays. */
export function renewalText(sub: Subscription, cycle: Cycle): string {
  const period = cycle === "annual" ? "year" : "month";
  const from = formatDate(sub.subscriptionEndsAt);
  const text = from
    ? `Pay for another ${period} of ${sub.planName} now; it starts when this period ends on ${from}.`
    : `Pay for another ${period} of ${sub.planName} now.`;
  // A renewal keeps the plan going, so it also takes back a cancellation.
  return sub.cancelAtPeriodEnd ? `${text} Renewing also undoes your cancellation.` : text;
}

/**
 * Whether a monthly subscriber can switch to annual billing: an active monthly plan bought through
 * checkout (a yearly plan is already annual; a plan set by staff is not billed).
 */
export function canSwitchToAnnual(sub: Subscription | undefined): boolean {
  return (
    sub?.status === "active" &&
    sub.cycle === "monthly" &&
    sub.interval !== "yearly" &&
    sub.price > 0 &&
    !sub.setByStaff
  );
}

/** What switching to annual billing costs and when the year starts, said before the owner pays. */
export function annualSwitchText(sub: Subscription): string {
  const price = formatMoney(cyclePrice(sub.price, "annual"), sub.currency);
  const saving = formatMoney(annualSaving(sub.price), sub.currency);
  const from = formatDate(sub.subscriptionEndsAt);
  const text = `Pay ${price} for a year of ${sub.planName} (you save ${saving})`;
  const start = from ? `; the year starts when this month ends on ${from}.` : ".";
  return sub.cancelAtPeriodEnd
    ? `${text}${start} Switching also undoes your cancellation.`
    : `${text}${start}`;
}

/** A cancellation the owner made can be taken back while the paid period lasts. */
export function canResume(sub: Subscription | undefined): boolean {
  return sub?.status === "active" && sub.cancelAtPeriodEnd && !sub.setByStaff;
}
