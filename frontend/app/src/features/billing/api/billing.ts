import { useQuery } from "@tanstack/react-query";
import { $api } from "../../../lib/api-client";
import { fetchInvoice } from "./invoice";

/** Plans in display order (no sign-in needed). */
export function usePlans() {
  return $api.useQuery("get", "/api/billing/plans");
}

/** One plan, as the server prices it. */
export function usePlan(id: string) {
  return $api.useQuery("get", "/api/plans/{id}", { params: { path: { id } } }, { enabled: !!id });
}

/** Completes a demo payment. */
export function useMockPayment() {
  return $api.useMutation("post", "/api/billing/mock-payment-success");
}

/** The owner's plan, its state and its dates. */
export function useSubscription() {
  return $api.useQuery("get", "/api/billing/subscription");
}

/** Cancels the paid plan at the end of its period. */
export function useCancelSubscription() {
  return $api.useMutation("post", "/api/billing/cancel");
}

/** Takes back a cancellation before the paid period ends. */
export function useResumeSubscription() {
  return $api.useMutation("post", "/api/billing/resume");
}

/** The owner's payments, newest first. */
export function usePaymentHistory(options: { enabled?: boolean } = {}) {
  return $api.useQuery("get", "/api/payment/history", {}, options);
}

/** The invoice of one successful payment; `null` when there is none. */
export function useInvoice(txnid: string) {
  return useQuery({
    queryKey: ["invoice", txnid],
    queryFn: () => fetchInvoice(txnid),
    retry: false,
  });
}
