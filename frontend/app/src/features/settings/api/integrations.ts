import type { components } from "../../../api/schema";

export type Endpoint = components["schemas"]["EndpointOut"];
export type Delivery = components["schemas"]["DeliveryOut"];
export type EventType = components["schemas"]["EventType"];
export type EndpointIn = components["schemas"]["EndpointIn"];

/** A webhook (signed JSON posts to a URL) or a Mailchimp audience push. */
export type EndpointKind = "webhook" | "mailchimp";

/** The events an endpoint can choose, in the order the form lists them. */
export const EVENT_TYPES: { value: EventType; description: string }[] = [
  {
    value: "lead.created",
    description: "A visitor left their email: the customer, the form's fields, campaign and page",
  },
  {
    value: "lead.updated",
    description: "A customer's status or lead score changed",
  },
  {
    value: "conversation.completed",
    description: "A conversation with the assistant ended: transcript and outcome",
  },
  {
    value: "purchase.attributed",
    description: "An order was counted as a campaign's revenue",
  },
  {
    value: "campaign.limit_reached",
    description: "Your campaigns reached the plan's monthly visitors",
  },
];

/** The events a Mailchimp audience takes: it adds or updates members. */
export const MAILCHIMP_EVENTS: EventType[] = ["lead.created", "lead.updated"];

/** What the add/edit form holds. */
export interface EndpointDraft {
  kind: EndpointKind;
  url: string;
  description: string;
  eventTypes: EventType[];
  enabled: boolean;
  /** Mailchimp: left empty when editing to keep the saved key. */
  apiKey: string;
  listId: string;
}

export function emptyDraft(kind: EndpointKind): EndpointDraft {
  return {
    kind,
    url: "",
    description: "",
    eventTypes: kind === "mailchimp" ? [...MAILCHIMP_EVENTS] : ["lead.created"],
    enabled: true,
    apiKey: "",
    listId: "",
  };
}

/** The form's values for an endpoint being edited (a Mailchimp key is never shown back). */
export function draftOf(endpoint: Endpoint): EndpointDraft {
  const kind: EndpointKind = endpoint.kind === "mailchimp" ? "mailchimp" : "webhook";
  return {
    kind,
    url: kind === "webhook" ? endpoint.url : "",
    description: endpoint.description,
    eventTypes: [...endpoint.eventTypes],
    enabled: endpoint.enabled,
    apiKey: "",
    listId: endpoint.listId ?? "",
  };
}

/**
 * The body of `POST` (adding) or `PUT` (editing). The server checks every field and answers
 * its own messages; here only what was typed is trimmed, and an empty Mailchimp key on an edit
 * is left out so the saved one stays.
 */
export function endpointBody(draft: EndpointDraft, editing: boolean): EndpointIn {
  const common = {
    description: draft.description.trim(),
    eventTypes: EVENT_TYPES.map((t) => t.value).filter((t) => draft.eventTypes.includes(t)),
    enabled: draft.enabled,
  };
  if (draft.kind === "webhook") {
    return { ...(editing ? {} : { kind: "webhook" }), url: draft.url.trim(), ...common };
  }
  const apiKey = draft.apiKey.trim();
  return {
    ...(editing ? {} : { kind: "mailchimp" }),
    ...(apiKey || !editing ? { apiKey } : {}),
    listId: draft.listId.trim(),
    ...common,
  };
}

/** The badge of an attempt: how it ended. */
export function deliveryBadge(status: string): { label: string; color: string } {
  switch (status) {
    case "delivered":
      return { label: "Delivered", color: "green" };
    case "pending":
      return { label: "Retrying", color: "yellow" };
    case "failed":
      return { label: "Failed", color: "red" };
    default:
      return { label: status, color: "gray" };
  }
}

/** "85 ms", "1.2 s", "10 s". */
export function formatDuration(ms: number): string {
  if (ms < 1000) return `${Math.max(0, Math.round(ms))} ms`;
  const s = ms / 1000;
  return s < 10 ? `${s.toFixed(1)} s` : `${Math.round(s)} s`;
}

/** When the next retry is due, from now: "in 5 s", "in 30 min", "in 2 h"; "now" once due. */
export function retryIn(nextAttemptAt: string | null | undefined, now: Date): string | null {
  if (!nextAttemptAt) return null;
  const at = new Date(nextAttemptAt).getTime();
  if (Number.isNaN(at)) return null;
  const s = Math.round((at - now.getTime()) / 1000);
  if (s <= 0) return "now";
  if (s < 60) return `in ${s} s`;
  if (s < 3600) return `in ${Math.round(s / 60)} min`;
  const h = s / 3600;
  return `in ${h < 10 ? Math.round(h * 10) / 10 : Math.round(h)} h`;
}

