import { describe, expect, it } from "vitest";
import {
  addFeature,
  applyPreset,
  CREATE_PLAN_DEFAULTS,
  createPlanError,
  DIALOG_PLAN_DEFAULTS,
  featureRows,
  limitCount,
  limitLines,
  limitText,
  PLAN_PRESETS,
  planBody,
  planLimitErrors,
  planName,
  removeFeatureRow,
} from "./plan-form";

describe("planName", () => {
  it("lowercases and turns spaces into hyphens", () => {
    expect(planName("Growth Plus")).toBe("growth-plus");
    expect(planName("PRO  Max")).toBe("pro-max");
    expect(planName("already-fine")).toBe("already-fine");
  });
});

describe("defaults", () => {
  it("match the Create Plan screen's", () => {
    expect(CREATE_PLAN_DEFAULTS).toEqual({
      name: "",
      displayName: "",
      price: 0,
      currency: "INR",
      interval: "monthly",
      features: [],
      limits: {
        campaigns: 1,
        visitorsPerMonth: 10000,
        aiConversations: 1000,
        customBranding: false,
        apiAccess: false,
        whiteLabel: false,
        prioritySupport: false,
        phoneSupport: false,
      },
      popular: false,
      active: true,
      sortOrder: 0,
    });
  });

  it("give the dialog smaller visitor and conversation limits", () => {
    expect(DIALOG_PLAN_DEFAULTS.limits.visitorsPerMonth).toBe(1000);
    expect(DIALOG_PLAN_DEFAULTS.limits.aiConversations).toBe(100);
    expect(DIALOG_PLAN_DEFAULTS.limits.campaigns).toBe(1);
  });
});

describe("presets", () => {
  const byLabel = Object.fromEntries(PLAN_PRESETS.map((p) => [p.label, p]));

  it("are Starter, Professional and Enterprise with their prices and limits", () => {
    expect(PLAN_PRESETS.map((p) => [p.label, p.price])).toEqual([
      ["Starter", 999],
      ["Professional", 2999],
      ["Enterprise", 9999],
    ]);
    expect(byLabel.Starter?.limits).toMatchObject({
      campaigns: 1,
      visitorsPerMonth: 5000,
      aiConversations: 500,
    });
    expect(byLabel.Professional?.limits).toMatchObject({
      campaigns: 5,
      visitorsPerMonth: 25000,
      aiConversations: 2500,
    });
    expect(byLabel.Enterprise?.limits).toMatchObject({
      campaigns: 25,
      visitorsPerMonth: 100000,
      aiConversations: 10000,
    });
  });

  it("turn on branding and priority support for all but Starter, the rest for Enterprise only", () => {
    const flags = (label: string) => {
      const l = byLabel[label]!.limits;
      return [l.customBranding, l.prioritySupport, l.apiAccess, l.whiteLabel, l.phoneSupport];
    };
    expect(flags("Starter")).toEqual([false, false, false, false, false]);
    expect(flags("Professional")).toEqual([true, true, false, false, false]);
    expect(flags("Enterprise")).toEqual([true, true, true, true, true]);
  });

  it("set a lowercase name and keep the features and other fields", () => {
    const form = { ...CREATE_PLAN_DEFAULTS, features: ["Chat"], sortOrder: 3, currency: "USD" };
    const next = applyPreset(form, byLabel.Professional!);
    expect(next.name).toBe("professional");
    expect(next.displayName).toBe("Professional");
    expect(next.price).toBe(2999);
    expect(next.features).toEqual(["Chat"]);
    expect(next.sortOrder).toBe(3);
    expect(next.currency).toBe("USD");
    next.limits.campaigns = 99;
    expect(byLabel.Professional!.limits.campaigns).toBe(5);
  });
});

describe("addFeature", () => {
  it("adds the trimmed text", () => {
    expect(addFeature(["A"], "  Exit intent  ")).toEqual(["A", "Exit intent"]);
  });
  it("ignores empty input and duplicates", () => {
    const list = ["A"];
    expect(addFeature(list, "   ")).toBe(list);
    expect(addFeature(list, " A ")).toBe(list);
  });
});

