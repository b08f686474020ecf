import { describe, expect, it } from "vitest";
import { currentPage, safeNext, withNext } from "./return-to";

describe("safeNext", () => {
  it("follows a path of this site, with its query and fragment", () => {
    expect(safeNext("/billing/invoice/CA123")).toBe("/billing/invoice/CA123");
    expect(safeNext("/settings/billing?success=true#plans")).toBe(
      "/settings/billing?success=true#plans",
    );
    expect(safeNext("/conversations/../billing")).toBe("/billing");
  });

  it("refuses anything that could lead to another site, and opens the dashboard", () => {
    for (const raw of [
      "//evil.com",
      "//evil.com/billing",
      "/\\evil.com",
      "\\\\evil.com",
      "https://evil.com",
      "http:/evil.com",
      "javascript:alert(1)",
      "evil.com",
      "/\t/evil.com",
      "/\n/evil.com",
      "",
      null,
      undefined,
    ]) {
      expect(safeNext(raw), String(raw)).toBe("/dashboard");
    }
  });

  it("does not come back to a sign-in page", () => {
    expect(safeNext("/login")).toBe("/dashboard");
    expect(safeNext("/auth?next=/billing")).toBe("/dashboard");
    expect(safeNext("/login", "/x")).toBe("/x");
  });
});

describe("withNext", () => {
  it("adds the page to come back to, encoded", () => {
    expect(withNext("/login", "/billing/invoice/CA 1?x=1")).toBe(
      "/login?next=%2Fbilling%2Finvoice%2FCA%25201%3Fx%3D1",
    );
  });

  it("adds nothing for the dashboard, the start page or a page elsewhere", () => {
    expect(withNext("/login", "/dashboard")).toBe("/login");
    expect(withNext("/login", "/")).toBe("/login");
    expect(withNext("/login", "//evil.com")).toBe("/login");
    expect(withNext("/login", null)).toBe("/login");
  });

  it("reads the page shown now", () => {
    expect(currentPage({ pathname: "/billing", search: "?a=1", hash: "#b" })).toBe(
      "/billing?a=1#b",
    );
  });
});
