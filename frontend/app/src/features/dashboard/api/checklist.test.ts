import { describe, expect, it } from "vitest";
import type { components } from "../../../api/schema";
import { firstRunChecklist } from "./checklist";

type Campaign = components["schemas"]["CampaignOut"];

const campaign = (
  impressions: number,
  conversions: number,
  firstPageViewAt: string | null = null,
): Campaign => ({
  _id: "c1",
  id: "c1",
  name: "Diwali",
  websiteUrl: "https://shop.example.in",
  isActive: true,
  createdAt: "2026-11-01T00:00:00Z",
  updatedAt: "2026-11-01T00:00:00Z",
  analytics: { impressions, conversions, conversionRate: 0, revenue: 0, firstPageViewAt },
  settings: {} as Campaign["settings"],
});

const none = { copiedScript: false };
const done = (items: ReturnType<typeof firstRunChecklist>) =>
  items.filter((i) => i.done).map((i) => i.key);

describe("first-run checklist", () => {
  it("starts with nothing done", () => {
    expect(done(firstRunChecklist([], none))).toEqual([]);
    // A copy alone, without a campaign, proves nothing.
    expect(done(firstRunChecklist([], { copiedScript: true }))).toEqual([]);
  });

  it("ticks the campaign, then the script once copied, but not the page view", () => {
    expect(done(firstRunChecklist([campaign(0, 0)], none))).toEqual(["create"]);
    expect(done(firstRunChecklist([campaign(0, 0)], { copiedScript: true }))).toEqual([
      "create",
      "install",
    ]);
  });

  it("takes the page view from the server's firstPageViewAt, which also proves the install", () => {
    expect(done(firstRunChecklist([campaign(0, 0, "2026-11-23T10:00:00Z")], none))).toEqual([
      "create",
      "install",
      "pageView",
    ]);
  });

  it("keeps it in a later month: nothing resets firstPageViewAt", () => {
    const october = campaign(0, 0, "2026-10-02T08:30:00Z");
    expect(done(firstRunChecklist([october], none))).toContain("pageView");
  });

  it("waits while no campaign's site has sent one", () => {
    const items = firstRunChecklist([campaign(0, 0, null), { ...campaign(0, 0), _id: "c2" }], none);
    expect(items.find((i) => i.key === "pageView")?.done).toBe(false);
  });

  it("counts a page view on any of the campaigns", () => {
    const other = { ...campaign(0, 0, "2026-11-20T00:00:00Z"), _id: "c2" };
    expect(done(firstRunChecklist([campaign(0, 0), other], none))).toContain("pageView");
  });

  it("takes an impression as proof for campaigns whose first page view predates the field", () => {
    expect(done(firstRunChecklist([campaign(2, 0, null)], none))).toEqual([
      "create",
      "install",
      "pageView",
    ]);
  });

  it("is complete with the first lead", () => {
    expect(done(firstRunChecklist([campaign(3, 1, "2026-11-23T10:00:00Z")], none))).toEqual([
      "create",
      "install",
      "pageView",
      "lead",
    ]);
  });
});
