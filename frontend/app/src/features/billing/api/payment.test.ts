import { afterEach, describe, expect, it, vi } from "vitest";
import type { components } from "../../../api/schema";
import { fetchMock, json, sampleUser } from "../../../test/fetch-mock";
import { paymentPayload, renewalPayload, startPayment, submitPaymentForm } from "./payment";

type Plan = components["schemas"]["PlanOut"];

const basic: Plan = {
  id: "basic",
  _id: "basic",
  name: "basic",
  displayName: "Basic",
  price: 999,
  currency: "INR",
  interval: "monthly",
  features: [],
  limits: {
    campaigns: 1,
    visitorsPerMonth: 10000,
    aiConversations: 1000,
    customBranding: false,
    apiAccess: false,
    whiteLabel: false,
    prioritySupport: false,
    phoneSupport: false,
  },
  popular: true,
  active: true,
  sortOrder: 1,
  inviteOnly: false,
  contactSales: false,
  checkoutAvailable: true,
};

afterEach(() => {
  vi.restoreAllMocks();
  document.body.innerHTML = "";
});

describe("payment initialization", () => {
  it("sends the cycle's amount, the buyer and the user-defined fields", () => {
    expect(paymentPayload(basic, "annual", sampleUser)).toEqual({
      amount: 9990,
      productinfo: "Basic Plan (Annual)",
      firstname: "Priya Sharma",
      email: "priya@example.in",
      phone: "+91 9876543210",
      subscriptionId: "basic",
      udf1: "u1",
      udf2: "basic",
      udf3: "subscription",
      udf4: "annual",
    });
    const monthly = paymentPayload(basic, "monthly", { ...sampleUser, phone: " " });
    expect(monthly.amount).toBe(999);
    expect(monthly.phone).toBe("9999999999");
    expect(monthly.udf4).toBe("monthly");
    // A yearly plan is bought for a year at its price, whatever the toggle says.
    const yearly = paymentPayload(
      { ...basic, id: "pro", displayName: "Pro", price: 9000, interval: "yearly" },
      "monthly",
      sampleUser,
    );
    expect([yearly.amount, yearly.udf4, yearly.productinfo]).toEqual([
      9000,
      "annual",
      "Pro Plan (Annual)",
    ]);
  });

  it("posts a hidden form with one hidden field per parameter", () => {
    const submit = vi.spyOn(HTMLFormElement.prototype, "submit").mockImplementation(() => {});
    submitPaymentForm("https://test.payu.in/_payment", { key: "k", txnid: "T1", hash: "h" });
    const form = document.body.querySelector("form");
    expect(form?.method).toBe("post");
    expect(form?.action).toBe("https://test.payu.in/_payment");
    const inputs = [...(form?.querySelectorAll("input") ?? [])];
    expect(inputs.map((i) => [i.type, i.name, i.value])).toEqual([
      ["hidden", "key", "k"],
      ["hidden", "txnid", "T1"],
      ["hidden", "hash", "h"],
    ]);
    expect(submit).toHaveBeenCalledOnce();
  });

  it("goes to the payment page the server names, or reports its refusal", async () => {
    const submit = vi.spyOn(HTMLFormElement.prototype, "submit").mockImplementation(() => {});
    fetchMock.mockResolvedValueOnce(
      json(200, {
        success: true,
        data: { action: "/payment/simulator", params: { txnid: "T1" }, txnid: "T1", amount: 999 },
      }),
    );
    await startPayment(basic, "monthly", sampleUser);
    const request = fetchMock.mock.calls[0]?.[0];
    expect(request?.url).toMatch(/\/api\/payment\/initialize$/);
    expect(((await request?.json()) as { udf2: string }).udf2).toBe("basic");
    expect(submit).toHaveBeenCalledOnce();

    fetchMock.mockResolvedValueOnce(
      json(409, {
        success: false,
        message: "You already have this plan",
        code: "already_subscribed",
      }),
    );
    await expect(startPayment(basic, "monthly", sampleUser)).rejects.toThrow(
      "You already have this plan",
    );
    fetchMock.mockResolvedValueOnce(new Response("oops", { status: 502 }));
    await expect(startPayment(basic, "monthly", sampleUser)).rejects.toThrow(
      "Failed to initialize payment",
    );
  });
});

describe("renewal", () => {
  it("asks for the same plan and cycle again as a renewal", () => {
    const body = renewalPayload("basic", "annual", { ...sampleUser, phone: " " });
    expect(body).toMatchObject({
      udf2: "basic",
      subscriptionId: "basic",
      udf3: "subscription",
      udf4: "annual",
      renew: true,
      phone: "9999999999",
    });
    expect(body).not.toHaveProperty("amount");
  });
});
