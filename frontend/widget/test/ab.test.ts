import { afterEach, describe, expect, it, vi } from "vitest";
import { variantOf } from "../src/assign";
import { withOverrides } from "../src/popup";
import type { Overrides, PublicCampaign, PublicTest } from "../src/types";

/** A test as the public config carries it (`campaign.test`). */
function abTest(id: string, weights: number[], overrides: Overrides[] = []): PublicTest {
  return {
    id,
    variants: weights.map((weight, i) => ({
      id: `${id}-arm${i}`,
      weight,
      overrides: (overrides[i] ?? {}) as Record<string, never>,
    })),
  };
}

/**
 * Distinct visitor ids as the loader makes them (`v_` and 24 hex digits), from a seeded generator
 * (mulberry32) so that a run can be repeated exactly.
 */
function visitorIds(n: number, seed: number): string[] {
  let a = seed;
  const next = () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return (t ^ (t >>> 14)) >>> 0;
  };
  const out = new Set<string>();
  while (out.size < n) {
    let id = "v_";
    for (let k = 0; k < 3; k += 1) id += next().toString(16).padStart(8, "0");
    out.add(id);
  }
  return [...out];
}

/** Share of `ids` each arm gets, in percent. */
function split(test: PublicTest, ids: string[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const v of test.variants) counts[v.id] = 0;
  let none = 0;
  for (const id of ids) {
    const arm = variantOf(test, id);
    if (arm) counts[arm.id] = (counts[arm.id] ?? 0) + 1;
    else none += 1;
  }
  expect(none, "visitors with no arm").toBe(0);
  const out: Record<string, number> = {};
  for (const [k, n] of Object.entries(counts)) out[k] = (100 * n) / ids.length;
  return out;
}

const TEST_ID = "6f0c2b1e-3d4a-4f5b-8c9d-0e1f2a3b4c5d";
const IDS = visitorIds(10_000, 20261127);

describe("sticky assignment", () => {
  it("gives the same visitor the same arm on 50 page loads", async () => {
    const config = JSON.stringify(abTest(TEST_ID, [50, 50]));
    for (const visitor of IDS.slice(0, 20)) {
      const seen = new Set<string | undefined>();
      for (let load = 0; load < 50; load += 1) {
        // Each page load runs a fresh copy of the widget on a freshly parsed config.
        vi.resetModules();
        const { variantOf: assign } = await import("../src/assign");
        seen.add(assign(JSON.parse(config) as PublicTest, visitor)?.id);
      }
      expect([...seen], visitor).toHaveLength(1);
      expect([...seen][0]).toMatch(/-arm[01]$/);
    }
  });

  it("splits 10,000 visitors within 2 points of 50/50", () => {
    const s = split(abTest(TEST_ID, [50, 50]), IDS);
    expect(Math.abs(s[`${TEST_ID}-arm0`]! - 50), JSON.stringify(s)).toBeLessThanOrEqual(2);
    expect(Math.abs(s[`${TEST_ID}-arm1`]! - 50), JSON.stringify(s)).toBeLessThanOrEqual(2);
  });

  it("splits 10,000 visitors within 2 points of 70/30", () => {
    const s = split(abTest(TEST_ID, [70, 30]), IDS);
    expect(Math.abs(s[`${TEST_ID}-arm0`]! - 70), JSON.stringify(s)).toBeLessThanOrEqual(2);
    expect(Math.abs(s[`${TEST_ID}-arm1`]! - 30), JSON.stringify(s)).toBeLessThanOrEqual(2);
  });

  it("follows four arms' weights, whatever the test id", () => {
    for (const id of ["t1", "t2", "a-much-longer-test-identifier-0001", TEST_ID]) {
      const s = split(abTest(id, [40, 30, 20, 10]), IDS);
      const want = [40, 30, 20, 10];
      for (let i = 0; i < 4; i += 1)
        expect(Math.abs(s[`${id}-arm${i}`]! - want[i]!), `${id} ${JSON.stringify(s)}`).toBeLessThan(
          2,
        );
    }
  });

  it("never chooses an arm of weight 0", () => {
    for (const weights of [
      [0, 100],
      [100, 0],
      [50, 0, 50],
      [0, 60, 0, 40],
    ]) {
      const test = abTest(TEST_ID, weights);
      const s = split(test, IDS);
      weights.forEach((w, i) => {
        if (w === 0) expect(s[`${TEST_ID}-arm${i}`], JSON.stringify(weights)).toBe(0);
        else expect(s[`${TEST_ID}-arm${i}`]).toBeGreaterThan(0);
      });
    }
  });

  it("assigns each test independently of the visitor's arm in another", () => {
    // Test ids one character apart: the visitors of arm 0 in one split 50/50 in the other.
    const a = abTest("test-000a", [50, 50]);
    const b = abTest("test-000b", [50, 50]);
    let same = 0;
    for (const id of IDS)
      if (variantOf(a, id)?.id.endsWith("arm0") === variantOf(b, id)?.id.endsWith("arm0"))
        same += 1;
    expect(Math.abs((100 * same) / IDS.length - 50)).toBeLessThanOrEqual(2);
  });

  it("gives nothing without a test, and nothing for the share of a paused arm", () => {
    expect(variantOf(null, IDS[0]!)).toBeUndefined();
    expect(variantOf(undefined, IDS[0]!)).toBeUndefined();
    // 50/25/25 with the last arm paused: the config lists 50/25.
    const full = abTest(TEST_ID, [50, 25, 25]);
    const paused: PublicTest = { ...full, variants: full.variants.slice(0, 2) };
    let none = 0;
    for (const id of IDS) {
      const before = variantOf(full, id)!.id;
      const after = variantOf(paused, id)?.id;
      if (after === undefined) {
        none += 1;
        expect(before).toBe(`${TEST_ID}-arm2`);
      } else {
        expect(after, "every other visitor keeps their arm").toBe(before);
      }
    }
    expect(Math.abs((100 * none) / IDS.length - 25)).toBeLessThanOrEqual(2);
  });
});

