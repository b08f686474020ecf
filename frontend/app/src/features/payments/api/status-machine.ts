/** The status page asks the server again every 3 s while the payment is undecided, for 30 s at most. */
export const POLL_INTERVAL_MS = 3000;
export const POLL_TIMEOUT_MS = 30_000;

export type StatusState =
  | { kind: "checking" }
  | { kind: "success"; amount?: number; mihpayid?: string | null }
  | { kind: "failed"; message: string }
  | { kind: "error"; message: string; signIn?: boolean };

/** One answer of the status call, as the page reads it. */
export type StatusAnswer =
  | {
      kind: "status";
      status: "success" | "failure" | "pending";
      amount?: number;
      mihpayid?: string | null;
    }
  | { kind: "not-found" }
  | { kind: "signed-out" }
  /** The call failed for another reason (network, server): ask again at the next tick. */
  | { kind: "unavailable" };

export const MISSING_TXNID = "Transaction ID not found";
export const FAILED = "Payment failed. Please try again.";
export const SIGNED_OUT = "Sign in to see the status of this payment.";

export function timeoutMessage(txnid: string): string {
  return `Payment verification timeout. Please contact support with transaction ID: ${txnid}`;
}

/**
 * Where the page starts: without a transaction id there is nothing to check; an error in the
 * query (the gateway's return) means the payment failed; otherwise the server is asked.
 */
export function initialStatus(txnid: string | null, error: string | null): StatusState {
  if (!txnid) return { kind: "error", message: MISSING_TXNID };
  if (error) return { kind: "failed", message: error };
  return { kind: "checking" };
}

/** The state after one answer; "checking" means ask again. */
export function afterAnswer(answer: StatusAnswer): StatusState {
  switch (answer.kind) {
    case "status":
      if (answer.status === "success") {
        return { kind: "success", amount: answer.amount, mihpayid: answer.mihpayid };
      }
      if (answer.status === "failure") return { kind: "failed", message: FAILED };
      return { kind: "checking" };
    case "not-found":
      return { kind: "error", message: MISSING_TXNID };
    case "signed-out":
      return { kind: "error", message: SIGNED_OUT, signIn: true };
    case "unavailable":
      return { kind: "checking" };
  }
}

/**
 * Asks for the payment's status now and every `interval` ms until it is decided, reporting each
 * decided state once; after `timeout` ms without a decision it reports the timeout error.
 * Returns a function that stops it (an answer arriving later is ignored).
 */
export function pollPaymentStatus({
  txnid,
  fetchStatus,
  onChange,
  interval = POLL_INTERVAL_MS,
  timeout = POLL_TIMEOUT_MS,
}: {
  txnid: string;
  fetchStatus: (txnid: string) => Promise<StatusAnswer>;
  onChange: (state: StatusState) => void;
  interval?: number;
  timeout?: number;
}): () => void {
  let stopped = false;
  let next: ReturnType<typeof setTimeout> | undefined;
  const stop = () => {
    stopped = true;
    clearTimeout(next);
    clearTimeout(deadline);
  };
  const deadline = setTimeout(() => {
    if (stopped) return;
    stop();
    onChange({ kind: "error", message: timeoutMessage(txnid) });
  }, timeout);

  async function ask() {
    let answer: StatusAnswer;
    try {
      answer = await fetchStatus(txnid);
    } catch {
      answer = { kind: "unavailable" };
    }
    if (stopped) return;
    const state = afterAnswer(answer);
    if (state.kind === "checking") {
      next = setTimeout(() => void ask(), interval);
      return;
    }
    stop();
    onChange(state);
  }

  void ask();
  return stop;
}
