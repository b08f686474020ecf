import { describe, expect, it } from "vitest";
import { resetFormError } from "./password-reset";
import { fullPhone, registerFormError } from "./register-rules";

const valid = {
  name: "Priya",
  email: "priya@example.in",
  countryCode: "+91",
  phone: "9876543210",
  password: "secret1",
  confirmPassword: "secret1",
};

describe("register form checks", () => {
  it("accepts a complete form and sends the phone as code plus number", () => {
    expect(registerFormError(valid)).toBeNull();
    expect(fullPhone(valid)).toBe("+91 9876543210");
  });

  it("explains what is wrong with the form", () => {
    expect(registerFormError({ ...valid, name: " " })).toBe("All fields are required");
    expect(registerFormError({ ...valid, confirmPassword: "other1" })).toBe(
      "Passwords do not match",
    );
    expect(registerFormError({ ...valid, password: "12345", confirmPassword: "12345" })).toBe(
      "Password must be at least 6 characters long",
    );
  });
});

describe("reset form checks", () => {
  it("reports the first problem: link, blanks, mismatch, length", () => {
    expect(resetFormError("", "a", "a")).toBe("Invalid reset token");
    expect(resetFormError("t", "", "")).toBe("Both password fields are required");
    expect(resetFormError("t", "secret1", "secret2")).toBe("Passwords do not match");
    expect(resetFormError("t", "12345", "12345")).toBe(
      "Password must be at least 6 characters long",
    );
    expect(resetFormError("t", "secret1", "secret1")).toBeNull();
  });
});
