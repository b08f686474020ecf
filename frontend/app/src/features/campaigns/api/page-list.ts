/**
 * The pages a campaign targets or skips, from the edit form's text box: one URL or path per
 * line, surrounding spaces trimmed and blank lines dropped.
 */
export function parsePages(text: string): string[] {
  return text
    .split("\n")
    .map((l) => l.trim())
    .filter((l) => l !== "");
}
