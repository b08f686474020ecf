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
