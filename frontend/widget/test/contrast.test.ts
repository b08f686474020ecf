import { describe, expect, it } from "vitest";
import { contrastRatio, NEAR_BLACK, readableText, WHITE } from "../src/contrast";

describe("readableText", () => {
  it("puts near-black on the default #ff6b6b, where white is 2.78:1", () => {
    expect(contrastRatio(WHITE, "#ff6b6b")).toBeCloseTo(2.78, 2);
    expect(readableText("#ff6b6b")).toBe(NEAR_BLACK);
    expect(contrastRatio(NEAR_BLACK, "#ff6b6b")!).toBeGreaterThanOrEqual(4.5);
  });

  it("keeps white on dark primaries", () => {
    expect(readableText("#1d4ed8")).toBe(WHITE);
    expect(readableText("#000")).toBe(WHITE);
    expect(readableText("#fff")).toBe(NEAR_BLACK);
  });

  it("passes 4.5:1 on every colour of a 4096-colour grid", () => {
    const hex = "0123456789abcdef";
    let worst = 21;
    for (let r = 0; r < 16; r += 1)
      for (let g = 0; g < 16; g += 1)
        for (let b = 0; b < 16; b += 1) {
          const bg = `#${hex[r]}${hex[g]}${hex[b]}`;
          worst = Math.min(worst, contrastRatio(readableText(bg), bg)!);
        }
    expect(worst).toBeGreaterThanOrEqual(4.5);
  });

  it("takes the worse stop of a gradient", () => {
    // White passes on the dark stop but not on the light one; near-black passes on both.
    const text = readableText("#1e3a8a", "#fbbf24");
    expect(Math.min(contrastRatio(text, "#1e3a8a")!, contrastRatio(text, "#fbbf24")!)).toBe(
      Math.max(
        Math.min(contrastRatio(WHITE, "#1e3a8a")!, contrastRatio(WHITE, "#fbbf24")!),
        Math.min(contrastRatio(NEAR_BLACK, "#1e3a8a")!, contrastRatio(NEAR_BLACK, "#fbbf24")!),
      ),
    );
  });

  it("answers white for colours it cannot read", () => {
    expect(contrastRatio("red", "#fff")).toBeNull();
    expect(readableText("rgb(1,2,3)")).toBe(WHITE);
  });
});
