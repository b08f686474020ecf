import type { components } from "../api/schema";

/** Where a payment stands, as the server names it. */
export type PaymentStatus = components["schemas"]["PaymentStatus"];
/** Where a payment was made: the simulator, the demo page, PayU's test environment or live. */
export type CheckoutMode = components["schemas"]["CheckoutMode"];

const STATUS: Record<PaymentStatus, { label: string; color: string }> = {
  success: { label: "Success", color: "green" },
  pending: { label: "Pending", color: "yellow" },
  failure: { label: "Failed", color: "red" },
  // A checkout left unpaid past PayU's window: nothing was charged, so it does not read as a
  // failed charge or a pending one.
  expired: { label: "Not completed", color: "gray" },
  refunded: { label: "Refunded", color: "grape" },
};

function known(status: string): status is PaymentStatus {
  return Object.hasOwn(STATUS, status);
}

/** What a payment status reads as in lists, badges and filters. */
export function paymentStatusLabel(status: string): string {
  return known(status) ? STATUS[status].label : status;
}

/** The badge colour of a payment status. */
export function paymentStatusColor(status: string): string {
  return known(status) ? STATUS[status].color : "gray";
}

/**
 * Whether a payment is one the owner really made: an abandoned checkout (`expired`) is not, so it
 * stays out of recent transactions and the history's totals.
 */
export function isRealPayment(status: string): boolean {
  return status !== "expired";
}

/**
 * The line shown under a payment's status: why it did not go through (PayU's reason for a
 * failure, such as cancelled on PayU's page or the bank's step not finished, or why a checkout
 * was not completed). Nothing for a payment that went through or is still pending.
 */
export function paymentReason(status: string, reason: string | null | undefined): string | null {
  if (status !== "failure" && status !== "expired") return null;
  const text = reason?.trim();
  return text ? text : null;
}

const MODES: Record<CheckoutMode, { label: string; color: string }> = {
  simulator: { label: "Simulator", color: "gray" },
  demo: { label: "Demo", color: "gray" },
  test: { label: "PayU test", color: "yellow" },
  live: { label: "Live", color: "teal" },
};

/** Where a payment was made, as a badge: only a live payment moved real money. */
export function checkoutModeBadge(mode: string): { label: string; color: string } {
  return Object.hasOwn(MODES, mode) ? MODES[mode as CheckoutMode] : { label: mode, color: "gray" };
}
