import { contrastRatio, WHITE } from "../../../../../widget/src/contrast";
import { popupColours } from "../../../../../widget/src/popup";
import type { PublicCampaign } from "../../../../../widget/src/types";

/** WCAG AA's contrast for normal text. */
export const AA = 4.5;

export interface Contrast {
  /** The colour the text is on, and the text colour the popup writes on it. */
  background: string;
  text: string;
  /** "white" or "near-black". */
  textName: string;
  ratio: number;
}

export interface ContrastAdvice {
  /** Text on the primary colour: the submit button and the visitor's chat bubbles. */
  onPrimary: Contrast;
  /** The header's text, at its worst stop of the primary → secondary gradient. */
  onHeader: Contrast;
  /** White on the primary colour, when it fails AA (what the owner may expect the popup to write). */
  whiteFails: number | null;
}

const name = (text: string) => (text === WHITE ? "white" : "near-black");

/** `2.7797` → "2.77:1": never rounded up (a failing 4.499 is not shown as 4.50). */
export function formatRatio(ratio: number): string {
  return `${(Math.floor(ratio * 100) / 100).toFixed(2)}:1`;
}

/**
 * The contrast of the popup's text on the owner's colours, with the text colour the widget picks
 * (white or near-black, `contrast.ts`); null while a colour is not a hex colour.
 */
export function contrastAdvice(popup: PublicCampaign["popup"]): ContrastAdvice | null {
  const c = popupColours(popup);
  const onPrimary = contrastRatio(c.onPrimary, c.primary);
  const headPrimary = contrastRatio(c.onHead, c.primary);
  const headSecondary = contrastRatio(c.onHead, c.secondary);
  const white = contrastRatio(WHITE, c.primary);
  if (onPrimary === null || headPrimary === null || headSecondary === null || white === null)
    return null;
  const worstHead = headSecondary < headPrimary ? c.secondary : c.primary;
  return {
    onPrimary: {
      background: c.primary,
      text: c.onPrimary,
      textName: name(c.onPrimary),
      ratio: onPrimary,
    },
    onHeader: {
      background: worstHead,
      text: c.onHead,
      textName: name(c.onHead),
      ratio: Math.min(headPrimary, headSecondary),
    },
    whiteFails: white < AA ? white : null,
  };
}
