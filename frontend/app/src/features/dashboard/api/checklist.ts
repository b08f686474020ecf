import type { components } from "../../../api/schema";

type Campaign = components["schemas"]["CampaignOut"];

export type ChecklistKey = "create" | "install" | "pageView" | "lead";

export interface ChecklistItem {
  key: ChecklistKey;
  label: string;
  done: boolean;
}

/**
 * Whether the campaign's site has sent a page view: the server's `firstPageViewAt` (set by the
 * first counted page view, never by the owner's Preview). An impression or a conversion proves it
 * too (only the script on the site sends them, after its page view), which keeps campaigns whose
 * first page view came before the server recorded it.
 */
export function sawPageView(c: Campaign): boolean {
  return (
    c.analytics.firstPageViewAt != null ||
    c.analytics.impressions > 0 ||
    c.analytics.conversions > 0
  );
}

/**
 * The first-run checklist from the server's figures: a campaign exists; the script is installed
 * (copied in this browser, or proven by a page view); a page view arrived; a lead arrived (a
 * conversion). Everything but the copy comes from the server, so it is the same in every browser
 * and never goes back when a month's visitor count starts again.
 */
export function firstRunChecklist(
  campaigns: Campaign[],
  { copiedScript }: { copiedScript: boolean },
): ChecklistItem[] {
  const created = campaigns.length > 0;
  const lead = campaigns.some((c) => c.analytics.conversions > 0);
  const pageView = campaigns.some(sawPageView);
  return [
    { key: "create", label: "Create a campaign", done: created },
    {
      key: "install",
      label: "Install the script on your site",
      done: created && (copiedScript || pageView),
    },
    { key: "pageView", label: "First page view received", done: created && pageView },
    { key: "lead", label: "First lead", done: created && lead },
  ];
}
