import { describe, expect, it } from "vitest";
import { PAGE_SIZE, pageAfterDelete, pageRange } from "./pagination";

describe("pagination", () => {
  it("shows 10 users a page", () => {
    expect(PAGE_SIZE).toBe(10);
  });

  it("words the range shown", () => {
    expect(pageRange(1, 10, 42)).toBe("Showing 1–10 of 42 users");
    expect(pageRange(5, 10, 42)).toBe("Showing 41–42 of 42 users");
    expect(pageRange(1, 10, 0)).toBe("No users");
    expect(pageRange(2, 10, 12345)).toBe("Showing 11–20 of 12,345 users");
  });

  it("steps back a page when the last row of a later page is deleted", () => {
    expect(pageAfterDelete(3, 1)).toBe(2);
    expect(pageAfterDelete(3, 4)).toBe(3);
    expect(pageAfterDelete(1, 1)).toBe(1);
  });
});
