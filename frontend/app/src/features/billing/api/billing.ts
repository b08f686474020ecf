import { $api } from "../../../lib/api-client";

/** Plans in display order (no sign-in needed). */
export function usePlans() {
  return $api.useQuery("get", "/api/billing/plans");
}

/** Completes a demo payment. */
export function useMockPayment() {
  return $api.useMutation("post", "/api/billing/mock-payment-success");
}
