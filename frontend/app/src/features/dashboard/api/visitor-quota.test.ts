import { describe, expect, it } from "vitest";
import { visitorQuotaBanner } from "./visitor-quota";

const resetDate = "2026-12-01T00:00:00Z";
const visitors = (current: number, limit = 1000, stopAt = 1100) => ({
  current,
  limit,
  stopAt,
  resetDate,
});

describe("the visitor quota banner", () => {
  it("stays away below 80 % and on an unlimited plan", () => {
    expect(visitorQuotaBanner(visitors(0))).toBeNull();
    expect(visitorQuotaBanner(visitors(799))).toBeNull();
    expect(visitorQuotaBanner(visitors(5_000_000, -1, -1))).toBeNull();
  });

  it("warns from 80 %, with the share rounded down", () => {
    const at80 = visitorQuotaBanner(visitors(800));
    expect(at80?.level).toBe("warning");
    expect(at80?.title).toBe("You've used 80% of this month's visitors");
    expect(at80?.text).toContain("800 of 1,000 visitors");
    expect(at80?.text).toContain("until 1,100 visitors");
    expect(visitorQuotaBanner(visitors(999))?.title).toBe(
      "You've used 99% of this month's visitors",
    );
  });

  it("is the grace from the limit, saying where the popup stops", () => {
    const grace = visitorQuotaBanner(visitors(1000));
    expect(grace?.level).toBe("grace");
    expect(grace?.color).toBe("orange");
    expect(grace?.text).toContain("stops at 1,100 visitors");
    expect(visitorQuotaBanner(visitors(1099))?.level).toBe("grace");
  });

  it("is red once the popup stopped at stopAt", () => {
    const stopped = visitorQuotaBanner(visitors(1100));
    expect(stopped?.level).toBe("stopped");
    expect(stopped?.color).toBe("red");
    expect(stopped?.title).toBe("Your popup has stopped for this month");
    expect(visitorQuotaBanner(visitors(1250))?.level).toBe("stopped");
  });

  it("uses the server's stopAt, not a grace of its own", () => {
    expect(visitorQuotaBanner(visitors(110, 100, 110))?.level).toBe("stopped");
    expect(visitorQuotaBanner(visitors(110, 100, 120))?.level).toBe("grace");
    expect(visitorQuotaBanner(visitors(100, 100, 110))?.text).toContain("stops at 110 visitors");
  });

  it("says nothing for a plan without visitors (the free plan's own note covers it)", () => {
    expect(visitorQuotaBanner(visitors(0, 0, 0))).toBeNull();
    expect(visitorQuotaBanner(visitors(3, 0, 0))).toBeNull();
  });
});
