/** What `GET /api/widget/campaigns/{id}/config` answers (see the OpenAPI document). */
export interface PublicField {
  name: string;
  label: string;
  type: string;
  required: boolean;
  placeholder: string;
}

export interface PublicForm {
  id: string;
  name: string;
  type: string;
  title: string;
  subtitle: string;
  buttonText: string;
  successMessage: string;
  fields: PublicField[];
}

export interface TrustBadge {
  icon: string;
  text: string;
}

export interface PublicCampaign {
  id: string;
  exitIntent: { enabled: boolean; sensitivity: string; delay: number; cooldown: number };
  popup: {
    title: string;
    message: string;
    buttonText: string;
    buttonColor: string;
    backgroundColor: string;
    textColor: string;
    showCloseButton: boolean;
    design: {
      maxWidth: number;
      padding: number;
      borderRadius: number;
      fontFamily: string;
      headerTitle: string;
      headerSubtitle: string;
      primaryColor: string;
      secondaryColor: string;
      popupSize: string;
      formTitle: string;
      formSubtitle: string;
      submitButtonText: string;
      showTrustBadges: boolean;
      trustBadges: TrustBadge[];
    };
  };
  targeting: {
    devices: string[];
    minTimeOnPage: number;
    maxDisplaysPerSession: number;
    cooldownMinutes: number;
    excludePages: string[];
    includePages: string[];
  };
  greeting: string;
  emailCapture: PublicForm;
}

/** `fetch` and `JSON.parse` that work whatever the page did to its own (see the loader). */
export interface Realm {
  fetch: typeof fetch;
  /** The value, or a promise of it. */
  parse: (text: string) => unknown;
}

/** What the loader hands the popup chunk. */
export interface OpenOptions {
  api: string;
  realm: Realm;
  campaign: PublicCampaign;
  visitorId: string;
  sessionId: string;
  device: string;
  /** Called once the visitor became a lead (suppresses the popup from then on). */
  onConverted: () => void;
  onClose: () => void;
  /** The dashboard's preview (see `preview()` in popup.ts); absent on sites. */
  preview?: PreviewOptions;
}

/** Where and with what the dashboard's preview draws the popup. */
export interface PreviewOptions {
  /** The preview's box: the popup is drawn in it, at its full size, not modal. */
  container: HTMLElement;
  /** A sample exchange shown under the greeting. */
  messages?: { role: "assistant" | "user"; text: string }[];
}