/** The public config's campaign (the server's defaults with a few of the owner's texts). */
function campaign(): PublicCampaign {
  return {
    id: "c1",
    exitIntent: { enabled: true, sensitivity: "medium", delay: 1000, cooldown: 60 },
    targeting: {
      cooldownMinutes: 1,
      devices: [],
      excludePages: [],
      includePages: [],
      maxDisplaysPerSession: 2,
      minTimeOnPage: 0,
    },
    popup: {
      title: "Wait! Before you go...",
      message: "",
      buttonText: "",
      buttonColor: "",
      backgroundColor: "#ffffff",
      textColor: "#1f2937",
      position: "center",
      showCloseButton: true,
      design: {
        maxWidth: 450,
        padding: 32,
        borderRadius: 12,
        fontFamily: "Inter",
        headerTitle: "Wait! Before you go...",
        headerSubtitle: "Our assistant can help",
        primaryColor: "#ff6b6b",
        secondaryColor: "#ee5a24",
        popupSize: "medium",
        formTitle: "Get exclusive offers",
        formSubtitle: "Leave your email and we'll send you our best deal",
        submitButtonText: "Get My Offer",
        showTrustBadges: true,
        trustBadges: [
          { icon: "🔒", text: "Secure" },
          { icon: "⚡", text: "Instant Help" },
        ],
      },
    },
    greeting: "Namaste! Looking for a saree?",
    emailCapture: {
      id: "email-capture",
      name: "Email capture",
      type: "lead",
      title: "Get exclusive offers",
      subtitle: "Leave your email and we'll send you our best deal",
      buttonText: "Get My Offer",
      successMessage: "Thank you! We'll be in touch soon.",
      fields: [
        { name: "email", label: "Email", type: "email", required: true, placeholder: "Email" },
      ],
    },
  };
}

describe("an arm's overrides", () => {
  it("leave the campaign as it is for the control ({}) and without a test", () => {
    const c = campaign();
    expect(withOverrides(c, {})).toEqual(c);
    expect(withOverrides(c, undefined)).toBe(c);
  });

  it("merge objects key by key and replace arrays and values", () => {
    const c = campaign();
    const before = JSON.stringify(c);
    const out = withOverrides(c, {
      popup: {
        title: "Take 10% off today",
        design: {
          headerTitle: "Take 10% off today",
          primaryColor: "#1d4ed8",
          secondaryColor: "#1e3a8a",
          popupSize: "large",
          trustBadges: [{ icon: "🚚", text: "Free shipping" }],
        },
      },
    });
    expect(out.popup.title).toBe("Take 10% off today");
    expect(out.popup.design).toEqual({
      ...c.popup.design,
      headerTitle: "Take 10% off today",
      primaryColor: "#1d4ed8",
      secondaryColor: "#1e3a8a",
      popupSize: "large",
      // replaced, not merged item by item
      trustBadges: [{ icon: "🚚", text: "Free shipping" }],
    });
    // Untouched parts of the popup stay.
    expect(out.popup.backgroundColor).toBe("#ffffff");
    expect(out.popup.showCloseButton).toBe(true);
    expect(out.greeting).toBe(c.greeting);
    expect(out.emailCapture).toEqual(c.emailCapture);
    // The campaign itself is not changed (the preview draws it again for the next arm).
    expect(JSON.stringify(c)).toBe(before);
  });

  it("put the design's form texts into the email capture, as the server builds it", () => {
    const c = campaign();
    const out = withOverrides(c, {
      popup: { design: { formTitle: "Members save 15%", submitButtonText: "Join" } },
    });
    expect(out.emailCapture).toEqual({
      ...c.emailCapture,
      title: "Members save 15%",
      buttonText: "Join",
    });
    expect(out.popup.design.formTitle).toBe("Members save 15%");
  });

  it("make aiSettings.initialMessage the greeting (blank: the default greeting)", () => {
    expect(
      withOverrides(campaign(), { aiSettings: { initialMessage: "  Need help choosing?  " } })
        .greeting,
    ).toBe("Need help choosing?");
    expect(withOverrides(campaign(), { aiSettings: { initialMessage: " " } }).greeting).toBe(
      "Hi! I noticed you're about to leave. What can I help you with?",
    );
  });

  it("change the exit-intent sensitivity and delay, and nothing else of it", () => {
    const out = withOverrides(campaign(), { exitIntent: { sensitivity: "high", delay: 5000 } });
    expect(out.exitIntent).toEqual({
      enabled: true,
      sensitivity: "high",
      delay: 5000,
      cooldown: 60,
    });
  });

  it("ignore the conversion forms, which the server applies", () => {
    const c = campaign();
    expect(withOverrides(c, { forms: { conversionForms: [] } })).toEqual(c);
  });
});

