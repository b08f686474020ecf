import { describe, expect, it } from "vitest";
import {
  LIMIT_REWRITE,
  basicErrors,
  campaignsWord,
  createErrorMessage,
  intInput,
  isWebsite,
} from "./wizard";

describe("create error messages", () => {
  it("rewrites every limit message", () => {
    expect(createErrorMessage({ upgradeRequired: true, isFreePlan: true })).toBe(LIMIT_REWRITE);
    expect(
      createErrorMessage({
        upgradeRequired: true,
        message: "Campaign limit exceeded. Please upgrade your plan.",
      }),
    ).toBe(LIMIT_REWRITE);
  });

  it("keeps other server messages and falls back", () => {
    expect(createErrorMessage({ message: "Website URL is required" })).toBe(
      "Website URL is required",
    );
    expect(createErrorMessage(undefined)).toBe("Failed to create campaign");
  });
});

describe("number inputs", () => {
  it("parse integers, use the fallback for blanks and respect the minimum", () => {
    expect(intInput("", 0, 0)).toBe(0);
    expect(intInput("", 1, 1)).toBe(1);
    expect(intInput("2500.7", 0, 0)).toBe(2500);
    expect(intInput(-4, 0, 0)).toBe(0);
    expect(intInput("0", 1, 1)).toBe(1);
  });

  it("pluralises campaigns", () => {
    expect(campaignsWord(1)).toBe("1 campaign");
    expect(campaignsWord(3)).toBe("3 campaigns");
  });
});

describe("basic step validation", () => {
  it("asks for a name and a full website address, as the server does", () => {
    expect(basicErrors({ name: " ", websiteUrl: "" })).toEqual({
      name: "Campaign name is required",
      websiteUrl: "Website URL is required",
    });
    expect(basicErrors({ name: "Diwali", websiteUrl: "kesar.example.in" }).websiteUrl).toMatch(
      /valid website URL/,
    );
    expect(basicErrors({ name: "Diwali", websiteUrl: "https://kesar.example.in" })).toEqual({});
    expect(basicErrors({ name: "x".repeat(121), websiteUrl: "https://a.in" }).name).toMatch(/120/);
  });

  it("takes only http and https addresses with a host", () => {
    expect(isWebsite("http://convertassist.lan:8080/shop")).toBe(true);
    expect(isWebsite("ftp://example.in")).toBe(false);
    expect(isWebsite("javascript:alert(1)")).toBe(false);
  });
});
