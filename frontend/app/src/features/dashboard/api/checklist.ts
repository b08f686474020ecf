import type { components } from "../../../api/schema";
import type { FirstRunMemory } from "../../../lib/first-run";

type Campaign = components["schemas"]["CampaignOut"];
type Usage = components["schemas"]["Usage"];

export type ChecklistKey = "create" | "install" | "pageView" | "lead";

export interface ChecklistItem {
  key: ChecklistKey;
  label: string;
  done: boolean;
}

/**
 * The first-run checklist from real figures: a campaign exists; the script is installed (copied,
 * or proven by a page view); a page view arrived (this month's visitors, or any impression, which
 * only a loaded script can send); a lead arrived (a conversion).
 */
export function firstRunChecklist(
  campaigns: Campaign[],
  usage: Usage | undefined,
  memory: FirstRunMemory,
): ChecklistItem[] {
  const created = campaigns.length > 0;
  const lead = campaigns.some((c) => c.analytics.conversions > 0);
  const pageView =
    memory.sawPageView ||
    (usage?.visitors.current ?? 0) > 0 ||
    campaigns.some((c) => c.analytics.impressions > 0) ||
    lead;
  return [
    { key: "create", label: "Create a campaign", done: created },
    {
      key: "install",
      label: "Install the script on your site",
      done: created && (memory.copiedScript || pageView),
    },
    { key: "pageView", label: "First page view received", done: created && pageView },
    { key: "lead", label: "First lead", done: created && lead },
  ];
}
