import { describe, expect, it } from "vitest";
import { parsePages } from "./page-list";

describe("page lists", () => {
  it("take one URL per line and drop blank lines", () => {
    expect(parsePages("/a\n\n  \n https://x.in/b \n")).toEqual(["/a", "https://x.in/b"]);
  });
});
