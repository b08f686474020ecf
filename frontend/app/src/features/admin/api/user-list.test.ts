import { describe, expect, it } from "vitest";
import {
  DEFAULT_LIST,
  ariaSort,
  isFiltered,
  listFromParams,
  listQuery,
  paramsFromList,
  toggleAll,
  toggleSort,
  type UserListState,
} from "./user-list";

const parse = (q: string) => listFromParams(new URLSearchParams(q));

describe("the users table's state in the URL", () => {
  it("reads back what it wrote", () => {
    const s: UserListState = {
      search: "asha verma",
      role: "user",
      status: "past_due",
      plan: "basic",
      from: "2026-01-01",
      to: "2026-03-31",
      sort: "name",
      order: "desc",
      page: 3,
    };
    const q = paramsFromList(s).toString();
    expect(q).toBe(
      "search=asha+verma&role=user&status=past_due&plan=basic&from=2026-01-01&to=2026-03-31&sort=name&order=desc&page=3",
    );
    expect(parse(q)).toEqual(s);
  });

  it("leaves out the defaults, so the plain list has a plain URL", () => {
    expect(paramsFromList(DEFAULT_LIST).toString()).toBe("");
    expect(parse("")).toEqual(DEFAULT_LIST);
    // A column in its natural order still names the column.
    expect(paramsFromList({ ...DEFAULT_LIST, sort: "email", order: "asc" }).toString()).toBe(
      "sort=email&order=asc",
    );
    expect(parse("sort=email")).toMatchObject({ sort: "email", order: "asc" });
    expect(parse("sort=lastLoginAt")).toMatchObject({ sort: "lastLoginAt", order: "desc" });
  });

  it("reads anything malformed as no filter", () => {
    expect(
      parse(
        "role=owner&status=paid&plan=Bad%20Plan!&from=2026-02-30&to=tomorrow&sort=phone&order=up&page=-2",
      ),
    ).toEqual(DEFAULT_LIST);
    expect(parse("page=1.5").page).toBe(1);
    expect(parse("page=abc").page).toBe(1);
    expect(parse("search=" + "x".repeat(300)).search).toHaveLength(100);
  });

  it("drops an end before the start but keeps the start", () => {
    expect(parse("from=2026-03-01&to=2026-02-01")).toMatchObject({ from: "2026-03-01", to: "" });
    expect(parse("from=2026-03-01&to=2026-03-01")).toMatchObject({
      from: "2026-03-01",
      to: "2026-03-01",
    });
  });

  it("sends the server its parameter names, leaving out empty filters", () => {
    expect(
      listQuery({ ...DEFAULT_LIST, status: "trial", plan: "pro", from: "2026-01-01" }),
    ).toEqual({
      search: undefined,
      role: undefined,
      subscriptionStatus: "trial",
      planId: "pro",
      from: "2026-01-01",
      to: undefined,
      sort: "createdAt",
      order: "desc",
    });
  });

  it("tells a filtered list from one only sorted or paged", () => {
    expect(isFiltered({ ...DEFAULT_LIST, sort: "name", page: 4 })).toBe(false);
    expect(isFiltered({ ...DEFAULT_LIST, to: "2026-01-01" })).toBe(true);
    expect(isFiltered({ ...DEFAULT_LIST, search: "  " })).toBe(false);
  });
});

describe("sorting by a header", () => {
  it("starts a column in its natural order, flips it on a second click, back to page 1", () => {
    const byName = toggleSort({ ...DEFAULT_LIST, page: 5 }, "name");
    expect(byName).toMatchObject({ sort: "name", order: "asc", page: 1 });
    expect(toggleSort(byName, "name")).toMatchObject({ sort: "name", order: "desc" });
    expect(toggleSort(DEFAULT_LIST, "createdAt")).toMatchObject({ order: "asc" });
    expect(toggleSort(byName, "lastLoginAt")).toMatchObject({ order: "desc" });
  });

  it("says the order to assistive technology", () => {
    expect(ariaSort(DEFAULT_LIST, "createdAt")).toBe("descending");
    expect(ariaSort(DEFAULT_LIST, "name")).toBe("none");
    expect(ariaSort({ ...DEFAULT_LIST, sort: "name", order: "asc" }, "name")).toBe("ascending");
  });
});

describe("select all on this page", () => {
  it("adds the page's rows, or removes them when all are chosen, keeping other pages'", () => {
    const some = toggleAll(new Set(["other", "a"]), ["a", "b"]);
    expect([...some].sort()).toEqual(["a", "b", "other"]);
    expect([...toggleAll(some, ["a", "b"])]).toEqual(["other"]);
    expect([...toggleAll(new Set(), [])]).toEqual([]);
  });
});
