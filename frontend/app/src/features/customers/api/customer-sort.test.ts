import { describe, expect, it } from "vitest";
import { DEFAULT_SORT, nextSort } from "./customer-sort";

describe("sort buttons", () => {
  it("flip the active sort and start another descending", () => {
    expect(nextSort(DEFAULT_SORT, "lastConversationDate")).toEqual({
      by: "lastConversationDate",
      order: "asc",
    });
    expect(nextSort({ by: "lastConversationDate", order: "asc" }, "lastConversationDate")).toEqual(
      DEFAULT_SORT,
    );
    expect(nextSort({ by: "lastConversationDate", order: "asc" }, "leadScore")).toEqual({
      by: "leadScore",
      order: "desc",
    });
  });
});
