import { describe, expect, it } from "vitest";
import { plansError } from "./plans-error";

describe("plansError", () => {
  it("never shows the browser's network wording", () => {
    expect(plansError(new TypeError("Failed to fetch"))).toBe("Failed to fetch plans");
    expect(plansError(new TypeError("Load failed"))).toBe("Failed to fetch plans");
  });

  it("shows the server's message, else the fallback", () => {
    expect(plansError({ message: "Plans are being updated", code: "unavailable" })).toBe(
      "Plans are being updated",
    );
    expect(plansError({ message: "  " })).toBe("Failed to fetch plans");
    expect(plansError(undefined)).toBe("Failed to fetch plans");
  });
});
