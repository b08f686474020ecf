import type { CampaignSettings } from "./campaigns";

type Design = CampaignSettings["popup"]["design"];

/** The standalone designer's settings: the popup design plus the greeting, flattened. */
export interface DesignerSettings {
  headerTitle: string;
  headerSubtitle: string;
  primaryColor: string;
  secondaryColor: string;
  borderRadius: number;
  popupSize: string;
  fontFamily: string;
  initialMessage: string;
  submitButtonText: string;
  showTrustBadges: boolean;
  trustBadges: Design["trustBadges"];
  formTitle: string;
  formSubtitle: string;
}

export function toDesigner(s: CampaignSettings): DesignerSettings {
  const d = s.popup.design;
  return {
    headerTitle: d.headerTitle,
    headerSubtitle: d.headerSubtitle,
    primaryColor: d.primaryColor,
    secondaryColor: d.secondaryColor,
    borderRadius: d.borderRadius,
    popupSize: d.popupSize,
    fontFamily: d.fontFamily,
    initialMessage: s.aiSettings.initialMessage,
    submitButtonText: d.submitButtonText,
    showTrustBadges: d.showTrustBadges,
    trustBadges: d.trustBadges,
    formTitle: d.formTitle,
    formSubtitle: d.formSubtitle,
  };
}

export function fromDesigner(s: CampaignSettings, v: DesignerSettings): CampaignSettings {
  return {
    ...s,
    aiSettings: { ...s.aiSettings, initialMessage: v.initialMessage },
    popup: {
      ...s.popup,
      design: {
        ...s.popup.design,
        headerTitle: v.headerTitle,
        headerSubtitle: v.headerSubtitle,
        primaryColor: v.primaryColor,
        secondaryColor: v.secondaryColor,
        borderRadius: v.borderRadius,
        popupSize: v.popupSize,
        fontFamily: v.fontFamily,
        submitButtonText: v.submitButtonText,
        showTrustBadges: v.showTrustBadges,
        trustBadges: v.trustBadges,
        formTitle: v.formTitle,
        formSubtitle: v.formSubtitle,
      },
    },
  };
}

/** Colour presets offered in the designer, each a primary and secondary colour. */
export const COLOR_PRESETS = [
  { name: "Fire Red", primary: "#ff6b6b", secondary: "#ee5a24" },
  { name: "Ocean Blue", primary: "#3742fa", secondary: "#2f3542" },
  { name: "Forest Green", primary: "#2ed573", secondary: "#1e90ff" },
  { name: "Sunset Orange", primary: "#ff9500", secondary: "#ff6348" },
];

export const RADIUS_PRESETS = [
  { value: 0, label: "Sharp" },
  { value: 8, label: "8" },
  { value: 12, label: "12" },
  { value: 16, label: "16" },
  { value: 24, label: "24" },
];

export const FONTS = ["Inter", "Arial", "Helvetica", "Georgia", "Times New Roman"];

/** Trust badges the designer can add in one click. */
export const QUICK_BADGES = [
  { icon: "🔒", text: "Secure" },
  { icon: "⚡", text: "Instant" },
  { icon: "🎁", text: "Free" },
  { icon: "✅", text: "Verified" },
  { icon: "🤝", text: "Trusted" },
  { icon: "🛡️", text: "Guaranteed" },
];
