import { describe, expect, it } from "vitest";
import { reconciliationCounts, reconciliationState, stuckBadge } from "./payments-health";

describe("payments on the System tab", () => {
  it("flags payments pending over 15 minutes", () => {
    expect(stuckBadge(0)).toEqual({ label: "None stuck", color: "green" });
    expect(stuckBadge(1)).toEqual({ label: "1 stuck", color: "orange" });
    expect(stuckBadge(12000).label).toBe("12,000 stuck");
  });

  it("reads the last reconciliation run: never run, failed in red, or fine", () => {
    const run = { checked: 0, settled: 0, expired: 0 };
    expect(reconciliationState({ ...run, ranAt: null })).toEqual({
      label: "Not run yet",
      color: "gray",
    });
    expect(
      reconciliationState({
        ...run,
        ranAt: "2026-11-26T10:00:00Z",
        error: "PayU refused the call: Invalid Hash.",
      }),
    ).toEqual({ label: "Failed", color: "red" });
    expect(reconciliationState({ ...run, ranAt: "2026-11-26T10:00:00Z", error: null })).toEqual({
      label: "OK",
      color: "green",
    });
  });

  it("counts what the run did", () => {
    expect(reconciliationCounts({ checked: 3, settled: 1, expired: 2 })).toBe(
      "3 checked · 1 settled · 2 expired",
    );
  });
});
