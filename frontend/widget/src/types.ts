import type { components } from "./api/schema";

/**
 * What `GET /api/widget/campaigns/{id}/config` answers, as generated from the OpenAPI document
 * into `api/schema.d.ts` (`cargo xtask openapi`; `cargo xtask test` fails when it is stale).
 * Types only: nothing of it reaches the bundle.
 */
type Schemas = components["schemas"];

export type PublicConfig = Schemas["PublicConfigOut"];
export type PublicCampaign = Schemas["PublicCampaign"];
export type PublicForm = Schemas["PublicForm"];
export type PublicField = Schemas["PublicField"];
export type TrustBadge = Schemas["TrustBadge"];
/** The running A/B test in the public config: its unpaused arms, the control first. */
export type PublicTest = Schemas["WidgetTest"];

/**
 * What an arm of an A/B test changes: a partial campaign `settings` object, laid over the
 * campaign (objects merge key by key; arrays and other values replace). The widget applies
 * - `popup` (texts, colours, design, layout) onto `campaign.popup`, and its `design.formTitle`,
 *   `formSubtitle` and `submitButtonText` onto `campaign.emailCapture` (the popup's form);
 * - `aiSettings.initialMessage` as `campaign.greeting` (blank: the default greeting);
 * - `exitIntent.sensitivity` and `exitIntent.delay` in the loader (when the popup opens).
 * `forms` (the conversion forms the assistant offers) are the server's: it knows the arm from the
 * conversation's `variantId`.
 */
export interface Overrides {
  popup?: Partial<Omit<PublicCampaign["popup"], "design">> & {
    design?: Partial<PublicCampaign["popup"]["design"]>;
  };
  aiSettings?: { initialMessage?: string };
  forms?: Record<string, unknown>;
  exitIntent?: { sensitivity?: string; delay?: number };
}

/** One arm of the running test; `overrides` as {@link Overrides} (`{}` for the control). */
export type PublicVariant = Omit<Schemas["WidgetVariant"], "overrides"> & { overrides: Overrides };

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
  /**
   * The visitor's arm of the campaign's running A/B test (the loader's `variantOf`): its
   * overrides are laid over `campaign` before the popup is drawn, and its id goes with the
   * conversation's start. Absent when no test runs.
   */
  variant?: { id: string; overrides: Overrides };
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

/*
 * A/B test arms in the dashboard's preview: `preview(container, campaign, messages, overrides)`
 * draws the campaign with an arm's `overrides` laid over it, exactly as a visitor assigned to that
 * arm sees it (omit them, or pass `{}`, for the control). Like every preview it sends nothing, so
 * nothing is counted for any arm. `withOverrides(campaign, overrides)` of popup.ts answers the
 * merged campaign itself, for callers that need it (e.g. to check its contrast).
 */
