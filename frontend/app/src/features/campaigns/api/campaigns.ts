import { useQueryClient } from "@tanstack/react-query";
import type { components } from "../../../api/schema";
import { $api } from "../../../lib/api-client";

export type Campaign = components["schemas"]["CampaignOut"];
export type CampaignSettings = components["schemas"]["CampaignSettings"];

/** The owner's campaigns with their usage. */
export function useCampaigns() {
  return $api.useQuery("get", "/api/campaigns");
}

/** The settings a new campaign starts with, as the server applies them. */
export function useDefaultSettings() {
  return $api.useQuery("get", "/api/campaigns/defaults", {}, { staleTime: Infinity });
}

/** One campaign, for its editor; a missing one fails at once (`campaign_not_found`). */
export function useCampaign(id: string) {
  return $api.useQuery(
    "get",
    "/api/campaigns/{id}",
    { params: { path: { id } } },
    { retry: false },
  );
}

/**
 * Saves a campaign. The saved campaign replaces the cached one, and the list is read again in
 * the background.
 */
export function useUpdateCampaign() {
  const queryClient = useQueryClient();
  return $api.useMutation("put", "/api/campaigns/{id}", {
    onSuccess: (result, { params }) => {
      queryClient.setQueryData(
        ["get", "/api/campaigns/{id}", { params: { path: { id: params.path.id } } }],
        result,
      );
      void queryClient.invalidateQueries({ queryKey: ["get", "/api/campaigns"] });
    },
  });
}

/** Plans in display order, for the upgrade prompt (no sign-in needed). */
export function usePlans() {
  return $api.useQuery("get", "/api/billing/plans");
}

/** Reloads the list and usage after a change. */
function useInvalidateCampaigns() {
  const queryClient = useQueryClient();
  return () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: ["get", "/api/campaigns"] }),
      queryClient.invalidateQueries({ queryKey: ["get", "/api/billing/usage"] }),
    ]);
}

export function useToggleCampaign() {
  const invalidate = useInvalidateCampaigns();
  return $api.useMutation("patch", "/api/campaigns/{id}/toggle", { onSettled: invalidate });
}

export function useDeleteCampaign() {
  const invalidate = useInvalidateCampaigns();
  return $api.useMutation("delete", "/api/campaigns/{id}", { onSettled: invalidate });
}

export function useCreateCampaign() {
  const invalidate = useInvalidateCampaigns();
  return $api.useMutation("post", "/api/campaigns", { onSuccess: invalidate });
}

/** A campaign's analytics with its held orders (orders above its largest order counted). */
export function useCampaignAnalytics(campaignId: string) {
  return $api.useQuery(
    "get",
    "/api/campaigns/{id}/analytics",
    { params: { path: { id: campaignId } } },
    { staleTime: 30_000 },
  );
}

export function useWidgetScript(id: string, enabled: boolean) {
  return $api.useQuery(
    "get",
    "/api/campaigns/{id}/widget-script",
    { params: { path: { id } } },
    { enabled },
  );
}

export function useConversionScript(id: string, enabled: boolean) {
  return $api.useQuery(
    "get",
    "/api/campaigns/{id}/conversion-script",
    { params: { path: { id } } },
    { enabled },
  );
}

/**
 * How full a campaign's performance bar is, from its conversion rate: the rate times 10,
 * capped at 100, so a 10 % rate already fills the bar.
 */
export function performanceBar(rate: number): number {
  return Math.min(100, rate * 10);
}
