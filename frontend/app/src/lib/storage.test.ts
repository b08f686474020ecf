import { describe, expect, it } from "vitest";
import {
  beginImpersonation,
  clearAllTokens,
  getToken,
  isImpersonating,
  restoreStaffSession,
} from "./storage";

describe("login-as sessions in the browser", () => {
  it("keeps the staff token aside and gives it back on return", () => {
    localStorage.setItem("token", "staff");
    beginImpersonation("as-owner");
    expect(getToken()).toBe("as-owner");
    expect(isImpersonating()).toBe(true);
    expect(restoreStaffSession()).toBe(true);
    expect(getToken()).toBe("staff");
    expect(isImpersonating()).toBe(false);
  });

  it("signing in as a second owner still returns to the staff session, not the first owner", () => {
    localStorage.setItem("token", "staff");
    beginImpersonation("as-first");
    beginImpersonation("as-second");
    expect(restoreStaffSession()).toBe(true);
    expect(getToken()).toBe("staff");
  });

  it("without a kept staff token nothing is restored", () => {
    localStorage.setItem("token", "owner");
    expect(restoreStaffSession()).toBe(false);
    expect(getToken()).toBe("owner");
  });

  it("signing out forgets both tokens", () => {
    localStorage.setItem("token", "staff");
    beginImpersonation("as-owner");
    clearAllTokens();
    expect(getToken()).toBeNull();
    expect(isImpersonating()).toBe(false);
  });
});
