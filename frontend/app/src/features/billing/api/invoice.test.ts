import { describe, expect, it } from "vitest";
import { fetchMock, json } from "../../../test/fetch-mock";
import { cycleName, fetchInvoice, paymentModeText, periodText, providerText } from "./invoice";

describe("invoice texts", () => {
  it("spells out payment modes and providers", () => {
    expect(paymentModeText("CC")).toBe("Credit card");
    expect(paymentModeText("upi")).toBe("UPI");
    expect(paymentModeText("WALLET")).toBe("WALLET");
    expect(paymentModeText(null)).toBe("N/A");
    expect(providerText("payu")).toBe("PayU");
    expect(providerText("simulator")).toMatch(/simulator/);
    expect(cycleName("annual")).toBe("Annual");
    expect(cycleName("monthly")).toBe("Monthly");
    expect(periodText("2026-11-25T10:00:00Z", "2026-12-25T10:00:00Z")).toBe(
      "25 Nov 2026 – 25 Dec 2026",
    );
    expect(periodText(null, "2026-12-25T10:00:00Z")).toBe("N/A");
  });

  it("reads a missing invoice as null and other failures as errors", async () => {
    fetchMock.mockResolvedValueOnce(json(404, { success: false, message: "Invoice not found" }));
    await expect(fetchInvoice("T1")).resolves.toBeNull();
    fetchMock.mockResolvedValueOnce(json(500, { success: false, message: "boom" }));
    await expect(fetchInvoice("T1")).rejects.toMatchObject({ message: "boom" });
  });
});
