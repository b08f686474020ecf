import type { components } from "../../../api/schema";
import { $api, client } from "../../../lib/api-client";
import { csvCell } from "../../billing/api/history-csv";
import { auditAction, auditDetails } from "./display";

export type AuditEntry = components["schemas"]["AuditLogEntry"];

/** Entries a page of the audit screen. */
export const AUDIT_PAGE_SIZE = 25;
/** Entries fetched per call when exporting (the server's largest page). */
const EXPORT_PAGE_SIZE = 200;

/** The audit screen's filters, as kept in the address bar. */
export interface AuditFilters {
  actor: string;
  targetUserId: string;
  action: string;
  /** A day, YYYY-MM-DD, or empty. */
  from: string;
  /** A day, YYYY-MM-DD (included), or empty. */
  to: string;
  page: number;
}

const DAY = /^\d{4}-\d{2}-\d{2}$/;
const TEXT_KEYS = ["actor", "targetUserId", "action"] as const;

/** The filters a URL's query holds; anything malformed reads as no filter. */
export function filtersFromParams(params: URLSearchParams): AuditFilters {
  const day = (key: string) => {
    const v = params.get(key)?.trim() ?? "";
    return DAY.test(v) ? v : "";
  };
  const page = Number(params.get("page"));
  return {
    actor: params.get("actor")?.trim() ?? "",
    targetUserId: params.get("targetUserId")?.trim() ?? "",
    action: params.get("action")?.trim() ?? "",
    from: day("from"),
    to: day("to"),
    page: Number.isInteger(page) && page > 1 ? page : 1,
  };
}

/** The query string of `f`, leaving out what is empty or the default (page 1). */
export function paramsFromFilters(f: AuditFilters): URLSearchParams {
  const params = new URLSearchParams();
  for (const key of TEXT_KEYS) {
    if (f[key].trim()) params.set(key, f[key].trim());
  }
  if (f.from) params.set("from", f.from);
  if (f.to) params.set("to", f.to);
  if (f.page > 1) params.set("page", String(f.page));
  return params;
}

/** The call's query for `f`: empty filters are left out. */
function query(f: AuditFilters, page: number, limit: number) {
  return {
    actor: f.actor.trim() || undefined,
    targetUserId: f.targetUserId.trim() || undefined,
    action: f.action.trim() || undefined,
    from: f.from || undefined,
    to: f.to || undefined,
    page: String(page),
    limit: String(limit),
  };
}

/** One page of the audit log, filtered. */
export function useAuditLog(f: AuditFilters) {
  return $api.useQuery(
    "get",
    "/api/admin/audit",
    { params: { query: query(f, f.page, AUDIT_PAGE_SIZE) } },
    { placeholderData: (previous) => previous },
  );
}

/** Every entry the filters match, a page of the server's largest size at a time. */
export async function fetchAllAudit(f: AuditFilters): Promise<AuditEntry[]> {
  const all: AuditEntry[] = [];
  for (let page = 1; ; page += 1) {
    const { data, error } = await client.GET("/api/admin/audit", {
      params: { query: query(f, page, EXPORT_PAGE_SIZE) },
    });
    if (error || !data) throw new Error(error?.message ?? "The audit log could not be exported");
    all.push(...data.data.entries);
    if (page >= data.data.pagination.pages) return all;
  }
}

/** An entry's details in one line: the request, the refusal's reason or the changed fields. */
export function entryDetails(e: AuditEntry): string {
  return auditDetails({
    action: e.action,
    before: (e.before as Record<string, unknown> | null | undefined) ?? null,
    after: (e.after as Record<string, unknown> | null | undefined) ?? null,
    request: e.request ?? null,
  }).join("; ");
}

export const AUDIT_CSV_COLUMNS = [
  "Time (UTC)",
  "Actor email",
  "Actor id",
  "Action",
  "Target type",
  "Target id",
  "Target user id",
  "Via login as",
  "Details",
] as const;

/** The export of the filtered entries: a header row, then one row per entry (CRLF lines). */
export function auditCsv(entries: AuditEntry[]): string {
  const rows = entries.map((e) => [
    e.at,
    e.actorEmail,
    e.actorId,
    auditAction(e.action),
    e.targetType,
    e.targetId,
    e.targetUserId ?? "",
    e.viaLoginAs ? "yes" : "no",
    entryDetails(e),
  ]);
  return (
    [[...AUDIT_CSV_COLUMNS], ...rows].map((row) => row.map(csvCell).join(",")).join("\r\n") + "\r\n"
  );
}

/** The actions staff filter by most, in words. */
export const AUDIT_ACTIONS = [
  "update_user",
  "delete_user",
  "create_user",
  "create_admin",
  "change_plan",
  "suspend_user",
  "unsuspend_user",
  "send_password_reset",
  "sign_out_everywhere",
  "add_note",
  "login_as_user",
  "return_from_login_as",
  "request_as_user",
  "create_plan",
  "update_plan",
  "deactivate_plan",
  "refund_payment",
  "update_trial_settings",
  "set_ad_spend",
] as const;
