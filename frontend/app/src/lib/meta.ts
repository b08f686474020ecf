import { client } from "./api-client";

/** First and last name from a full name, split on spaces. */
export function splitName(name: string): { firstName: string; lastName: string } {
  const parts = name.trim().split(/\s+/).filter(Boolean);
  return { firstName: parts[0] ?? "", lastName: parts.slice(1).join(" ") };
}

/** Tells the server (and through it Meta's Conversions API) that an account
 * signed up. A failure is only logged: it never stands in the owner's way.
 * The request is `keepalive`: the sign-in pages are their own HTML pages, and
 * the registration form goes on to the dashboard at once, unloading the page
 * this request was sent from. */
export async function trackSignup(user: {
  id: string;
  name: string;
  email: string;
  phone?: string | null;
  role?: string;
}): Promise<void> {
  try {
    await client.POST("/api/meta/track", {
      keepalive: true,
      body: {
        eventName: "Lead",
        leadId: user.id,
        contentName: "Registration",
        contentCategory: "signup",
        status: "new_user",
        email: user.email,
        phone: user.phone ?? undefined,
        ...splitName(user.name),
        eventSourceUrl: window.location.href,
        customProperties: {
          signup_method: "email",
          user_role: user.role ?? "user",
          has_trial: true,
          registration_source: "web_app",
          timestamp: new Date().toISOString(),
        },
      },
    });
  } catch (err) {
    console.error("sign-up tracking failed", err);
  }
}

const REPORTED_KEY = "ca-meta-purchases";

/** Txnids whose Purchase this browser already reported (the newest 20). */
function reportedPurchases(): string[] {
  try {
    const list: unknown = JSON.parse(localStorage.getItem(REPORTED_KEY) ?? "[]");
    return Array.isArray(list) ? list.filter((t): t is string => typeof t === "string") : [];
  } catch {
    return [];
  }
}

/** Reports a verified purchase once per txnid: reloading the success page
 * does not report it again (the server would ignore it anyway). */
export async function reportPurchaseOnce(p: Parameters<typeof trackPurchase>[0]): Promise<void> {
  const reported = reportedPurchases();
  if (reported.includes(p.txnid)) return;
  localStorage.setItem(REPORTED_KEY, JSON.stringify([...reported, p.txnid].slice(-20)));
  await trackPurchase(p);
}

/** Reports a verified purchase; the server forwards it only if it is one of
 * our successful payments with this value, from the signed-in owner who
 * paid (whose id Meta receives, hashed). The request carries Meta's
 * `_fbp`/`_fbc` cookies. A failure is only logged. */
export async function trackPurchase(p: {
  txnid: string;
  amount: number;
  productinfo: string;
  firstname: string;
  email: string;
  phone: string;
  userId?: string;
}): Promise<void> {
  try {
    await client.POST("/api/meta/track", {
      body: {
        eventName: "Purchase",
        orderId: p.txnid,
        value: p.amount,
        currency: "INR",
        contentName: p.productinfo,
        contentCategory: "subscription",
        email: p.email,
        phone: p.phone,
        ...splitName(p.firstname),
        eventSourceUrl: window.location.href,
        customProperties: {
          payment_source: "payu",
          verification_timestamp: new Date().toISOString(),
          user_id: p.userId ?? null,
          payment_page_source: "payment_success",
        },
      },
    });
  } catch (err) {
    console.error("purchase tracking failed", err);
  }
}
