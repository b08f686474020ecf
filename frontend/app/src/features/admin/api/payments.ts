import type { components } from "../../../api/schema";

/** One payment of an owner, as staff see it on the user detail. */
export type UserPayment = components["schemas"]["UserPayment"];

/**
 * Only a payment that went through can be refunded, and not while PayU is making a refund of it
 * already; the server refuses any other.
 */
export function canRefund(p: UserPayment): boolean {
  return p.status === "success" && !p.refundRequestedAt;
}

/**
 * Where a refund stands before it is done: PayU accepted it and has not made it yet, or PayU could
 * not make it (staff may ask again). Null when neither.
 */
export function refundProgress(
  p: UserPayment,
): { kind: "waiting"; since: string } | { kind: "failed"; reason: string } | null {
  if (p.status !== "success") return null;
  if (p.refundRequestedAt) return { kind: "waiting", since: p.refundRequestedAt };
  if (p.refundError) return { kind: "failed", reason: p.refundError };
  return null;
}

/** What staff are told once they confirmed a refund, from the payment the server answered. */
export function refundConfirmation(p: UserPayment, amount: string): string {
  if (p.status === "refunded") return `Refunded ${amount} for ${p.txnid}.`;
  return `PayU accepted the refund of ${amount} for ${p.txnid}. It shows as refunded once PayU has made it, usually within a few days.`;
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
