import { execFileSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import {
  deliveryBadge,
  draftOf,
  emptyDraft,
  endpointBody,
  endpointName,
  formatDuration,
  NODE_SNIPPET,
  overlapUntil,
  PYTHON_SNIPPET,
  responseCode,
  retryIn,
  type Endpoint,
} from "./integrations";

// The server's known vectors, computed once with the `standardwebhooks` package.
const ID = "msg_2KWPBgLlAfxdpx2AI54pPJ85f4W";
const TS = 1_674_087_231;
const BODY = `{"type":"lead.created","timestamp":"2023-01-19T00:13:51Z","data":{"email":"asha@example.in"},"id":"msg_2KWPBgLlAfxdpx2AI54pPJ85f4W"}`;
const SECRET = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";
const SIGNATURE = "v1,0fGzgqnGHT/RBI28CQlB/k/9GeASztYl5lu+70qf6gs=";
const OTHER_SECRET = "whsec_C2FVsBQIhrscChlQIMV+b5sSYspob7oD";
const OTHER_SIGNATURE = "v1,oPCilmeCdz/v14dNnDyfh9EjOvcEOSjRr8yR3WlsIUY=";

interface Case {
  signature: string;
  body?: string;
  secret?: string;
  /** Seconds after the signing time at which the receiver checks. */
  age?: number;
  timestamp?: string;
}

/** What the Node snippet says about each case, run as the owner would run it, at a fixed clock. */
function nodeVerdicts(cases: Case[]): boolean[] {
  const program = `${NODE_SNIPPET}
const verdicts = JSON.parse(process.argv[1]).map((c) => {
  Date.now = () => c.now * 1000;
  return verifyWebhook({ "webhook-id": c.id, "webhook-timestamp": c.timestamp, "webhook-signature": c.signature }, c.body, c.secret);
});
process.stdout.write(JSON.stringify(verdicts));`;
  const out = execFileSync(process.execPath, ["-e", program, JSON.stringify(cases.map(full))], {
    encoding: "utf8",
  });
  return JSON.parse(out) as boolean[];
}

/** The same for the Python snippet. */
function pythonVerdicts(cases: Case[]): boolean[] {
  const program = `${PYTHON_SNIPPET}
import json, sys
verdicts = []
for c in json.loads(sys.argv[1]):
    time.time = lambda: float(c["now"])
    verdicts.append(verify_webhook({"webhook-id": c["id"], "webhook-timestamp": c["timestamp"], "webhook-signature": c["signature"]}, c["body"].encode(), c["secret"]))
print(json.dumps(verdicts))`;
  const out = execFileSync("python3", ["-c", program, JSON.stringify(cases.map(full))], {
    encoding: "utf8",
  });
  return JSON.parse(out) as boolean[];
}

function full(c: Case) {
  return {
    id: ID,
    timestamp: c.timestamp ?? String(TS),
    signature: c.signature,
    body: c.body ?? BODY,
    secret: c.secret ?? SECRET,
    now: TS + (c.age ?? 0),
  };
}

describe("the verification snippets", () => {
  const cases: [string, Case, boolean][] = [
    ["a genuine delivery", { signature: SIGNATURE, age: 10 }, true],
    [
      "either of two signatures during a rotation",
      { signature: `${OTHER_SIGNATURE} ${SIGNATURE}` },
      true,
    ],
    ["the other secret alone", { signature: OTHER_SIGNATURE }, false],
    ["a changed body", { signature: SIGNATURE, body: BODY.replace("asha", "ravi") }, false],
    ["the wrong secret", { signature: SIGNATURE, secret: OTHER_SECRET }, false],
    ["a timestamp older than five minutes", { signature: SIGNATURE, age: 301 }, false],
    ["a timestamp five minutes ahead", { signature: SIGNATURE, age: -301 }, false],
    ["a changed timestamp", { signature: SIGNATURE, timestamp: String(TS + 1), age: 1 }, false],
    ["a signature without its version", { signature: SIGNATURE.slice(3) }, false],
    ["another version's signature", { signature: SIGNATURE.replace("v1,", "v1a,") }, false],
  ];

  const expected = cases.map(([name, , ok]) => [name, ok]);

  it("Node accepts genuine deliveries and refuses forged, changed and stale ones", () => {
    const verdicts = nodeVerdicts(cases.map(([, c]) => c));
    expect(cases.map(([name], i) => [name, verdicts[i]])).toEqual(expected);
  });

  it("Python accepts genuine deliveries and refuses forged, changed and stale ones", () => {
    const verdicts = pythonVerdicts(cases.map(([, c]) => c));
    expect(cases.map(([name], i) => [name, verdicts[i]])).toEqual(expected);
  });
});

const endpoint: Endpoint = {
  id: "e1",
  kind: "webhook",
  url: "https://hooks.example.in/lead",
  description: "",
  eventTypes: ["lead.updated", "lead.created"],
  enabled: true,
  createdAt: "2026-11-26T10:00:00Z",
  updatedAt: "2026-11-26T10:00:00Z",
};

describe("the endpoint form", () => {
  it("sends a new webhook's fields trimmed, events in the listed order", () => {
    const draft = {
      ...emptyDraft("webhook"),
      url: "  https://hooks.example.in/lead ",
      description: " CRM ",
    };
    draft.eventTypes = ["purchase.attributed", "lead.created"];
    expect(endpointBody(draft, false)).toEqual({
      kind: "webhook",
      url: "https://hooks.example.in/lead",
      description: "CRM",
      eventTypes: ["lead.created", "purchase.attributed"],
      enabled: true,
    });
  });

  it("leaves the server to refuse what is wrong: an empty URL and no events are sent as they are", () => {
    const draft = { ...emptyDraft("webhook"), eventTypes: [] };
    expect(endpointBody(draft, false)).toMatchObject({ url: "", eventTypes: [] });
  });

  it("keeps a Mailchimp key when an edit leaves it empty, and never names the kind on an edit", () => {
    const mailchimp: Endpoint = {
      ...endpoint,
      kind: "mailchimp",
      url: "https://us21.api.mailchimp.com/3.0/lists/a1b2c3",
      listId: "a1b2c3",
    };
    const draft = draftOf(mailchimp);
    expect(draft.url).toBe("");
    expect(draft.apiKey).toBe("");
    expect(endpointBody(draft, true)).toEqual({
      listId: "a1b2c3",
      description: "",
      eventTypes: ["lead.created", "lead.updated"],
      enabled: true,
    });
    expect(endpointBody({ ...draft, apiKey: " key-us21 " }, true)).toMatchObject({
      apiKey: "key-us21",
    });
    expect(endpointBody(emptyDraft("mailchimp"), false)).toMatchObject({
      kind: "mailchimp",
      apiKey: "",
      eventTypes: ["lead.created", "lead.updated"],
    });
  });
});

describe("the delivery log", () => {
  const now = new Date("2026-11-26T10:00:00Z");

  it("names how an attempt ended", () => {
    expect(deliveryBadge("delivered")).toEqual({ label: "Delivered", color: "green" });
    expect(deliveryBadge("pending")).toEqual({ label: "Retrying", color: "yellow" });
    expect(deliveryBadge("failed")).toEqual({ label: "Failed", color: "red" });
  });

  it("writes durations and the next retry on the retry schedule's scale", () => {
    expect(formatDuration(85)).toBe("85 ms");
    expect(formatDuration(1234)).toBe("1.2 s");
    expect(formatDuration(10_000)).toBe("10 s");
    expect(retryIn(null, now)).toBeNull();
    expect(retryIn("2026-11-26T10:00:05Z", now)).toBe("in 5 s");
    expect(retryIn("2026-11-26T10:05:00Z", now)).toBe("in 5 min");
    expect(retryIn("2026-11-26T12:00:00Z", now)).toBe("in 2 h");
    expect(retryIn("2026-11-26T20:00:00Z", now)).toBe("in 10 h");
    expect(retryIn("2026-11-26T09:59:00Z", now)).toBe("now");
    expect(responseCode(null)).toBe("No answer");
    expect(responseCode(503)).toBe("503");
  });

  it("names an endpoint by its description, else its URL or audience", () => {
    expect(endpointName(endpoint)).toBe("https://hooks.example.in/lead");
    expect(endpointName({ ...endpoint, description: "Zapier" })).toBe("Zapier");
    expect(endpointName({ ...endpoint, kind: "mailchimp", listId: "a1b2c3" })).toBe(
      "Mailchimp audience a1b2c3",
    );
  });

  it("tells whether the previous secret still signs", () => {
    expect(overlapUntil({ previousSecretExpiresAt: null }, now)).toBeNull();
    expect(overlapUntil({ previousSecretExpiresAt: "2026-11-26T09:00:00Z" }, now)).toBeNull();
    expect(overlapUntil({ previousSecretExpiresAt: "2026-11-27T09:00:00Z" }, now)).toEqual(
      new Date("2026-11-27T09:00:00Z"),
    );
  });
});
