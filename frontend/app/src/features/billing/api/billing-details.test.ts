import { describe, expect, it } from "vitest";
import { fieldMessages, gstinStateHint, normalizeGstin } from "./billing-details";

describe("billing details", () => {
  it("normalises a typed GSTIN", () => {
    expect(normalizeGstin(" 29aagcb7383j1z4 ")).toBe("29AAGCB7383J1Z4");
    expect(normalizeGstin("29 AAGCB 7383 J1Z4")).toBe("29AAGCB7383J1Z4");
  });

  it("hints when the GSTIN is from another state", () => {
    expect(gstinStateHint("27AAPFU0939F1ZV", "29")).toBe(
      "A GSTIN issued in the chosen state starts with 29.",
    );
    expect(gstinStateHint("29AAGCB7383J1Z4", "29")).toBeNull();
    expect(gstinStateHint("2", "29")).toBeNull();
    expect(gstinStateHint("27AAPFU0939F1ZV", null)).toBeNull();
    expect(gstinStateHint("", "29")).toBeNull();
  });

  it("reads each field's first message from a refusal", () => {
    expect(
      fieldMessages({
        success: false,
        message: "x",
        errors: { gstin: ["wrong check character", "second"], stateCode: ["choose"] },
      }),
    ).toEqual({ gstin: "wrong check character", stateCode: "choose" });
    expect(fieldMessages(new Error("boom"))).toEqual({});
    expect(fieldMessages(null)).toEqual({});
  });
});
