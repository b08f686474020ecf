import type { components } from "../api/schema";
import { $api } from "./api-client";

export type Usage = components["schemas"]["Usage"];

/** The owner's plan usage (campaigns and visitors against their limits). */
export function useUsage() {
  return $api.useQuery("get", "/api/billing/usage");
}

/**
 * Whether the app offers campaign creation (the wizard, the empty list's create button): always
 * on an active plan, otherwise only while below the campaign limit. The server still refuses a
 * create beyond the plan's limit.
 */
export function canCreate(usage: Usage): boolean {
  return usage.plan.status === "active" || usage.campaigns.current < usage.campaigns.limit;
}
