import type { components } from "../../../api/schema";

/** One payment of an owner, as staff see it on the user detail. */
export type UserPayment = components["schemas"]["UserPayment"];

/** Only a payment that went through can be refunded; the server refuses any other. */
export function canRefund(p: UserPayment): boolean {
  return p.status === "success";
}

/**
 * What a refunded payment did to the owner's plan: kept the period it paid for, or ended the
 * unused part of it. Null for a payment that was not refunded.
 */
export function refundOutcome(p: UserPayment): string | null {
  if (p.status !== "refunded") return null;
  return p.refundKeepsAccess
    ? "The owner kept the period it paid for."
    : "The unused part of its period ended.";
}

/** The refund confirmation's words for what happens to the owner's plan. */
export function refundConsequence(keepAccess: boolean): string {
  return keepAccess
    ? "The owner keeps the plan until the end of the period this payment paid for."
    : "The unused part of the period this payment paid for ends now.";
}
