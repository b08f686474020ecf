/** The owner's first run as this browser remembers it, for the dashboard's checklist. */

/** What the browser remembers of the owner's first run (figures that can fall back to 0 later). */
export interface FirstRunMemory {
  /** The owner copied an installation script. */
  copiedScript: boolean;
  /** A page view was seen once (this month's visitors start again at 0 each month). */
  sawPageView: boolean;
}

const KEY = "ca_first_run";

/** The remembered first-run facts of one owner, in this browser. */
export function readFirstRun(userId: string): FirstRunMemory & { complete: boolean } {
  try {
    const all = JSON.parse(localStorage.getItem(KEY) ?? "{}") as Record<
      string,
      Partial<FirstRunMemory & { complete: boolean }>
    >;
    const m = all[userId] ?? {};
    return {
      copiedScript: m.copiedScript === true,
      sawPageView: m.sawPageView === true,
      complete: m.complete === true,
    };
  } catch {
    return { copiedScript: false, sawPageView: false, complete: false };
  }
}

export function rememberFirstRun(
  userId: string,
  patch: Partial<FirstRunMemory & { complete: boolean }>,
): void {
  try {
    const all = JSON.parse(localStorage.getItem(KEY) ?? "{}") as Record<string, object>;
    all[userId] = { ...(all[userId] ?? {}), ...patch };
    localStorage.setItem(KEY, JSON.stringify(all));
  } catch {
    // Storage refused (private mode): the checklist just goes by the figures.
  }
}
