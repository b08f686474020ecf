import { formatDate, formatMoney } from "../../../lib/format";

/** A plan's price in its currency, without decimals; text a browser cannot format stays as typed. */
export function formatPrice(price: number, currency: string): string {
  return formatMoney(price, currency);
}

/** "/month" or "/year" after a price. */
export function perInterval(interval: string): string {
  if (interval === "monthly") return "/month";
  if (interval === "yearly" || interval === "annual") return "/year";
  return interval ? `/${interval}` : "";
}

/** A count in en-IN digits. */
export function count(n: number): string {
  return n.toLocaleString("en-IN");
}

/** Minimum password length for accounts staff create. */
export const PASSWORD_MIN = 6;
export const PASSWORD_TOO_SHORT = "Password must be at least 6 characters long";

const ISO_DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/;

/** An audit action code in words: "change_plan" → "change plan". */
export function auditAction(action: string): string {
  return action.replace(/_/g, " ");
}

/** An audit entry as the Activity tab shows it. */
export interface AuditLike {
  action: string;
  before?: Record<string, unknown> | null;
  after?: Record<string, unknown> | null;
  request?: { method: string; path: string } | null;
}

/**
 * The lines under an audit entry: the request of a write made while signed in as the account,
 * the reason of a refusal, else the fields the change really changed.
 */
export function auditDetails(entry: AuditLike): string[] {
  if (entry.request) return [`${entry.request.method} ${entry.request.path}`];
  if (entry.action.endsWith("_refused")) {
    const reason = entry.after?.reason;
    return typeof reason === "string" && reason !== "" ? [`Refused: ${reason}`] : ["Refused"];
  }
  return auditChanges(entry.before ?? null, entry.after ?? null);
}

/** The changed fields of an audit entry: "planId: free → basic". */
export function auditChanges(
  before: Record<string, unknown> | null,
  after: Record<string, unknown> | null,
): string[] {
  const keys = new Set([...Object.keys(before ?? {}), ...Object.keys(after ?? {})]);
  const show = (v: unknown) => {
    if (v === undefined || v === null || v === "") return "—";
    if (typeof v === "string" && ISO_DATE_TIME.test(v)) return formatDate(v);
    return typeof v === "object" ? JSON.stringify(v) : String(v);
  };
  const lines: string[] = [];
  for (const key of keys) {
    const b = before?.[key];
    const a = after?.[key];
    // Unchanged, or empty before and after (null and a missing field alike).
    if (JSON.stringify(b) === JSON.stringify(a) || show(b) === show(a)) continue;
    lines.push(`${key}: ${show(b)} → ${show(a)}`);
  }
  return lines;
}

/** Who is on a plan about to be deactivated: they keep it until their period ends. */
export function ownersOnPlanText(owners: number): string {
  if (owners === 0) return "No owners are on this plan.";
  if (owners === 1) return "1 owner is on this plan; they keep it until their period ends.";
  return `${owners.toLocaleString("en-IN")} owners are on this plan; they keep it until their period ends.`;
}
