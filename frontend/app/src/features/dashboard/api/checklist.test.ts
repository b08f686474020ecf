import { describe, expect, it } from "vitest";
import type { components } from "../../../api/schema";
import { firstRunChecklist } from "./checklist";

type Campaign = components["schemas"]["CampaignOut"];
type Usage = components["schemas"]["Usage"];

const campaign = (impressions: number, conversions: number): Campaign => ({
  _id: "c1",
  id: "c1",
  name: "Diwali",
  websiteUrl: "https://shop.example.in",
  isActive: true,
  createdAt: "2026-11-01T00:00:00Z",
  updatedAt: "2026-11-01T00:00:00Z",
  analytics: { impressions, conversions, conversionRate: 0, revenue: 0 },
  settings: {} as Campaign["settings"],
});

const usage = (visitors: number): Usage => ({
  plan: { planId: "trial", status: "trial" },
  campaigns: { current: 1, limit: 1 },
  visitors: { current: visitors, limit: 1000, resetDate: "2026-12-01T00:00:00Z" },
});

const none = { copiedScript: false, sawPageView: false };
const done = (items: ReturnType<typeof firstRunChecklist>) =>
  items.filter((i) => i.done).map((i) => i.key);

describe("first-run checklist", () => {
  it("starts with nothing done", () => {
    expect(done(firstRunChecklist([], usage(0), none))).toEqual([]);
  });

  it("ticks the campaign, then the script once copied", () => {
    expect(done(firstRunChecklist([campaign(0, 0)], usage(0), none))).toEqual(["create"]);
    expect(
      done(firstRunChecklist([campaign(0, 0)], usage(0), { ...none, copiedScript: true })),
    ).toEqual(["create", "install"]);
  });

  it("takes a page view from this month's visitors, an impression or the memory of one", () => {
    for (const [c, u, m] of [
      [campaign(0, 0), usage(1), none],
      [campaign(2, 0), usage(0), none],
      [campaign(0, 0), usage(0), { ...none, sawPageView: true }],
    ] as const)
      expect(done(firstRunChecklist([c], u, m))).toEqual(["create", "install", "pageView"]);
  });

  it("is complete with the first lead", () => {
    expect(done(firstRunChecklist([campaign(3, 1)], usage(0), none))).toEqual([
      "create",
      "install",
      "pageView",
      "lead",
    ]);
  });
});
