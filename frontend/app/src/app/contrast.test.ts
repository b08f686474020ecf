import { DEFAULT_THEME } from "@mantine/core";
import { describe, expect, it } from "vitest";
import { contrast, contrastResolver, tint } from "./contrast";

describe("contrast resolver", () => {
  const light = contrastResolver(DEFAULT_THEME).light as Record<string, string>;

  it("gives every colour's text 4.5:1 on white and on its own light background", () => {
    for (const name of ["indigo", "green", "teal", "orange", "red", "gray", "yellow"]) {
      const filled = light[`--mantine-color-${name}-filled`] as string;
      expect(contrast(filled, "#ffffff"), name).toBeGreaterThanOrEqual(4.5);
      const onLight = light[`--mantine-color-${name}-light-color`] as string;
      const background = light[`--mantine-color-${name}-light-hover`] as string;
      expect(contrast(onLight, background), name).toBeGreaterThanOrEqual(4.5);
      expect(background).toMatch(/^#[0-9a-f]{6}$/);
    }
  });

  it("keeps the light background a tint of the colour", () => {
    expect(tint("#000000", 0.1)).toBe("#e6e6e6");
    expect(tint("rgba(255, 0, 0, 1)", 0.5)).toBe("#ff8080");
  });
});
