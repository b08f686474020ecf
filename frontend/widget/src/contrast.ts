/**
 * Text colour for a background the owner picked: white or near-black, whichever reads (WCAG AA
 * asks 4.5:1 for normal text). Plain functions with no DOM, so the dashboard's designer can
 * import this file as well to show the ratio and warn.
 *
 * Near-black is `#050505`: the darkest grey for which one of the two always passes 4.5:1 on any
 * single colour (the worst background, a mid grey-ish luminance of 0.23, gives 4.51:1 with it;
 * with `#111` some backgrounds would pass with neither).
 */

export const WHITE = "#ffffff";
export const NEAR_BLACK = "#050505";

/** `#rgb` or `#rrggbb` as [r, g, b] in 0–255; null for anything else. */
export function parseHex(color: string): [number, number, number] | null {
  const m = /^#?([0-9a-f]{3}|[0-9a-f]{6})$/i.exec(color.trim());
  if (!m) return null;
  let h = m[1] as string;
  if (h.length === 3) h = h.replace(/./g, "$&$&");
  const n = parseInt(h, 16);
  return [(n >> 16) & 255, (n >> 8) & 255, n & 255];
}

/** WCAG 2 relative luminance of a hex colour (0 black … 1 white); null when not a hex colour. */
export function luminance(color: string): number | null {
  const rgb = parseHex(color);
  if (!rgb) return null;
  const lin = (v: number) => {
    const s = v / 255;
    return s <= 0.04045 ? s / 12.92 : Math.pow((s + 0.055) / 1.055, 2.4);
  };
  return 0.2126 * lin(rgb[0]) + 0.7152 * lin(rgb[1]) + 0.0722 * lin(rgb[2]);
}

/** WCAG 2 contrast ratio of two hex colours (1 … 21); null when either is not a hex colour. */
export function contrastRatio(a: string, b: string): number | null {
  const la = luminance(a);
  const lb = luminance(b);
  if (la === null || lb === null) return null;
  return (Math.max(la, lb) + 0.05) / (Math.min(la, lb) + 0.05);
}

/**
 * White or near-black for text on every one of `backgrounds` (a gradient's stops): the one
 * whose worst ratio over them is higher. White when no background is a hex colour.
 */
export function readableText(...backgrounds: string[]): string {
  let white = 21;
  let black = 21;
  for (let i = 0; i < backgrounds.length; i += 1) {
    const bg = backgrounds[i] as string;
    const w = contrastRatio(WHITE, bg);
    const k = contrastRatio(NEAR_BLACK, bg);
    if (w === null || k === null) continue;
    white = Math.min(white, w);
    black = Math.min(black, k);
  }
  return black > white ? NEAR_BLACK : WHITE;
}
