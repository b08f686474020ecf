import { describe, expect, it } from "vitest";
import { errorCode, fieldErrors, isNetworkError, isNotFound } from "./errors";

describe("errors", () => {
  it("reads the code and the first message per field", () => {
    const body = {
      success: false,
      message: "Phone number is required",
      code: "validation_failed",
      errors: { phone: ["Phone number is required", "second"], name: [] },
    };
    expect(errorCode(body)).toBe("validation_failed");
    expect(fieldErrors(body)).toEqual({ phone: "Phone number is required" });
    expect(fieldErrors(new Error("x"))).toEqual({});
  });
  it("tells a missing thing and a lost connection apart", () => {
    expect(isNotFound({ code: "user_not_found" })).toBe(true);
    expect(isNotFound({ code: "not_found" })).toBe(true);
    expect(isNotFound({ code: "superuser_required" })).toBe(false);
    expect(isNetworkError(new TypeError("Failed to fetch"))).toBe(true);
    expect(isNetworkError({ code: "x" })).toBe(false);
  });
});
