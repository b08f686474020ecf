import type { PublicTest, PublicVariant } from "./types";

/**
 * The visitor's arm of `test`, the same on every page load and visit: a 32-bit multiplicative
 * hash of `<visitor id>:<test id>` (FNV-1a's shape with the golden-ratio multiplier, and a final
 * xor-shift and multiply so that its top bits depend on every character), read as a fraction of
 * 100 and walked through the arms' running weights (whole percent adding up to 100). An arm of
 * weight 0 is never chosen. Nothing when no test runs, and nothing for a visitor whose share
 * falls past the listed arms (the share of a paused arm, left out of the config): they get the
 * campaign as it is, counted for no arm, and every other visitor keeps their arm.
 */
export function variantOf(
  test: PublicTest | null | undefined,
  visitorId: string,
): PublicVariant | undefined {
  if (!test) return;
  const key = visitorId + ":" + test.id;
  const arms = test.variants as PublicVariant[];
  let h = 0;
  for (let i = 0; i < key.length; i += 1) h = Math.imul(h ^ key.charCodeAt(i), 0x9e3779b1);
  let r = ((Math.imul(h ^ (h >>> 16), 0x9e3779b1) >>> 0) / 2 ** 32) * 100;
  for (let i = 0; i < arms.length; i += 1)
    if ((r -= (arms[i] as PublicVariant).weight) < 0) return arms[i];
}
