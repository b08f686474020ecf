import type { CSSProperties } from "react";

/**
 * Links and error text in readable shades: Mantine's own defaults, indigo 6 for links and red 6
 * for errors, fall short of 4.5:1. Errors take the red the contrast resolver made readable on
 * white; links, which also sit on the grey page background, indigo 8. Set on each layout's root
 * and on dialogs, which render outside it; everything inside inherits them.
 */
export const READABLE_TEXT = {
  "--mantine-color-anchor": "var(--mantine-color-indigo-8)",
  "--mantine-color-error": "var(--mantine-color-red-text)",
} as CSSProperties;

/** Names for a pagination's arrow buttons, which Mantine leaves unnamed. */
export function paginationControlLabel(control: "first" | "previous" | "last" | "next") {
  return { "aria-label": `${control.charAt(0).toUpperCase()}${control.slice(1)} page` };
}

/**
 * Props for a table's sideways-scrolling box: focusable and named, so keyboard users can scroll a
 * table that holds no link or button of its own.
 */
export function scrollRegion(label: string) {
  return { viewportProps: { tabIndex: 0, role: "region", "aria-label": label } };
}
