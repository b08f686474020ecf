/** How conversations are labelled in the list and the detail header. */

/** Length at which a list item's last-message preview is cut. */
export const PREVIEW_CHARS = 80;

/** Converted / Dismissed by outcome, else Active / Completed by status. */
export function badgeOf(c: { outcome: string; status: string }): { label: string; color: string } {
  if (c.outcome === "conversion") return { label: "Converted", color: "green" };
  if (c.outcome === "dismissal") return { label: "Dismissed", color: "red" };
  if (c.status === "active") return { label: "Active", color: "blue" };
  return { label: "Completed", color: "gray" };
}

/** The last message cut at 80 characters. */
export function preview(text: string): string {
  const chars = Array.from(text);
  return chars.length > PREVIEW_CHARS ? `${chars.slice(0, PREVIEW_CHARS).join("")}…` : text;
}
