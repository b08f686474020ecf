import type { components } from "../../../api/schema";

/** Payments that may need a look, from the System tab's health call. */
export type PaymentsHealth = components["schemas"]["PaymentsHealth"];
export type Reconciliation = components["schemas"]["Reconciliation"];

/**
 * The stuck-payments badge: none is fine; any payment still pending 15 minutes after it was made
 * is worth a look (the reconciliation settles a paid one within five minutes).
 */
export function stuckBadge(pending: number): { label: string; color: string } {
  if (pending <= 0) return { label: "None stuck", color: "green" };
  return { label: `${pending.toLocaleString("en-IN")} stuck`, color: "orange" };
}

/** How the last reconciliation run reads: whether it ran, and whether it went wrong. */
export function reconciliationState(run: Reconciliation): {
  label: string;
  color: string;
} {
  if (!run.ranAt) return { label: "Not run yet", color: "gray" };
  if (run.error) return { label: "Failed", color: "red" };
  return { label: "OK", color: "green" };
}

/** "3 checked · 1 settled · 2 expired" for the last run. */
export function reconciliationCounts(run: Reconciliation): string {
  const n = (v: number) => v.toLocaleString("en-IN");
  return `${n(run.checked)} checked · ${n(run.settled)} settled · ${n(run.expired)} expired`;
}
