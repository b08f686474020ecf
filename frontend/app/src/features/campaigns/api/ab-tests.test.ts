import { describe, expect, it } from "vitest";
import type { CampaignSettings } from "./campaigns";
import {
  applyOverrides,
  cumulativeSeries,
  evenSplit,
  overridesOf,
  stateWords,
  testDraftErrors,
  weightError,
} from "./ab-tests";

/** A campaign's settings with the parts a test touches and some it must not. */
function settings(): CampaignSettings {
  return {
    aiSettings: {
      initialMessage: "Namaste! Need help choosing a saree?",
      knowledgeBase: "Free shipping above ₹999.",
      businessInfo: "Kesar Handlooms, Jaipur",
      customInstructions: "",
    },
    exitIntent: { enabled: true, sensitivity: "medium", delay: 1000, cooldown: 60 },
    forms: {
      conversionForms: [],
      formDisplayRules: {
        cooldownBetweenForms: 5,
        maxFormsPerConversation: 2,
        minMessagesBeforeForm: 3,
      },
    },
    popup: {
      backgroundColor: "#ffffff",
      buttonColor: "",
      buttonText: "",
      design: {
        headerTitle: "Wait! Before you go",
        headerSubtitle: "Chat with our assistant",
        primaryColor: "#ff6b6b",
        secondaryColor: "#ee5a24",
        borderRadius: 12,
        popupSize: "medium",
        fontFamily: "Inter",
        submitButtonText: "Send",
        showTrustBadges: true,
        trustBadges: [{ icon: "🔒", text: "Secure" }],
        formTitle: "Get exclusive offers",
        formSubtitle: "Leave your email",
      },
    },
    targeting: { devices: ["desktop"], includePages: [], excludePages: [] },
    revenue: { maxOrderValue: 500000 },
  } as unknown as CampaignSettings;
}

describe("a variant's overrides", () => {
  it("are empty while nothing changed", () => {
    expect(overridesOf(settings(), settings())).toEqual({});
  });

  it("name only the fields the owner changed", () => {
    const v = settings();
    v.popup.design.headerTitle = "Don't miss the monsoon deal";
    v.popup.design.primaryColor = "#3742fa";
    v.aiSettings.initialMessage = "Hi! 10% off today only.";
    v.exitIntent.delay = 2500;
    expect(overridesOf(settings(), v)).toEqual({
      popup: { design: { headerTitle: "Don't miss the monsoon deal", primaryColor: "#3742fa" } },
      aiSettings: { initialMessage: "Hi! 10% off today only." },
      exitIntent: { delay: 2500 },
    });
  });

  it("carry a changed list whole, as the server replaces lists", () => {
    const v = settings();
    v.popup.design.trustBadges = [...v.popup.design.trustBadges, { icon: "⚡", text: "Instant" }];
    expect(overridesOf(settings(), v)).toEqual({
      popup: {
        design: {
          trustBadges: [
            { icon: "🔒", text: "Secure" },
            { icon: "⚡", text: "Instant" },
          ],
        },
      },
    });
  });

  it("leave out what a test cannot change", () => {
    const v = settings();
    v.aiSettings.knowledgeBase = "Changed";
    v.exitIntent.cooldown = 5;
    v.exitIntent.enabled = false;
    v.targeting.devices = ["mobile"];
    v.revenue.maxOrderValue = 10;
    expect(overridesOf(settings(), v)).toEqual({});
  });

  it("laid over the campaign give back the variant", () => {
    const v = settings();
    v.popup.design.headerTitle = "New title";
    v.popup.design.trustBadges = [];
    v.exitIntent.sensitivity = "high";
    const back = applyOverrides(settings(), overridesOf(settings(), v));
    expect(back).toEqual(v);
    // The campaign itself is left as it was.
    expect(applyOverrides(settings(), {})).toEqual(settings());
  });
});

describe("the traffic split", () => {
  it("is shared evenly in whole percent", () => {
    expect(evenSplit(2)).toEqual([50, 50]);
    expect(evenSplit(3)).toEqual([34, 33, 33]);
    expect(evenSplit(4)).toEqual([25, 25, 25, 25]);
  });

  it("must add up to 100 in whole percent", () => {
    expect(weightError([50, 50])).toBeNull();
    expect(weightError([100, 0])).toBeNull();
    expect(weightError([60, 30])).toBe("The weights must add up to 100 percent; they add up to 90");
    expect(weightError([50.5, 49.5])).toBe("The weight is a whole percent from 0 to 100");
    expect(weightError([120, -20])).toBe("The weight is a whole percent from 0 to 100");
  });

  it("is checked with the names and the variants' changes before the test is sent", () => {
    const base = settings();
    const changed = settings();
    changed.popup.design.headerTitle = "Another title";
    const ok = testDraftErrors(
      "Monsoon title",
      [
        { name: "Control", weight: 50, settings: base },
        { name: "Variant B", weight: 50, settings: changed },
      ],
      base,
    );
    expect(ok).toEqual({});
    const bad = testDraftErrors(
      " ",
      [
        { name: "Control", weight: 70, settings: base },
        { name: "", weight: 20, settings: settings() },
      ],
      base,
    );
    expect(Object.keys(bad).sort()).toEqual(["arms.1.design", "arms.1.name", "name", "weights"]);
  });
});

describe("the cumulative chart", () => {
  it("accumulates each arm's conversion rate per visitor, day by day", () => {
    const points = cumulativeSeries(
      [
        {
          id: "a",
          daily: [
            { day: "2026-11-02", visitors: 100, impressions: 300, leads: 5, revenue: 0 },
            { day: "2026-11-01", visitors: 100, impressions: 250, leads: 1, revenue: 0 },
          ],
        },
        {
          id: "b",
          daily: [{ day: "2026-11-02", visitors: 50, impressions: 90, leads: 10, revenue: 0 }],
        },
      ],
      "conversionRate",
    );
    expect(points).toEqual([
      { day: "2026-11-01", a: 1, b: null },
      { day: "2026-11-02", a: 3, b: 20 },
    ]);
  });

  it("accumulates revenue per visitor and carries it over days without traffic", () => {
    const points = cumulativeSeries(
      [
        {
          id: "a",
          daily: [
            { day: "2026-11-01", visitors: 3, impressions: 7, leads: 0, revenue: 100 },
            { day: "2026-11-03", visitors: 1, impressions: 2, leads: 0, revenue: 0 },
          ],
        },
        {
          id: "b",
          daily: [{ day: "2026-11-02", visitors: 4, impressions: 9, leads: 1, revenue: 1000 }],
        },
      ],
      "revenuePerVisitor",
    );
    expect(points).toEqual([
      { day: "2026-11-01", a: 33.33, b: null },
      { day: "2026-11-02", a: 33.33, b: 250 },
      { day: "2026-11-03", a: 25, b: 250 },
    ]);
  });

  it("is empty before any traffic", () => {
    expect(cumulativeSeries([{ id: "a", daily: [] }], "conversionRate")).toEqual([]);
  });
});

describe("a test's state in words", () => {
  it("says why no call is made yet, and that a paused test shows the campaign as it is", () => {
    expect(stateWords("tooEarly", "running", 2).text).toBe(
      "Too early to call: a test needs at least 7 days (day 2 of 7).",
    );
    expect(stateWords("tooFewVisitors", "running", 9).label).toBe("Too few visitors");
    expect(stateWords("running", "paused", 9).label).toBe("Paused");
    expect(stateWords("closed", "closed", 9).label).toBe("Closed");
  });
});
