import type { components } from "../../../api/schema";
import { client } from "../../../lib/api-client";
import { formatDate } from "../../../lib/format";

export type Invoice = components["schemas"]["InvoiceOut"];
type TaxLines = components["schemas"]["TaxLines"];

const MODES: Record<string, string> = {
  CC: "Credit card",
  DC: "Debit card",
  NB: "Net banking",
  UPI: "UPI",
  CASH: "Wallet / cash card",
  EMI: "EMI",
};

/** A payment mode as people read it: the gateway's codes spelled out, N/A when absent. */
export function paymentModeText(mode: string | null | undefined): string {
  if (!mode) return "N/A";
  return MODES[mode.toUpperCase()] ?? mode;
}

const PROVIDERS: Record<string, string> = {
  payu: "PayU",
  simulator: "PayU simulator (test payment)",
  demo: "Demo payment",
};

export function providerText(provider: string): string {
  return PROVIDERS[provider] ?? provider;
}

export function cycleName(cycle: string): string {
  return cycle === "annual" ? "Annual" : "Monthly";
}

/** The service period, e.g. "25 Nov 2026 – 25 Dec 2026"; N/A when the server has none. */
export function periodText(start: string | null | undefined, end: string | null | undefined) {
  return start && end ? `${formatDate(start)} – ${formatDate(end)}` : "N/A";
}

/** Reads one invoice; a payment that has none (not successful, or not the owner's) is `null`. */
export async function fetchInvoice(txnid: string) {
  const { data, error, response } = await client.GET("/api/payment/invoice/{txnid}", {
    params: { path: { txnid } },
  });
  if (response.status === 404) return null;
  if (!data) throw error ?? new Error("Failed to load the invoice");
  return data.data;
}

const paiseFormat = new Intl.NumberFormat("en-IN", {
  style: "currency",
  currency: "INR",
  minimumFractionDigits: 2,
  maximumFractionDigits: 2,
});

/** Money on a tax invoice: always rupees and paise, e.g. ₹76.19 and ₹1,00,000.00. */
export function formatTaxAmount(rupees: number): string {
  return paiseFormat.format(Math.round(rupees * 100) / 100);
}

/** A GST rate as printed, e.g. "18%", "9%", "2.5%". */
export function percentText(rate: number): string {
  return `${Math.round(rate * 100) / 100}%`;
}

/**
 * The tax rows of an invoice after its taxable value: within the seller's state CGST and SGST at
 * half the rate each, across states IGST at the full rate.
 */
export function taxRows(
  taxType: string,
  gstRate: number,
  lines: TaxLines,
): { label: string; amount: number }[] {
  if (taxType === "intra") {
    const half = Math.floor((gstRate * 100) / 2) / 100;
    return [
      { label: `CGST @ ${percentText(half)}`, amount: lines.cgst },
      { label: `SGST @ ${percentText(gstRate - half)}`, amount: lines.sgst },
    ];
  }
  return [{ label: `IGST @ ${percentText(gstRate)}`, amount: lines.igst }];
}

/** A party's state as printed, e.g. "Karnataka (29)"; null when not given. */
export function stateText(party: { stateName?: string | null; stateCode?: string | null }) {
  return party.stateName && party.stateCode ? `${party.stateName} (${party.stateCode})` : null;
}

/** The file a downloaded document is saved as, e.g. invoice-CA-000042.pdf. */
export function pdfFileName(kind: "invoice" | "credit-note", number: string): string {
  return `${kind}-${number}.pdf`;
}

/** Fetches the tax invoice (or the credit note) of `txnid` as a PDF file. */
export async function fetchDocumentPdf(txnid: string, kind: "invoice" | "credit-note") {
  const { data, error } =
    kind === "invoice"
      ? await client.GET("/api/payment/invoice/{txnid}/pdf", {
          params: { path: { txnid } },
          parseAs: "blob",
        })
      : await client.GET("/api/payment/invoice/{txnid}/credit-note/pdf", {
          params: { path: { txnid } },
          parseAs: "blob",
        });
  if (error || !data) throw error ?? new Error("Failed to download the PDF");
  return data;
}

/** Downloads the PDF of a document as `name`. */
export async function downloadDocumentPdf(
  txnid: string,
  kind: "invoice" | "credit-note",
  name: string,
) {
  const url = URL.createObjectURL(await fetchDocumentPdf(txnid, kind));
  const a = document.createElement("a");
  a.href = url;
  a.download = name;
  document.body.appendChild(a);
  a.click();
  a.remove();
  // Revoked after the browser has started the download.
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}
