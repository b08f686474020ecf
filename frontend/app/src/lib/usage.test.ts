import { describe, expect, it } from "vitest";
import { usageMeter, usagePercent } from "./usage";

describe("usage meters", () => {
  it("cap at 100 %", () => {
    expect(usagePercent(5, 10)).toBe(50);
    expect(usagePercent(15, 10)).toBe(100);
    expect(usagePercent(0, 0)).toBe(0);
    expect(usagePercent(3, -1)).toBe(0);
  });

  it("draw any usage at least as a sliver, and nothing as nothing", () => {
    expect(usageMeter(38, 10_000).width).toBe(2);
    expect(usageMeter(38, 10_000).percent).toBeCloseTo(0.38);
    expect(usageMeter(0, 10_000).width).toBe(0);
    expect(usageMeter(5, 10).width).toBe(50);
  });

  it("colour by meaning: a full plan is a calm state to act on, not an alarm", () => {
    expect(usageMeter(38, 10_000)).toMatchObject({ level: "normal", color: "indigo" });
    expect(usageMeter(8, 10)).toMatchObject({ level: "near", color: "yellow.5" });
    expect(usageMeter(1, 1)).toMatchObject({ level: "full", color: "yellow.6" });
    expect(usageMeter(3, 1)).toMatchObject({ level: "over", color: "orange.6" });
    expect(usageMeter(0, 0).level).toBe("normal");
    expect(usageMeter(500, -1)).toMatchObject({ level: "normal", width: 2 });
    for (const c of [1, 38, 9_999, 10_000, 20_000])
      expect(usageMeter(c, 10_000).color).not.toMatch(/^red/);
  });
});
