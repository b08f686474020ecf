import { client } from "../../../lib/api-client";
import { reportPurchaseOnce } from "../../../lib/meta";
import { getToken } from "../../../lib/storage";
import type { StatusAnswer } from "./status-machine";

/** The success page's verdict: paid, or still to be confirmed (also when signed out). */
export type Verification =
  | { kind: "success"; txnid: string; amount: number; productinfo: string }
  | { kind: "processing"; signedOut: boolean };

/** Asks the server to verify the payment; anything but a verified success reads as processing. */
export async function verifyPayment(txnid: string | null): Promise<Verification> {
  if (!getToken()) return { kind: "processing", signedOut: true };
  if (!txnid) return { kind: "processing", signedOut: false };
  try {
    const { data } = await client.POST("/payment/verify", { body: { txnid } });
    if (data?.success && data.data.status === "success") {
      void reportPurchaseOnce({
        txnid: data.txnid,
        amount: data.data.amount,
        productinfo: data.productinfo,
        firstname: data.firstname,
        email: data.email,
        phone: data.phone,
      });
      return {
        kind: "success",
        txnid: data.txnid,
        amount: data.data.amount,
        productinfo: data.productinfo,
      };
    }
  } catch (err) {
    console.error("payment verification failed", err);
  }
  return { kind: "processing", signedOut: false };
}

/** One status call, read for the status page's polling. */
export async function fetchPaymentStatus(txnid: string): Promise<StatusAnswer> {
  const { data, response } = await client.GET("/api/payment/status/{txnid}", {
    params: { path: { txnid } },
  });
  if (data?.success) {
    const { status } = data.data;
    return {
      kind: "status",
      status: status === "success" || status === "failure" ? status : "pending",
      amount: data.data.amount,
      mihpayid: data.data.mihpayid,
    };
  }
  if (response.status === 404) return { kind: "not-found" };
  if (response.status === 401) return { kind: "signed-out" };
  return { kind: "unavailable" };
}

/** The gateway's reason, most specific first. */
export function failureReason(params: URLSearchParams): string {
  return params.get("error_Message") || params.get("error") || "Payment was not completed";
}
