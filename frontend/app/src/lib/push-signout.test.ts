import { afterEach, describe, expect, it, vi } from "vitest";
import { forgetThisBrowsersPush } from "./push-signout";

function browserWith(sub: { endpoint: string; unsubscribe: () => Promise<boolean> } | null) {
  const registration = { pushManager: { getSubscription: vi.fn(async () => sub) } };
  vi.stubGlobal("navigator", {
    serviceWorker: { getRegistration: vi.fn(async () => registration) },
  });
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe("signing out and push", () => {
  it("removes this browser's subscription with the leaving session's token, then unsubscribes", async () => {
    const unsubscribe = vi.fn(async () => true);
    browserWith({ endpoint: "https://push.example/send/a b", unsubscribe });
    const fetch = vi.fn(async () => new Response(null, { status: 204 }));
    vi.stubGlobal("fetch", fetch);
    expect(await forgetThisBrowsersPush("tok")).toBe(true);
    expect(fetch).toHaveBeenCalledWith(
      "/api/push/subscriptions?endpoint=https%3A%2F%2Fpush.example%2Fsend%2Fa%20b",
      { method: "DELETE", headers: { Authorization: "Bearer tok" } },
    );
    expect(unsubscribe).toHaveBeenCalledOnce();
  });

  it("does nothing without a subscription or a session", async () => {
    const fetch = vi.fn();
    vi.stubGlobal("fetch", fetch);
    browserWith(null);
    expect(await forgetThisBrowsersPush("tok")).toBe(false);
    browserWith({ endpoint: "https://push.example/x", unsubscribe: vi.fn() });
    expect(await forgetThisBrowsersPush(null)).toBe(false);
    expect(fetch).not.toHaveBeenCalled();
  });
});
