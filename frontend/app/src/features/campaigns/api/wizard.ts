import type { CampaignSettings } from "./campaigns";

export const STEPS = [
  { key: "basic", label: "Basic Info" },
  { key: "design", label: "Design" },
  { key: "targeting", label: "Targeting" },
  { key: "ai", label: "AI Assistant" },
] as const;

export type StepKey = (typeof STEPS)[number]["key"];

export interface WizardDraft {
  name: string;
  websiteUrl: string;
  settings: CampaignSettings;
}

/**
 * Whether a step counts as complete (shown with a green check): a name and website (basic),
 * a header title (design), at least one device (targeting), an initial message (ai).
 */
export function stepComplete(step: StepKey, draft: WizardDraft): boolean {
  switch (step) {
    case "basic":
      return draft.name.trim() !== "" && draft.websiteUrl.trim() !== "";
    case "design":
      return draft.settings.popup.design.headerTitle.trim() !== "";
    case "targeting":
      return draft.settings.targeting.devices.length > 0;
    case "ai":
      return draft.settings.aiSettings.initialMessage.trim() !== "";
  }
}

export const LIMIT_REWRITE =
  "You have reached your campaign limit. Please upgrade your plan to create more campaigns.";

/**
 * The message the wizard shows for a failed create: the server's message or a fallback, except
 * that any message about the campaign limit or upgrading becomes one plain request to upgrade.
 */
export function createErrorMessage(error: unknown): string {
  const body = (error ?? {}) as {
    message?: string;
    upgradeRequired?: boolean;
    isFreePlan?: boolean;
  };
  let message: string;
  if (body.upgradeRequired) {
    message = body.isFreePlan
      ? "You've reached your free plan limit. Upgrade to create more campaigns."
      : body.message || "Campaign limit exceeded. Please upgrade your plan.";
  } else {
    message = body.message || "Failed to create campaign";
  }
  const lower = message.toLowerCase();
  return lower.includes("campaign limit exceeded") || lower.includes("upgrade")
    ? LIMIT_REWRITE
    : message;
}

/** An integer from a number input; blank or unparsable becomes `fallback`, and never below `min`. */
export function intInput(value: string | number, fallback: number, min: number): number {
  const n = typeof value === "number" ? value : parseInt(value, 10);
  if (!Number.isFinite(n)) return fallback;
  return Math.max(min, Math.trunc(n));
}

/** "1 campaign" / "2 campaigns". */
export function campaignsWord(n: number): string {
  return `${n} campaign${n === 1 ? "" : "s"}`;
}
