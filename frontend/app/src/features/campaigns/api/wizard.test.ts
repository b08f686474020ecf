import { describe, expect, it } from "vitest";
import { LIMIT_REWRITE, campaignsWord, createErrorMessage, intInput } from "./wizard";

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
