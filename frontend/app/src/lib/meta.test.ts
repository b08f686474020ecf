import { describe, expect, it } from "vitest";
import { fetchMock, json } from "../test/fetch-mock";
import { reportPurchaseOnce, splitName, trackSignup } from "./meta";

describe("splitName", () => {
  it("splits on spaces: the first word, then the rest", () => {
    expect(splitName("  Asha  Devi Verma ")).toEqual({ firstName: "Asha", lastName: "Devi Verma" });
    expect(splitName("Meera")).toEqual({ firstName: "Meera", lastName: "" });
    expect(splitName("")).toEqual({ firstName: "", lastName: "" });
  });
});

describe("trackSignup", () => {
  it("sends the Lead with keepalive, so it outlives the sign-up page it was sent from", async () => {
    fetchMock.mockResolvedValueOnce(json(200, { success: true }));
    await trackSignup({ id: "u1", name: "Asha Verma", email: "asha@example.in" });
    const request = fetchMock.mock.calls[0]?.[0];
    expect(request?.url).toMatch(/\/api\/meta\/track$/);
    expect(request?.keepalive).toBe(true);
    expect(await request?.json()).toMatchObject({ eventName: "Lead", leadId: "u1" });
  });
});

describe("reportPurchaseOnce", () => {
  it("reports a txnid's Purchase once, not again when the success page reloads", async () => {
    fetchMock.mockImplementation(() => Promise.resolve(json(200, { success: true })));
    const purchase = {
      txnid: "CA123",
      amount: 999,
      productinfo: "Basic Plan (Monthly)",
      firstname: "Asha",
      email: "asha@example.in",
      phone: "9876543210",
    };
    await reportPurchaseOnce(purchase);
    await reportPurchaseOnce(purchase);
    expect(fetchMock).toHaveBeenCalledTimes(1);
    expect(await fetchMock.mock.calls[0]?.[0].json()).toMatchObject({
      eventName: "Purchase",
      orderId: "CA123",
    });
    await reportPurchaseOnce({ ...purchase, txnid: "CA124" });
    expect(fetchMock).toHaveBeenCalledTimes(2);
  });
});