const whenFormat = new Intl.DateTimeFormat("en-IN", {
  day: "numeric",
  month: "short",
  hour: "2-digit",
  minute: "2-digit",
  second: "2-digit",
  hour12: false,
});

/** When an attempt was made, to the second: "26 Nov, 11:40:05". */
export function formatWhen(iso: string): string {
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? "" : whenFormat.format(d);
}

/** The response code column: the HTTP status, or why there was none. */
export function responseCode(status: number | null | undefined): string {
  return status == null ? "No answer" : String(status);
}

/** The endpoint a log row belongs to, as the filter and the row name it. */
export function endpointName(endpoint: Endpoint): string {
  if (endpoint.description.trim()) return endpoint.description.trim();
  if (endpoint.kind === "mailchimp") return `Mailchimp audience ${endpoint.listId ?? ""}`.trim();
  return endpoint.url;
}

/** Until when the previous secret still signs, after a rotation; null when it no longer does. */
export function overlapUntil(endpoint: Pick<Endpoint, "previousSecretExpiresAt">, now: Date) {
  const iso = endpoint.previousSecretExpiresAt;
  if (!iso) return null;
  const at = new Date(iso);
  return at.getTime() > now.getTime() ? at : null;
}

/**
 * Verifying a delivery in Node (Standard Webhooks): the HMAC-SHA256 of `{id}.{timestamp}.{body}`,
 * keyed with the base64-decoded part of the secret after `whsec_`, must equal one of the `v1,`
 * signatures in `webhook-signature` (two during a rotation), and the timestamp must be within
 * five minutes.
 */
export const NODE_SNIPPET = `const crypto = require("node:crypto");

const TOLERANCE_SECONDS = 5 * 60;

// headers: the request's headers (lower-case names, as Node gives them);
// body: the raw request body as a string, exactly as received (not re-serialised JSON);
// secret: the endpoint's signing secret, whsec_...
function verifyWebhook(headers, body, secret) {
  const id = headers["webhook-id"];
  const timestamp = headers["webhook-timestamp"];
  const signatures = headers["webhook-signature"];
  if (!id || !timestamp || !signatures || !/^\\d+$/.test(timestamp)) return false;
  const age = Math.floor(Date.now() / 1000) - Number(timestamp);
  if (Math.abs(age) > TOLERANCE_SECONDS) return false;
  const key = Buffer.from(secret.replace(/^whsec_/, ""), "base64");
  const expected = crypto
    .createHmac("sha256", key)
    .update(\`\${id}.\${timestamp}.\${body}\`)
    .digest();
  // During a secret rotation the header carries two signatures, space-separated.
  return signatures.split(" ").some((entry) => {
    const [version, signature] = entry.split(",");
    if (version !== "v1" || !signature) return false;
    const given = Buffer.from(signature, "base64");
    return given.length === expected.length && crypto.timingSafeEqual(given, expected);
  });
}

// Express: app.post("/convertassist", express.text({ type: "*/*" }), (req, res) => {
//   if (!verifyWebhook(req.headers, req.body, process.env.CONVERTASSIST_WEBHOOK_SECRET)) {
//     return res.status(400).end();
//   }
//   const event = JSON.parse(req.body); // { id, type, timestamp, data }
//   res.status(204).end();
// });
`;

/** The same check in Python 3.9+ (standard library only). */
export const PYTHON_SNIPPET = `import base64
import hashlib
import hmac
import time

TOLERANCE_SECONDS = 5 * 60


# headers: the request's headers (Flask's and Django's request.headers ignore case);
# body: the raw request body as bytes, exactly as received;
# secret: the endpoint's signing secret, whsec_...
def verify_webhook(headers, body: bytes, secret: str) -> bool:
    msg_id = headers.get("webhook-id")
    timestamp = headers.get("webhook-timestamp")
    signatures = headers.get("webhook-signature")
    if not msg_id or not timestamp or not signatures or not timestamp.isdigit():
        return False
    if abs(time.time() - int(timestamp)) > TOLERANCE_SECONDS:
        return False
    key = base64.b64decode(secret.removeprefix("whsec_"))
    signed = f"{msg_id}.{timestamp}.".encode() + body
    expected = base64.b64encode(hmac.new(key, signed, hashlib.sha256).digest()).decode()
    # During a secret rotation the header carries two signatures, space-separated.
    for entry in signatures.split(" "):
        version, _, signature = entry.partition(",")
        if version == "v1" and hmac.compare_digest(signature, expected):
            return True
    return False


# Flask:
# @app.post("/convertassist")
# def convertassist():
#     if not verify_webhook(request.headers, request.get_data(), os.environ["CONVERTASSIST_WEBHOOK_SECRET"]):
#         abort(400)
#     event = request.get_json()  # {id, type, timestamp, data}
#     return "", 204
`;
