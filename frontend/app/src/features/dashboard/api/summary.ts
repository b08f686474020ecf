import type { components } from "../../../api/schema";
import { conversionRate } from "../../../lib/figures";

type Campaign = components["schemas"]["CampaignOut"];

export interface DashboardSummary {
  totalRevenue: number;
  conversions: number;
  activeCampaigns: number;
  totalImpressions: number;
  /** Conversions per 100 impressions across all campaigns, to 2 decimals. */
  conversionRate: number;
}

export function summarize(campaigns: Campaign[]): DashboardSummary {
  const totalRevenue = campaigns.reduce((s, c) => s + c.analytics.revenue, 0);
  const conversions = campaigns.reduce((s, c) => s + c.analytics.conversions, 0);
  const totalImpressions = campaigns.reduce((s, c) => s + c.analytics.impressions, 0);
  return {
    totalRevenue,
    conversions,
    activeCampaigns: campaigns.filter((c) => c.isActive).length,
    totalImpressions,
    conversionRate: conversionRate(conversions, totalImpressions),
  };
}

export interface ActivityItem {
  id: string;
  type: "campaign" | "conversion";
  title: string;
  description: string;
  timestamp: string;
  user: { name: string; avatar: string };
}

/**
 * The dashboard's recent activity: the 2 newest campaigns, then one line summing up all
 * conversions when there are any, so the card stays short (at most 3 items).
 */
export function recentActivity(campaigns: Campaign[], userName: string): ActivityItem[] {
  const avatar = userName.slice(0, 1).toUpperCase();
  const items: ActivityItem[] = [...campaigns]
    .sort((a, b) => b.createdAt.localeCompare(a.createdAt))
    .slice(0, 2)
    .map((c) => ({
      id: `campaign-${c._id}`,
      type: "campaign",
      title: "Campaign created",
      description: c.name,
      timestamp: c.createdAt,
      user: { name: userName, avatar },
    }));
  const conversions = campaigns.reduce((s, c) => s + c.analytics.conversions, 0);
  if (conversions > 0) {
    // Dated by the latest conversion itself, not by when a campaign was edited.
    const latest = campaigns
      .map((c) => c.analytics.lastConversionAt)
      .filter((t): t is string => typeof t === "string")
      .sort()
      .at(-1);
    items.push({
      id: "conversions",
      type: "conversion",
      title: `${conversions.toLocaleString("en-IN")} conversion${conversions === 1 ? "" : "s"}`,
      description: `Across ${campaigns.length} campaign${campaigns.length === 1 ? "" : "s"}`,
      timestamp: latest ?? new Date().toISOString(),
      user: { name: userName, avatar },
    });
  }
  return items.slice(0, 3);
}
