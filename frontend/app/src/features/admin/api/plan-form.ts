/** The plan editors' rules: defaults, presets, the name rule, feature entry and what is sent. */

export interface PlanLimitsValues {
  campaigns: number;
  visitorsPerMonth: number;
  /** -1 means unlimited. */
  aiConversations: number;
  customBranding: boolean;
  apiAccess: boolean;
  whiteLabel: boolean;
  prioritySupport: boolean;
  phoneSupport: boolean;
}

export interface PlanFormValues {
  name: string;
  displayName: string;
  price: number;
  currency: string;
  interval: string;
  features: string[];
  limits: PlanLimitsValues;
  popular: boolean;
  active: boolean;
  sortOrder: number;
}

/** Currencies the create screen offers; the edit screen takes any text. */
export const CURRENCIES = ["INR", "USD", "EUR"] as const;
export const INTERVALS = [
  { value: "monthly", label: "Monthly" },
  { value: "yearly", label: "Yearly" },
];

/** The five permission toggles, in the order the screens list them. */
export const PLAN_FLAGS = [
  { key: "customBranding", label: "Custom Branding" },
  { key: "apiAccess", label: "API Access" },
  { key: "whiteLabel", label: "White Label" },
  { key: "prioritySupport", label: "Priority Support" },
  { key: "phoneSupport", label: "Phone Support" },
] as const;

const NO_FLAGS = {
  customBranding: false,
  apiAccess: false,
  whiteLabel: false,
  prioritySupport: false,
  phoneSupport: false,
};

/** A new plan on the Create Plan screen. */
export const CREATE_PLAN_DEFAULTS: PlanFormValues = {
  name: "",
  displayName: "",
  price: 0,
  currency: "INR",
  interval: "monthly",
  features: [],
  limits: { campaigns: 1, visitorsPerMonth: 10000, aiConversations: 1000, ...NO_FLAGS },
  popular: false,
  active: true,
  sortOrder: 0,
};

/** A new plan in the plan list's create dialog (smaller visitor and conversation limits). */
export const DIALOG_PLAN_DEFAULTS: PlanFormValues = {
  ...CREATE_PLAN_DEFAULTS,
  limits: { ...CREATE_PLAN_DEFAULTS.limits, visitorsPerMonth: 1000, aiConversations: 100 },
};

/** Monthly visitors go in steps of this many (or -1 for unlimited), as the server checks. */
export const VISITORS_STEP = 1000;

/**
 * The Create Plan screen's input hints. The two limits that may be -1 (unlimited) carry only a
 * step: a minimum would turn a typed -1 into that minimum.
 */
export const CREATE_PLAN_BOUNDS = {
  price: { min: 0 },
  sortOrder: { min: 0 },
  campaigns: { min: 1, max: 999 },
  visitorsPerMonth: { step: VISITORS_STEP },
  aiConversations: { step: 100 },
};

export interface PlanPreset {
  label: string;
  price: number;
  limits: PlanLimitsValues;
}

/** Quick Presets: custom branding and priority support for all but Starter; the rest Enterprise only. */
export const PLAN_PRESETS: PlanPreset[] = [
  {
    label: "Starter",
    price: 999,
    limits: { campaigns: 1, visitorsPerMonth: 5000, aiConversations: 500, ...NO_FLAGS },
  },
  {
    label: "Professional",
    price: 2999,
    limits: {
      campaigns: 5,
      visitorsPerMonth: 25000,
      aiConversations: 2500,
      ...NO_FLAGS,
      customBranding: true,
      prioritySupport: true,
    },
  },
  {
    label: "Enterprise",
    price: 9999,
    limits: {
      campaigns: 25,
      visitorsPerMonth: 100000,
      aiConversations: 10000,
      customBranding: true,
      apiAccess: true,
      whiteLabel: true,
      prioritySupport: true,
      phoneSupport: true,
    },
  },
];

/** The internal name as typed: lowercase, spaces become hyphens. */
export function planName(input: string): string {
  return input.toLowerCase().replace(/\s+/g, "-");
}

/** A preset over the current form: its name (lowercase), display name, price and limits. */
export function applyPreset(values: PlanFormValues, preset: PlanPreset): PlanFormValues {
  return {
    ...values,
    name: planName(preset.label),
    displayName: preset.label,
    price: preset.price,
    limits: { ...preset.limits },
  };
}

