/**
 * What only this browser knows of the owner's first run: that they copied an installation script.
 * Everything else on the dashboard's checklist comes from the server.
 */

const KEY = "ca_first_run";

/** Whether this owner copied an installation script in this browser. */
export function copiedScript(userId: string): boolean {
  try {
    const all = JSON.parse(localStorage.getItem(KEY) ?? "{}") as Record<
      string,
      { copiedScript?: unknown } | undefined
    >;
    return all[userId]?.copiedScript === true;
  } catch {
    return false;
  }
}

/** Remembers that the owner copied an installation script (kept per owner, in this browser). */
export function rememberCopiedScript(userId: string): void {
  try {
    const all = JSON.parse(localStorage.getItem(KEY) ?? "{}") as Record<string, object>;
    // Only the copy is kept: older entries also held a guessed page view and "complete", which
    // the server's figures now answer.
    all[userId] = { copiedScript: true };
    localStorage.setItem(KEY, JSON.stringify(all));
  } catch {
    // Storage refused (private mode): the checklist waits for the first page view instead.
  }
}
