import { useQueryClient } from "@tanstack/react-query";
import type { components } from "../../../api/schema";
import { $api } from "../../../lib/api-client";

export type AbTest = components["schemas"]["TestOut"];
export type AbVariant = components["schemas"]["VariantOut"];

/** A campaign's A/B tests, newest first, each with its results. */
export function useAbTests(campaignId: string) {
  return $api.useQuery("get", "/api/campaigns/{id}/tests", {
    params: { path: { id: campaignId } },
  });
}

/** Reads the campaign's tests again, and with `campaign` the campaign itself (a promotion changed it). */
function useRefresh() {
  const queryClient = useQueryClient();
  return (campaignId: string, campaign: boolean) =>
    Promise.all([
      queryClient.invalidateQueries({
        queryKey: ["get", "/api/campaigns/{id}/tests", { params: { path: { id: campaignId } } }],
      }),
      campaign
        ? queryClient.invalidateQueries({
            queryKey: ["get", "/api/campaigns/{id}", { params: { path: { id: campaignId } } }],
          })
        : null,
    ]);
}

export function useCreateAbTest() {
  const refresh = useRefresh();
  return $api.useMutation("post", "/api/campaigns/{id}/tests", {
    onSuccess: (_, { params }) => refresh(params.path.id, false),
  });
}

/**
 * Starts the next version of an open test with edited variants: the current version closes (its
 * results stay readable) and the new one counts from zero, every visitor assigned again.
 */
export function useNewAbTestVersion() {
  const refresh = useRefresh();
  return $api.useMutation("post", "/api/campaigns/{id}/tests/{testId}/versions", {
    onSuccess: (_, { params }) => refresh(params.path.id, false),
  });
}

/** Changes how an open test ends: its maximum duration and whether the winner is promoted by itself. */
export function useChangeAbTest() {
  const refresh = useRefresh();
  return $api.useMutation("patch", "/api/campaigns/{id}/tests/{testId}", {
    onSuccess: (_, { params }) => refresh(params.path.id, false),
  });
}

/** Pauses a running test or resumes a paused one. */
export function usePauseAbTest() {
  const refresh = useRefresh();
  return $api.useMutation("post", "/api/campaigns/{id}/tests/{testId}/pause", {
    onSuccess: (_, { params }) => refresh(params.path.id, false),
  });
}

/** Pauses one variant (its visitors see the campaign as it is and count for no arm) or resumes it. */
export function usePauseAbVariant() {
  const refresh = useRefresh();
  return $api.useMutation("post", "/api/campaigns/{id}/tests/{testId}/variants/{variantId}/pause", {
    onSuccess: (_, { params }) => refresh(params.path.id, false),
  });
}

/** Writes a variant into the campaign and closes the test. */
export function usePromoteAbTest() {
  const refresh = useRefresh();
  return $api.useMutation("post", "/api/campaigns/{id}/tests/{testId}/promote", {
    onSuccess: (_, { params }) => refresh(params.path.id, true),
  });
}
