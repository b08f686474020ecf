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
