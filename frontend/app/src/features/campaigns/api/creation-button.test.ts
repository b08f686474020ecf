import { describe, expect, it } from "vitest";
import type { Usage } from "../../../lib/usage";
import { creationButton } from "./creation-button";

const usage = (status: Usage["plan"]["status"], current: number, limit: number): Usage => ({
  plan: { planId: "basic", status },
  campaigns: { current, limit },
  visitors: { current: 0, limit: 1000, stopAt: 1100, resetDate: "2026-12-01T00:00:00Z" },
});

describe("the plan-driven creation button", () => {
  it("follows the plan state", () => {
    expect(creationButton(usage("free", 0, 0))).toEqual({
      label: "Upgrade to Create",
      to: "/billing",
    });
    expect(creationButton(usage("active", 0, 1))).toEqual({
      label: "New Campaign",
      to: "/campaigns/create",
    });
    expect(creationButton(usage("active", 1, 1))).toEqual({
      label: "Upgrade for More",
      to: "/billing",
    });
    expect(creationButton(usage("trial", 0, 1)).label).toBe("New Campaign");
  });
});
