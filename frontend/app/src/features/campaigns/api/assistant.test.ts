import { describe, expect, it } from "vitest";
import { askedAgo, matchShare, timesAsked } from "./assistant";

describe("the unanswered list's wording", () => {
  const now = new Date("2026-11-23T12:00:00Z");

  it("says how long ago a question was asked", () => {
    expect(askedAgo("2026-11-23T11:59:30Z", now)).toBe("just now");
    expect(askedAgo("2026-11-23T11:55:00Z", now)).toBe("5 min ago");
    expect(askedAgo("2026-11-23T09:00:00Z", now)).toBe("3 h ago");
    expect(askedAgo("2026-11-22T10:00:00Z", now)).toBe("yesterday");
    expect(askedAgo("2026-11-20T12:00:00Z", now)).toBe("3 days ago");
    expect(askedAgo("2026-10-01T12:00:00Z", now)).toBe("1 Oct 2026");
  });

  it("counts the times asked and the share of a match", () => {
    expect(timesAsked(1)).toBe("asked once");
    expect(timesAsked(1200)).toBe("asked 1,200 times");
    expect(matchShare(0.9)).toBe("90% match");
    expect(matchShare(1)).toBe("100% match");
  });
});
