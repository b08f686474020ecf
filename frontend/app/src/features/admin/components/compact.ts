import { useMediaQuery } from "@mantine/hooks";

/**
 * Whether lists show as stacked rows instead of tables: below 62em the content column is too
 * narrow for the tables' columns. Read at first render, so the table never flashes on phones.
 */
export function useCompactLists(): boolean {
  return Boolean(
    useMediaQuery("(max-width: 61.99em)", undefined, { getInitialValueInEffect: false }),
  );
}

/** A tab row that scrolls sideways on phones instead of wrapping onto a second line. */
export const TAB_LIST_STYLE = {
  flexWrap: "nowrap",
  overflowX: "auto",
  overflowY: "hidden",
} as const;

/** Tabs' side padding: narrower on phones, so a row of five still fits at 390 px. */
export const TAB_PX = { base: "xs", sm: "md" } as const;
