import { describe, expect, it } from "vitest";
import { displayGapMs } from "../src/loader";
import type { PublicCampaign } from "../src/types";

function campaign(cooldown: number, cooldownMinutes: number): PublicCampaign {
  return {
    exitIntent: { enabled: true, sensitivity: "medium", delay: 0, cooldown },
    targeting: { cooldownMinutes },
  } as unknown as PublicCampaign;
}

describe("the wait between two displays", () => {
  it("reads exitIntent.cooldown in minutes, as the server and the dashboard do (#15)", () => {
    // As seconds (the old reading) this would be 60 000 ms, the targeting cooldown.
    expect(displayGapMs(campaign(5, 1))).toBe(5 * 60_000);
    expect(displayGapMs(campaign(60, 0))).toBe(60 * 60_000);
  });

  it("takes the longer of the two cooldowns", () => {
    expect(displayGapMs(campaign(1, 30))).toBe(30 * 60_000);
    expect(displayGapMs(campaign(45, 30))).toBe(45 * 60_000);
  });
});
