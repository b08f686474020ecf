import type { Usage } from "../../../lib/usage";

/**
 * The campaigns header button, by plan state: on the free plan, or once a subscription has
 * expired or been cancelled, it leads to billing; otherwise it opens the creation wizard while
 * the plan has room for another campaign, and leads to billing once the limit is reached.
 */
export function creationButton(usage: Usage): { label: string; to: string } {
  const { status } = usage.plan;
  const below = usage.campaigns.current < usage.campaigns.limit;
  if (status === "free" || status === "expired" || status === "cancelled") {
    return { label: "Upgrade to Create", to: "/billing" };
  }
  if (below) return { label: "New Campaign", to: "/campaigns/create" };
  return { label: "Upgrade for More", to: "/billing" };
}