describe("the loader", () => {
  afterEach(() => {
    vi.unstubAllGlobals();
    vi.resetModules();
    document.body.replaceChildren();
    localStorage.clear();
    delete (window as { __caWidget?: unknown }).__caWidget;
    delete (window as { caTrack?: unknown }).caTrack;
  });

  /** Runs the loader for a script tag with `attrs`, `fetch` answering `config`. */
  async function load(attrs: Record<string, string>, config: unknown) {
    const calls: { url: string; body: unknown }[] = [];
    vi.stubGlobal(
      "fetch",
      vi.fn((url: string, init?: RequestInit) => {
        calls.push({ url, body: init?.body ? JSON.parse(String(init.body)) : undefined });
        return Promise.resolve(
          new Response(url.endsWith("/config") ? JSON.stringify(config) : "{}", { status: 200 }),
        );
      }),
    );
    const script = document.createElement("script");
    script.src = "https://ca.example.com/widget/ca-widget.js";
    script.dataset.campaignId = "c1";
    for (const [k, v] of Object.entries(attrs)) script.setAttribute(k, v);
    document.body.append(script);
    vi.resetModules();
    await import("../src/loader");
    return calls;
  }

  it("keeps the visitor's arm for the thank-you page, which sends it with the purchase", async () => {
    const test = abTest(TEST_ID, [50, 50]);
    localStorage.setItem("ca_vid", IDS[0]!);
    const arm = variantOf(test, IDS[0]!)!;
    await load({}, { success: true, active: true, campaign: { ...campaign(), test } });
    await vi.waitFor(() => expect(localStorage.getItem("ca_var_c1")).toBe(arm.id));

    // The thank-you page: the conversion snippet, which reads no config.
    document.body.replaceChildren();
    delete (window as { __caWidget?: unknown }).__caWidget;
    const calls = await load({ "data-mode": "conversion" }, null);
    (window as unknown as { caTrack: (e: string, d: unknown) => void }).caTrack("purchase", {
      value: 1499,
      orderId: "KH-1001",
    });
    await vi.waitFor(() =>
      expect(calls.find((c) => c.url.endsWith("/api/widget/purchases"))?.body).toEqual({
        campaignId: "c1",
        visitorId: IDS[0],
        value: 1499,
        currency: "INR",
        orderId: "KH-1001",
        variantId: arm.id,
      }),
    );
  });

  it("watches for exit intent at the arm's sensitivity", async () => {
    // A phone: exit intent is the touch watcher's, given the sensitivity to use.
    vi.stubGlobal("innerWidth", 412);
    const watch = vi.fn();
    vi.doMock("../src/exit", () => ({ watchTouchExit: watch }));
    const test = abTest(TEST_ID, [50, 50], [{}, { exitIntent: { sensitivity: "low" } }]);
    const high = { ...campaign(), exitIntent: { ...campaign().exitIntent, sensitivity: "high" } };
    for (const [visitor, want] of [
      [IDS.find((id) => variantOf(test, id)!.id.endsWith("arm1"))!, "low"],
      [IDS.find((id) => variantOf(test, id)!.id.endsWith("arm0"))!, "high"],
    ] as const) {
      watch.mockClear();
      document.body.replaceChildren();
      delete (window as { __caWidget?: unknown }).__caWidget;
      localStorage.setItem("ca_vid", visitor);
      await load({}, { success: true, active: true, campaign: { ...high, test } });
      await vi.waitFor(() => expect(watch).toHaveBeenCalledTimes(1));
      expect(watch.mock.calls[0]![1]).toBe(want);
    }
    vi.doUnmock("../src/exit");
  });

  it("sends no variantId with a purchase when the visitor was in no test", async () => {
    localStorage.setItem("ca_vid", IDS[1]!);
    const calls = await load({ "data-mode": "conversion" }, null);
    (window as unknown as { caTrack: (e: string, d: unknown) => void }).caTrack("purchase", {
      value: 10,
      orderId: "KH-1002",
    });
    await vi.waitFor(() =>
      expect(calls.find((c) => c.url.endsWith("/api/widget/purchases"))).toBeTruthy(),
    );
    const body = calls.find((c) => c.url.endsWith("/api/widget/purchases"))!.body as object;
    expect(Object.keys(body)).not.toContain("variantId");
  });
});
