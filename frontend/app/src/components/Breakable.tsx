import { Fragment, type ReactNode } from "react";

/** Where a URL or an email may wrap: after a slash, dot, query mark or joiner, before an @. */
const BREAK_AFTER = /([/.?&=#_-]+)/;

/**
 * A long URL or email with wrap opportunities at its separators (`<wbr>`), so a narrow column
 * wraps it at `/`, `.`, `@`… instead of cutting a word at any letter; a single part still longer
 * than the column wraps anywhere as a last resort.
 */
export function Breakable({ text }: { text: string }) {
  const parts: ReactNode[] = [];
  text.split("@").forEach((side, i) => {
    if (i > 0) parts.push(<wbr key={`at-${i}`} />, "@");
    side.split(BREAK_AFTER).forEach((piece, j) => {
      if (piece === "") return;
      parts.push(<Fragment key={`${i}-${j}`}>{piece}</Fragment>);
      if (BREAK_AFTER.test(piece)) parts.push(<wbr key={`${i}-${j}-wbr`} />);
    });
  });
  return <span style={{ overflowWrap: "anywhere" }}>{parts}</span>;
}