describe("createPlanError", () => {
  const ok = { ...CREATE_PLAN_DEFAULTS, name: "pro", displayName: "Pro", features: ["Chat"] };
  it("needs a name and a display name", () => {
    expect(createPlanError({ ...ok, name: " " })).toBe("Plan name and display name are required");
    expect(createPlanError({ ...ok, displayName: "" })).toBe(
      "Plan name and display name are required",
    );
  });
  it("needs one feature", () => {
    expect(createPlanError({ ...ok, features: [] })).toBe("At least one feature is required");
    expect(createPlanError({ ...ok, features: [" "] })).toBe("At least one feature is required");
  });
  it("passes a complete plan", () => {
    expect(createPlanError(ok)).toBeNull();
  });
});

describe("planBody", () => {
  it("drops blank features and sends 0 for numbers that are not numbers", () => {
    const body = planBody({
      ...CREATE_PLAN_DEFAULTS,
      name: " pro ",
      displayName: " Pro ",
      price: Number.NaN,
      sortOrder: "x" as unknown as number,
      features: ["One", "", "  ", " Two "],
      limits: {
        ...CREATE_PLAN_DEFAULTS.limits,
        campaigns: "" as unknown as number,
        aiConversations: -1,
      },
    });
    expect(body.name).toBe("pro");
    expect(body.displayName).toBe("Pro");
    expect(body.price).toBe(0);
    expect(body.sortOrder).toBe(0);
    expect(body.features).toEqual(["One", "Two"]);
    expect(body.limits.campaigns).toBe(0);
    expect(body.limits.aiConversations).toBe(-1);
  });
});

describe("feature rows on the edit screen", () => {
  it("show one empty row for a plan without features", () => {
    expect(featureRows([])).toEqual([""]);
    expect(featureRows(["A", "B"])).toEqual(["A", "B"]);
  });
  it("remove any row, the last one too", () => {
    expect(removeFeatureRow(["A", "B"], 0)).toEqual(["B"]);
    expect(removeFeatureRow(["A"], 0)).toEqual([]);
  });
});

describe("plan limit rules, the same on every editor as on the server", () => {
  const limits = CREATE_PLAN_DEFAULTS.limits;
  it("take -1 as unlimited for visitors and AI conversations", () => {
    expect(planLimitErrors({ ...limits, visitorsPerMonth: -1, aiConversations: -1 })).toEqual({});
  });
  it("keep visitors in steps of 1,000", () => {
    expect(planLimitErrors({ ...limits, visitorsPerMonth: 25000 })).toEqual({});
    for (const visitors of [1500, 999, 0, -2]) {
      expect(Object.keys(planLimitErrors({ ...limits, visitorsPerMonth: visitors }))).toEqual([
        "limits.visitorsPerMonth",
      ]);
    }
  });
  it("refuse negative conversations and campaigns out of range", () => {
    expect(planLimitErrors({ ...limits, aiConversations: -5, campaigns: 1000 })).toEqual({
      "limits.campaigns": "Campaigns must be 1 to 999 (or -1 for unlimited)",
      "limits.aiConversations": "AI conversations must be 0 or more (or -1 for unlimited)",
    });
  });
});

describe("limitText", () => {
  it("reads -1 as unlimited", () => {
    expect(limitText(-1)).toBe("Unlimited");
    expect(limitText(100000)).toBe("1,00,000");
  });
});

describe("limit lines", () => {
  it("name each limit with the right number", () => {
    expect(limitCount(1, "campaign", "campaigns")).toBe("1 campaign");
    expect(limitLines({ campaigns: 5, visitorsPerMonth: 100000, aiConversations: -1 })).toEqual([
      "5 campaigns",
      "1,00,000 visitors/month",
      "Unlimited AI conversations",
    ]);
  });
});
