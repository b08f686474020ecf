import { client } from "../../../lib/api-client";
import { formatDate } from "../../../lib/format";

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
