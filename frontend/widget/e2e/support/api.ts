import { expect, type APIRequestContext } from "@playwright/test";

/** The ConvertAssist server under test (`cargo xtask test` or global-setup.ts starts one). */
export const API = process.env.E2E_BASE_URL ?? "http://127.0.0.1:8080";

export const KNOWLEDGE_BASE = `Shipping: We ship across India. Delivery takes 3-5 business days to metro cities. Shipping is free on orders above ₹999.

Cash on delivery (COD) is available on orders up to ₹10,000 for a ₹49 handling fee.

Returns: You can return unused products within 7 days of delivery.`;

/** The email capture's success message (the server's). */
export const CAPTURED = "Thank you! We'll be in touch soon.";

let n = 0;

/** Registers a new owner and answers their session token. */
export async function owner(request: APIRequestContext): Promise<string> {
  n += 1;
  const email = `sites-${process.pid}-${Date.now()}-${n}@example.in`;
  const res = await request.post(`${API}/api/auth/register`, {
    data: { name: "Asha Verma", email, password: "kesar-123", phone: "9876543210" },
  });
  expect(res.status(), await res.text()).toBe(201);
  return (await res.json()).token as string;
}

export interface CampaignOptions {
  /** The site's origin: page views, impressions and purchases are accepted only from it. */
  website: string;
  design?: Record<string, unknown>;
  initialMessage?: string;
  /** `settings.exitIntent` over the journeys' (high sensitivity, armed at once). */
  exitIntent?: Record<string, unknown>;
}

/** The design the journeys use (the defaults, with the sample texts). */
export const DESIGN = {
  headerTitle: "Wait! Before you go...",
  headerSubtitle: "Our assistant can help",
  formTitle: "Get exclusive offers",
  formSubtitle: "Leave your email and we'll send you our best deal",
  submitButtonText: "Get My Offer",
};

/** Creates an active campaign for `website` whose exit intent is armed at once. */
export async function campaign(
  request: APIRequestContext,
  token: string,
  o: CampaignOptions,
): Promise<string> {
  const res = await request.post(`${API}/api/campaigns`, {
    headers: { authorization: `Bearer ${token}` },
    data: {
      name: "Kesar exit offer",
      websiteUrl: o.website,
      settings: {
        exitIntent: { enabled: true, sensitivity: "high", delay: 0, cooldown: 1, ...o.exitIntent },
        targeting: {
          minTimeOnPage: 0,
          maxDisplaysPerSession: 5,
          cooldownMinutes: 1,
          includePages: [],
          excludePages: [],
          devices: ["desktop", "mobile", "tablet"],
        },
        popup: { design: { ...DESIGN, ...o.design } },
        aiSettings: {
          initialMessage: o.initialMessage ?? "Namaste! Looking for a saree?",
          knowledgeBase: KNOWLEDGE_BASE,
          businessInfo: "Kesar Handlooms, Jaipur.",
        },
      },
    },
  });
  expect(res.status(), await res.text()).toBe(201);
  return (await res.json()).campaign._id as string;
}

export async function analytics(request: APIRequestContext, token: string, id: string) {
  const res = await request.get(`${API}/api/campaigns/${id}/analytics`, {
    headers: { authorization: `Bearer ${token}` },
  });
  return (await res.json()).analytics as { impressions: number; conversions: number };
}
