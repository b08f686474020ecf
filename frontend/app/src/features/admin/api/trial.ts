/** The Trial tab's settings and their bounds. */

export interface TrialSettingsValues {
  trialDurationDays: number;
  trialCampaignLimit: number;
  trialVisitorLimit: number;
  autoStartTrial: boolean;
  trialFeatures: string[];
}

export const TRIAL_FEATURES = [
  { value: "basic_conversations", label: "Basic Conversations" },
  { value: "basic_analytics", label: "Basic Analytics" },
  { value: "single_campaign", label: "Single Campaign" },
  { value: "campaign_creation", label: "Campaign Creation" },
  { value: "email_support", label: "Email Support" },
  { value: "widget_customization", label: "Widget Customization" },
];

export const TRIAL_BOUNDS = {
  trialDurationDays: { min: 1, max: 30 },
  trialCampaignLimit: { min: 1, max: 5 },
  trialVisitorLimit: { min: 100, step: 100 },
};

export const TRIAL_SAVED = "Trial settings saved successfully!";

/** Field errors of the trial form; empty when it may be saved. */
export function trialErrors(
  v: TrialSettingsValues,
): Partial<Record<keyof TrialSettingsValues, string>> {
  const errors: Partial<Record<keyof TrialSettingsValues, string>> = {};
  const { trialDurationDays: d, trialCampaignLimit: c, trialVisitorLimit: n } = v;
  if (!Number.isInteger(d) || d < 1 || d > 30) errors.trialDurationDays = "Between 1 and 30 days";
  if (!Number.isInteger(c) || c < 1 || c > 5)
    errors.trialCampaignLimit = "Between 1 and 5 campaigns";
  if (!Number.isInteger(n) || n < 100 || n % 100 !== 0) {
    errors.trialVisitorLimit = "At least 100, in steps of 100";
  }
  return errors;
}
