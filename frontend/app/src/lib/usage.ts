import type { components } from "../api/schema";
import { $api } from "./api-client";

export type Usage = components["schemas"]["Usage"];

/** The owner's plan usage (campaigns and visitors against their limits). */
export function useUsage() {
  return $api.useQuery("get", "/api/billing/usage");
}

/** Whether the owner may create another campaign (seed 000 §4, creation gate). */
export function canCreate(usage: Usage): boolean {
  return usage.plan.status === "active" || usage.campaigns.current < usage.campaigns.limit;
}
