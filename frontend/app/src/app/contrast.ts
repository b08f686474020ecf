import {
  darken,
  luminance,
  toRgba,
  type CSSVariablesResolver,
  type MantineTheme,
} from "@mantine/core";

/** WCAG contrast ratio of two colours. */
export function contrast(a: string, b: string): number {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (hi + 0.05) / (lo + 0.05);
}

/** A colour as a solid hex value. */
export function hex(color: string): string {
  const { r, g, b } = toRgba(color);
  return `#${[r, g, b].map((c) => Math.round(c).toString(16).padStart(2, "0")).join("")}`;
}

/** `color` over white at `alpha`, as a solid hex colour. */
export function tint(color: string, alpha: number): string {
  const { r, g, b } = toRgba(color);
  const mix = (c: number) => c * alpha + 255 * (1 - alpha);
  return hex(`rgb(${mix(r)}, ${mix(g)}, ${mix(b)})`);
}

/** The first of `start`, then ever darker versions of it, that reaches 4.5:1 against `background`. */
export function readableOn(start: string, background: string): string {
  let c = start;
  for (let i = 0; i < 20 && contrast(c, background) < 4.5; i += 1)
    c = darken(start, (i + 1) * 0.05);
  return c;
}

/**
 * Mantine's light-scheme colours, adjusted so text reaches WCAG AA (4.5:1): white on filled
 * buttons and badges, the light variant's text on its tinted background, coloured text on white,
 * and dimmed text (gray 7 instead of 6).
 */
export const contrastResolver: CSSVariablesResolver = (theme: MantineTheme) => {
  const light: Record<string, string> = { "--mantine-color-dimmed": theme.colors.gray[7] };
  for (const [name, shades] of Object.entries(theme.colors)) {
    if (name === "dark") continue;
    const filled = readableOn(shades[6], "#ffffff");
    const tinted = tint(filled, 0.1);
    light[`--mantine-color-${name}-filled`] = filled;
    light[`--mantine-color-${name}-filled-hover`] = darken(filled, 0.1);
    light[`--mantine-color-${name}-text`] = filled;
    light[`--mantine-color-${name}-outline`] = filled;
    light[`--mantine-color-${name}-light`] = tinted;
    light[`--mantine-color-${name}-light-hover`] = tint(filled, 0.14);
    light[`--mantine-color-${name}-light-color`] = readableOn(shades[8], tint(filled, 0.14));
  }
  return { variables: {}, light, dark: {} };
};
