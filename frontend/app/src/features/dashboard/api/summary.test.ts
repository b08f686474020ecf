import { describe, expect, it } from "vitest";
import type { components } from "../../../api/schema";
import { recentActivity, summarize } from "./summary";

type Campaign = components["schemas"]["CampaignOut"];

function campaign(
  id: string,
  createdAt: string,
  impressions: number,
  conversions: number,
  revenue: number,
  isActive = true,
  lastConversionAt: string | null = null,
): Campaign {
  return {
    _id: id,
    id,
    name: `Campaign ${id}`,
    websiteUrl: "https://shop.example.in",
    isActive,
    createdAt,
    updatedAt: createdAt,
    analytics: { impressions, conversions, conversionRate: 0, revenue, lastConversionAt },
    settings: {} as Campaign["settings"],
  };
}

describe("dashboard summary", () => {
  it("sums the figures and rounds the rate to 2 decimals", () => {
    const s = summarize([
      campaign("a", "2026-11-01T00:00:00Z", 3, 1, 1499.5),
      campaign("b", "2026-11-02T00:00:00Z", 0, 0, 0, false),
    ]);
    expect(s).toEqual({
      totalRevenue: 1499.5,
      conversions: 1,
      activeCampaigns: 1,
      totalImpressions: 3,
      conversionRate: 33.33,
    });
    expect(summarize([]).conversionRate).toBe(0);
  });

  it("lists the 2 newest campaigns and one conversion summary", () => {
    const items = recentActivity(
      [
        campaign("a", "2026-11-01T00:00:00Z", 10, 2, 0, true, "2026-11-20T09:30:00Z"),
        campaign("b", "2026-11-03T00:00:00Z", 0, 0, 0),
        campaign("c", "2026-11-02T00:00:00Z", 0, 1, 0, true, "2026-11-05T10:00:00Z"),
      ],
      "Priya",
    );
    expect(items.map((i) => i.description)).toEqual([
      "Campaign b",
      "Campaign c",
      "Across 3 campaigns",
    ]);
    expect(items[2]?.title).toBe("3 conversions");
    // The time of the latest conversion, not of the latest edit.
    expect(items[2]?.timestamp).toBe("2026-11-20T09:30:00Z");
    expect(recentActivity([], "Priya")).toEqual([]);
  });
});
