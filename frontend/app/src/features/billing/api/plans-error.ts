import { messageOf } from "../../../lib/api-client";

/** The product's words when the plans cannot be loaded. */
export const PLANS_ERROR_FALLBACK = "Failed to fetch plans";

/**
 * The plans' loading error: the server's message when it answered with one, else the product's
 * fallback. A call that never reached the server fails with the browser's own words ("Failed to
 * fetch", "Load failed", "NetworkError when attempting to fetch resource."), which are not shown.
 */
export function plansError(error: unknown): string {
  if (error instanceof Error) return PLANS_ERROR_FALLBACK;
  return messageOf(error, PLANS_ERROR_FALLBACK);
}