/** Adds a typed feature: trimmed; empty input and duplicates leave the list as it is. */
export function addFeature(features: string[], input: string): string[] {
  const feature = input.trim();
  if (feature === "" || features.includes(feature)) return features;
  return [...features, feature];
}

/** The Create Plan screen's check before sending; null when the plan may be sent. */
export function createPlanError(values: PlanFormValues): string | null {
  if (values.name.trim() === "" || values.displayName.trim() === "") {
    return "Plan name and display name are required";
  }
  if (values.features.every((f) => f.trim() === "")) return "At least one feature is required";
  return null;
}

/**
 * The limit rules every plan editor applies before sending, the same the server applies on create
 * and edit; field errors keyed as the server keys them. Empty when the limits may be sent.
 */
export function planLimitErrors(limits: PlanLimitsValues): Record<string, string> {
  const errors: Record<string, string> = {};
  const campaigns = Math.round(numberOrZero(limits.campaigns));
  const visitors = Math.round(numberOrZero(limits.visitorsPerMonth));
  const ai = Math.round(numberOrZero(limits.aiConversations));
  if (campaigns !== -1 && (campaigns < 1 || campaigns > 999)) {
    errors["limits.campaigns"] = "Campaigns must be 1 to 999 (or -1 for unlimited)";
  }
  if (visitors !== -1 && (visitors < VISITORS_STEP || visitors % VISITORS_STEP !== 0)) {
    errors["limits.visitorsPerMonth"] =
      "Visitors per month must be a multiple of 1,000 (1,000 or more), or -1 for unlimited";
  }
  if (ai !== -1 && ai < 0) {
    errors["limits.aiConversations"] = "AI conversations must be 0 or more (or -1 for unlimited)";
  }
  return errors;
}

/** A number field's value, or 0 when it is not a number. */
export function numberOrZero(value: unknown): number {
  const n = typeof value === "number" ? value : Number.parseFloat(String(value));
  return Number.isFinite(n) ? n : 0;
}

/** What goes to the server: blank features dropped, numbers that are not numbers sent as 0. */
export function planBody(values: PlanFormValues): PlanFormValues {
  return {
    ...values,
    name: values.name.trim(),
    displayName: values.displayName.trim(),
    currency: values.currency.trim(),
    price: Math.round(numberOrZero(values.price)),
    sortOrder: Math.round(numberOrZero(values.sortOrder)),
    features: values.features.map((f) => f.trim()).filter((f) => f !== ""),
    limits: {
      ...values.limits,
      campaigns: Math.round(numberOrZero(values.limits.campaigns)),
      visitorsPerMonth: Math.round(numberOrZero(values.limits.visitorsPerMonth)),
      aiConversations: Math.round(numberOrZero(values.limits.aiConversations)),
    },
  };
}

/** The edit screen's feature rows: one empty row when the plan has none. */
export function featureRows(features: string[]): string[] {
  return features.length === 0 ? [""] : [...features];
}

/** Removes a feature row, the last one too ("Add Feature" makes a new one). */
export function removeFeatureRow(rows: string[], index: number): string[] {
  return rows.filter((_, i) => i !== index);
}

/** A plan limit in words: -1 is unlimited. */
export function limitText(n: number): string {
  return n === -1 ? "Unlimited" : n.toLocaleString("en-IN");
}

/** A limit with its noun: "1 campaign", "5 campaigns", "Unlimited AI conversations". */
export function limitCount(n: number, one: string, many: string): string {
  if (n === -1) return `Unlimited ${many}`;
  return `${n.toLocaleString("en-IN")} ${n === 1 ? one : many}`;
}

/** A plan's three limits in words, in the order the screens list them. */
export function limitLines(limits: {
  campaigns: number;
  visitorsPerMonth: number;
  aiConversations: number;
}): string[] {
  return [
    limitCount(limits.campaigns, "campaign", "campaigns"),
    limitCount(limits.visitorsPerMonth, "visitor/month", "visitors/month"),
    limitCount(limits.aiConversations, "AI conversation", "AI conversations"),
  ];
}
