import { describe, expect, it } from "vitest";
import { fetchMock, json } from "../../../test/fetch-mock";
import {
  cycleName,
  fetchInvoice,
  formatTaxAmount,
  paymentModeText,
  pdfFileName,
  percentText,
  periodText,
  providerText,
  stateText,
  taxRows,
} from "./invoice";

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

  it("prints tax amounts with paise and the GST rows by place of supply", () => {
    expect(formatTaxAmount(999)).toBe("₹999.00");
    expect(formatTaxAmount(76.19)).toBe("₹76.19");
    expect(formatTaxAmount(100000)).toBe("₹1,00,000.00");
    expect(percentText(9)).toBe("9%");
    expect(percentText(2.5)).toBe("2.5%");
    const lines = {
      taxableValue: 846.61,
      cgst: 76.19,
      sgst: 76.2,
      igst: 0,
      total: 999,
      amountInWords: "Rupees Nine Hundred Ninety Nine Only",
    };
    expect(taxRows("intra", 18, lines)).toEqual([
      { label: "CGST @ 9%", amount: 76.19 },
      { label: "SGST @ 9%", amount: 76.2 },
    ]);
    expect(taxRows("intra", 5, lines).map((r) => r.label)).toEqual(["CGST @ 2.5%", "SGST @ 2.5%"]);
    expect(taxRows("inter", 18, { ...lines, cgst: 0, sgst: 0, igst: 152.39 })).toEqual([
      { label: "IGST @ 18%", amount: 152.39 },
    ]);
    expect(stateText({ stateName: "Karnataka", stateCode: "29" })).toBe("Karnataka (29)");
    expect(stateText({ stateName: null, stateCode: null })).toBeNull();
    expect(pdfFileName("credit-note", "CA-000043")).toBe("credit-note-CA-000043.pdf");
  });
});
