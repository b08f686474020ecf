import { describe, expect, it } from "vitest";
import { setToken } from "../../../lib/storage";
import { fetchMock, json } from "../../../test/fetch-mock";
import { failureReason, fetchPaymentStatus, verifyPayment } from "./payments";

const verified = (status: string) =>
  json(200, {
    success: true,
    data: { status, amount: 9990, planId: "basic", cycle: "annual" },
    txnid: "T1",
    productinfo: "Basic Plan (Annual)",
    firstname: "Priya",
    email: "priya@example.in",
    phone: "9876543210",
  });

describe("success page verification", () => {
  it("is processing without a session, and asks nothing", async () => {
    await expect(verifyPayment("T1")).resolves.toEqual({ kind: "processing", signedOut: true });
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it("shows a verified success; a pending or failed verification is processing", async () => {
    setToken("t");
    fetchMock.mockResolvedValueOnce(verified("success"));
    await expect(verifyPayment("T1")).resolves.toEqual({
      kind: "success",
      txnid: "T1",
      amount: 9990,
      productinfo: "Basic Plan (Annual)",
    });
    const request = fetchMock.mock.calls[0]?.[0];
    expect(request?.url).toMatch(/\/payment\/verify$/);
    expect(request?.headers.get("Authorization")).toBe("Bearer t");
    expect(await request?.json()).toEqual({ txnid: "T1" });

    fetchMock.mockResolvedValueOnce(verified("pending"));
    await expect(verifyPayment("T1")).resolves.toEqual({ kind: "processing", signedOut: false });
    fetchMock.mockResolvedValueOnce(json(404, { success: false, message: "Payment not found" }));
    await expect(verifyPayment("T1")).resolves.toEqual({ kind: "processing", signedOut: false });
    await expect(verifyPayment(null)).resolves.toEqual({ kind: "processing", signedOut: false });
  });
});

describe("status calls", () => {
  it("reads the answer, a missing payment, a lost session and a failure", async () => {
    fetchMock.mockResolvedValueOnce(
      json(200, { success: true, data: { status: "success", amount: 999, mihpayid: "M1" } }),
    );
    await expect(fetchPaymentStatus("T1")).resolves.toEqual({
      kind: "status",
      status: "success",
      amount: 999,
      mihpayid: "M1",
    });
    expect(fetchMock.mock.calls[0]?.[0].url).toMatch(/\/api\/payment\/status\/T1$/);
    fetchMock.mockResolvedValueOnce(json(404, { success: false, message: "Not found" }));
    await expect(fetchPaymentStatus("T1")).resolves.toEqual({ kind: "not-found" });
    fetchMock.mockResolvedValueOnce(json(401, { success: false, message: "Sign in" }));
    await expect(fetchPaymentStatus("T1")).resolves.toEqual({ kind: "signed-out" });
    fetchMock.mockResolvedValueOnce(json(502, { success: false, message: "Bad gateway" }));
    await expect(fetchPaymentStatus("T1")).resolves.toEqual({ kind: "unavailable" });
  });
});

describe("failure page", () => {
  it("shows error_Message, else error, else a default", () => {
    const reason = (q: string) => failureReason(new URLSearchParams(q));
    expect(reason("error=bounced&error_Message=Card%20declined")).toBe("Card declined");
    expect(reason("error=bounced&error_Message=")).toBe("bounced");
    expect(reason("")).toBe("Payment was not completed");
  });
});
