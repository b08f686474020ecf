import { describe, expect, it } from "vitest";
import { needsSignIn, usageError } from "./usage-error";

describe("usage load errors", () => {
  it("ask to log in again for a lost session, else invite a retry", () => {
    expect(usageError({ code: "invalid_token" })).toBe(
      "Please log in again to view billing information.",
    );
    expect(usageError({ code: "missing_token" })).toBe(
      "Please log in again to view billing information.",
    );
    expect(usageError({ code: "internal_error" })).toBe(
      "Failed to load usage data. Please try again.",
    );
  });
});

describe("needsSignIn", () => {
  it("is true only for a missing or invalid session", () => {
    expect(needsSignIn({ code: "invalid_token" })).toBe(true);
    expect(needsSignIn({ code: "missing_token" })).toBe(true);
    expect(needsSignIn({ code: "internal_error" })).toBe(false);
    expect(needsSignIn(null)).toBe(false);
  });
});
