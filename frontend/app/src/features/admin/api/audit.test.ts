import { describe, expect, it } from "vitest";
import {
  auditCsv,
  filtersFromParams,
  paramsFromFilters,
  type AuditEntry,
  type AuditFilters,
} from "./audit";

const entry = (over: Partial<AuditEntry> = {}): AuditEntry => ({
  id: "e1",
  at: "2026-11-26T10:00:00Z",
  actorId: "su-1",
  actorEmail: "root@example.in",
  actorName: "Root",
  action: "update_user",
  targetType: "user",
  targetId: "u-1",
  targetUserId: "u-1",
  // The schema types the fields as an open object.
  before: { name: "Asha" } as unknown as AuditEntry["before"],
  after: { name: "Meera" } as unknown as AuditEntry["after"],
  viaLoginAs: false,
  request: null,
  ...over,
});

describe("audit filters in the URL", () => {
  it("read back what they wrote, leaving out empty ones and page 1", () => {
    const f: AuditFilters = {
      actor: "desk@",
      targetUserId: "u-1",
      action: "suspend_user",
      from: "2026-11-01",
      to: "2026-11-30",
      page: 3,
    };
    const params = paramsFromFilters(f);
    expect(params.toString()).toBe(
      "actor=desk%40&targetUserId=u-1&action=suspend_user&from=2026-11-01&to=2026-11-30&page=3",
    );
    expect(filtersFromParams(params)).toEqual(f);
    expect(paramsFromFilters({ ...f, actor: " ", page: 1 }).has("page")).toBe(false);
  });

  it("read malformed dates and pages as no filter", () => {
    const f = filtersFromParams(new URLSearchParams("from=yesterday&to=2026-1-1&page=-2"));
    expect(f).toEqual({ actor: "", targetUserId: "", action: "", from: "", to: "", page: 1 });
  });
});

describe("audit CSV", () => {
  it("has a header and one row per entry with the changed fields, safe for spreadsheets", () => {
    const csv = auditCsv([
      entry(),
      entry({
        id: "e2",
        action: "request_as_user",
        viaLoginAs: true,
        before: null,
        after: null,
        request: { method: "POST", path: "/api/campaigns" },
        actorEmail: "=cmd@example.in",
      }),
    ]);
    const lines = csv.split("\r\n");
    expect(lines[0]).toBe(
      "Time (UTC),Actor email,Actor id,Action,Target type,Target id,Target user id,Via login as,Details",
    );
    expect(lines[1]).toBe(
      "2026-11-26T10:00:00Z,root@example.in,su-1,update user,user,u-1,u-1,no,name: Asha → Meera",
    );
    expect(lines[2]).toBe(
      "2026-11-26T10:00:00Z,'=cmd@example.in,su-1,request as user,user,u-1,u-1,yes,POST /api/campaigns",
    );
    expect(lines[3]).toBe("");
  });
});
