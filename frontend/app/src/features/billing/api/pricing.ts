import { formatMoney } from "../../../lib/format";

/** Billing cycles a plan can be bought for; monthly unless the owner turns the toggle on. */
export type Cycle = "monthly" | "annual";

/** An annual plan costs ten months: two months free. */
export const ANNUAL_MONTHS = 10;
/** The struck-through yearly price: twelve months at the monthly price. */
export const FULL_YEAR_MONTHS = 12;

/** What one cycle of a plan costs, in rupees. */
export function cyclePrice(monthlyPrice: number, cycle: Cycle): number {
  return cycle === "annual" ? monthlyPrice * ANNUAL_MONTHS : monthlyPrice;
}

/** Twelve months at the monthly price, shown struck through beside the offer. */
export function fullYearPrice(monthlyPrice: number): number {
  return monthlyPrice * FULL_YEAR_MONTHS;
}

/** What annual billing saves over twelve monthly payments: two months of price. */
export function annualSaving(monthlyPrice: number): number {
  return fullYearPrice(monthlyPrice) - cyclePrice(monthlyPrice, "annual");
}

/** The payment's description, as the server names it; an annual purchase says so. */
export function productInfo(planName: string, cycle: Cycle): string {
  return `${planName} Plan (${cycle === "annual" ? "Annual" : "Monthly"})`;
}

/** What a price needs to be shown: the amount, its ISO 4217 currency and `monthly` or `yearly`. */
export interface PricedPlan {
  price: number;
  currency: string;
  interval: string;
}

/**
 * The cycle buying `plan` pays for while the toggle says `cycle`: a yearly plan is bought by the
 * year whatever the toggle says; a monthly plan by the month or, with the toggle on, the year.
 */
export function purchaseCycle(plan: { interval: string }, cycle: Cycle): Cycle {
  return plan.interval === "yearly" ? "annual" : cycle;
}

/**
 * What one purchase of `plan` costs in its own currency: a yearly plan's price, or a monthly
 * plan's price for the month or ten times it for the year (as the server charges).
 */
export function planCyclePrice(plan: PricedPlan, cycle: Cycle): number {
  return plan.interval === "yearly" ? plan.price : cyclePrice(plan.price, cycle);
}

/** A plan's price as owners read it, in its own currency and period: "$49 / year", "₹999 / month". */
export function planPriceText(plan: PricedPlan, cycle: Cycle = "monthly"): string {
  const bought = purchaseCycle(plan, cycle);
  const amount = formatMoney(planCyclePrice(plan, bought), plan.currency);
  return `${amount} / ${bought === "annual" ? "year" : "month"}`;
}

/** The annual toggle's offer (two months free) applies to a monthly plan with a price. */
export function hasAnnualOffer(plan: PricedPlan): boolean {
  return plan.interval !== "yearly" && plan.price > 0;
}
