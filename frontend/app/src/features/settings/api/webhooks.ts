import { useQueryClient } from "@tanstack/react-query";
import { $api } from "../../../lib/api-client";

/** Attempts per page of the delivery log. */
export const LOG_PAGE_SIZE = 20;
/** How often the open delivery log asks again, so new deliveries and retries appear by themselves. */
const LOG_REFRESH_MS = 4000;

/** The owner's webhook endpoints and Mailchimp audience pushes, oldest first. */
export function useEndpoints() {
  return $api.useQuery("get", "/api/webhooks/endpoints");
}

/** Refreshes the endpoints and the delivery log after a change. */
export function useRefreshWebhooks() {
  const queryClient = useQueryClient();
  return () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: ["get", "/api/webhooks/endpoints"] }),
      queryClient.invalidateQueries({ queryKey: ["get", "/api/webhooks/deliveries"] }),
    ]);
}

/** Adds an endpoint; the answer alone carries its signing secret. */
export function useCreateEndpoint() {
  return $api.useMutation("post", "/api/webhooks/endpoints");
}

export function useUpdateEndpoint() {
  return $api.useMutation("put", "/api/webhooks/endpoints/{id}");
}

/** Deletes an endpoint with its delivery log. */
export function useDeleteEndpoint() {
  return $api.useMutation("delete", "/api/webhooks/endpoints/{id}");
}

/** A new signing secret; the previous one keeps signing for 24 hours. */
export function useRotateSecret() {
  return $api.useMutation("post", "/api/webhooks/endpoints/{id}/rotate-secret");
}

/** The endpoint's current signing secret. */
export function useRevealSecret() {
  return $api.useMutation("get", "/api/webhooks/endpoints/{id}/secret");
}

/** "Send test event": a `webhook.test` event to one endpoint, sent at once. */
export function useSendTest() {
  return $api.useMutation("post", "/api/webhooks/endpoints/{id}/test");
}

/** Sends a logged delivery's event again, with the same `webhook-id`. */
export function useResend() {
  return $api.useMutation("post", "/api/webhooks/deliveries/{id}/resend");
}

/**
 * One page of the delivery log (the last 30 days, newest first), of one endpoint or all, asked
 * again every few seconds while the window has focus.
 */
export function useDeliveries(page: number, endpointId: string | null) {
  return $api.useQuery(
    "get",
    "/api/webhooks/deliveries",
    {
      params: {
        query: {
          page: String(page),
          limit: String(LOG_PAGE_SIZE),
          endpointId: endpointId ?? undefined,
        },
      },
    },
    { refetchInterval: LOG_REFRESH_MS, placeholderData: (previous) => previous },
  );
}
