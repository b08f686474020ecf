import { useQueries } from "@tanstack/react-query";
import type { components } from "../../../api/schema";
import { $api } from "../../../lib/api-client";

type Campaign = components["schemas"]["CampaignOut"];

/** How often the figures are read again while the owner waits for their first lead. */
const FIRST_LEAD_POLL_MS = 15_000;

/**
 * The owner's campaigns with their figures. Until the first lead (campaigns, none converted yet)
 * they are read again every 15 s, so the first-run checklist turns green by itself.
 */
export function useDashboardCampaigns() {
  return $api.useQuery(
    "get",
    "/api/campaigns",
    {},
    {
      refetchInterval: (query) => {
        const list = query.state.data?.campaigns;
        return list && list.length > 0 && !list.some((c) => c.analytics.conversions > 0)
          ? FIRST_LEAD_POLL_MS
          : false;
      },
    },
  );
}

/** Each campaign's analytics (with its held orders), in the campaigns' order. */
export function useCampaignsAnalytics(campaigns: Campaign[]) {
  return useQueries({
    queries: campaigns.map((c) =>
      $api.queryOptions(
        "get",
        "/api/campaigns/{id}/analytics",
        { params: { path: { id: c._id } } },
        { staleTime: 30_000 },
      ),
    ),
  });
}
