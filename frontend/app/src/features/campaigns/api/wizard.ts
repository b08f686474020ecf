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

export type BasicErrors = Partial<Record<"name" | "websiteUrl", string>>;

/** The Basic Info step's field errors, with the server's rules and wording. */
export function basicErrors(draft: Pick<WizardDraft, "name" | "websiteUrl">): BasicErrors {
  const errors: BasicErrors = {};
  const name = draft.name.trim();
  if (name === "") errors.name = "Campaign name is required";
  else if ([...name].length > 120) errors.name = "Campaign name must be at most 120 characters";
  const url = draft.websiteUrl.trim();
  if (url === "") errors.websiteUrl = "Website URL is required";
  else if (!isWebsite(url))
    errors.websiteUrl = "Please enter a valid website URL, such as https://www.example.in";
  return errors;
}

/** An absolute http(s) URL with a host, at most 500 characters (as the server checks it). */
export function isWebsite(value: string): boolean {
  if (value.length > 500) return false;
  try {
    const u = new URL(value);
    return (u.protocol === "http:" || u.protocol === "https:") && u.hostname !== "";
  } catch {
    return false;
  }
}

/** The errors a step shows (only the basic step and targeting have any). */
export function stepErrors(step: StepKey, draft: WizardDraft): Record<string, string> {
  if (step === "basic") return basicErrors(draft);
  if (step === "targeting" && draft.settings.targeting.devices.length === 0)
    return { devices: "Choose at least one device." };
  return {};
}
