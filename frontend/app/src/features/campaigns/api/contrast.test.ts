import { describe, expect, it } from "vitest";
import type { PublicCampaign } from "../../../../../widget/src/types";
import { contrastAdvice, formatRatio } from "./contrast";

const popup = (primaryColor: string, secondaryColor: string) =>
  ({ buttonColor: "", design: { primaryColor, secondaryColor } }) as PublicCampaign["popup"];

describe("the designer's contrast advice", () => {
  it("says white fails on the default coral and that the popup writes near-black", () => {
    const a = contrastAdvice(popup("#ff6b6b", "#ee5a24"));
    expect(a?.whiteFails).toBeCloseTo(2.78, 2);
    expect(a?.onPrimary.textName).toBe("near-black");
    expect(a?.onPrimary.text).toBe("#050505");
    expect(a?.onPrimary.ratio).toBeGreaterThan(4.5);
    expect(a?.onHeader.textName).toBe("near-black");
  });

  it("has nothing to warn about on a dark colour", () => {
    const a = contrastAdvice(popup("#1e3a8a", "#312e81"));
    expect(a?.whiteFails).toBeNull();
    expect(a?.onPrimary.textName).toBe("white");
    expect(a?.onHeader.ratio).toBeGreaterThan(4.5);
  });

  it("finds a gradient no text colour reads on at both ends", () => {
    const a = contrastAdvice(popup("#ffffff", "#000000"));
    expect(a?.onHeader.ratio).toBeLessThan(4.5);
  });

  it("waits for a whole hex colour", () => {
    expect(contrastAdvice(popup("#ff6", "#12"))).toBeNull();
  });

  it("never rounds a failing ratio up to a passing one", () => {
    expect(formatRatio(4.4999)).toBe("4.49:1");
    expect(formatRatio(2.7797)).toBe("2.77:1");
    expect(formatRatio(21)).toBe("21.00:1");
  });
});
