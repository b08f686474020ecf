import { $api } from "../../../lib/api-client";

/** The owner's billing details (address, state, GSTIN) and the states to choose from. */
export function useBillingDetails() {
  return $api.useQuery("get", "/api/billing/details");
}

/** Saves the billing details; a refused input answers each field's message. */
export function useSaveBillingDetails() {
  return $api.useMutation("put", "/api/billing/details");
}

/** A GSTIN as the server stores it: capitals, no spaces. */
export function normalizeGstin(text: string): string {
  return text.replace(/\s+/g, "").toUpperCase();
}

/**
 * A hint while the GSTIN is typed: its first two digits are the GST code of the state it was
 * issued in, so a GSTIN that does not start with the chosen state's code will be refused.
 */
export function gstinStateHint(gstin: string, stateCode: string | null): string | null {
  const g = normalizeGstin(gstin);
  if (g.length < 2 || !stateCode || !/^\d{2}$/.test(g.slice(0, 2))) return null;
  return g.slice(0, 2) === stateCode
    ? null
    : `A GSTIN issued in the chosen state starts with ${stateCode}.`;
}

/** The first message per field of a refused save, by field name. */
export function fieldMessages(error: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  if (error && typeof error === "object" && "errors" in error) {
    const errors = (error as { errors?: unknown }).errors;
    if (errors && typeof errors === "object") {
      for (const [field, messages] of Object.entries(errors as Record<string, unknown>)) {
        if (Array.isArray(messages) && typeof messages[0] === "string") out[field] = messages[0];
      }
    }
  }
  return out;
}
