/** The System tab's figures: shares of a capacity, and how bytes and uptime read. */

import type { components } from "../../../api/schema";

/** The email outbox, from the System tab's health call. */
export type EmailHealth = components["schemas"]["EmailHealth"];

/** A usage share at or above this is labelled High. */
export const HIGH_USAGE_PERCENT = 80;

/** `used` out of `total` in percent (0 when there is no total), rounded to one decimal. */
export function usagePercent(used: number, total: number): number {
  if (!(total > 0)) return 0;
  return Math.round((Math.max(0, used) / total) * 1000) / 10;
}

export function usageLevel(percent: number): "High" | "Normal" {
  return percent >= HIGH_USAGE_PERCENT ? "High" : "Normal";
}

/** Bytes in binary units with one decimal: 1.5 GB. */
export function formatBytes(bytes: number): string {
  const units = ["B", "KB", "MB", "GB", "TB"];
  let value = Math.max(0, bytes);
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return `${unit === 0 ? value : value.toFixed(1)} ${units[unit]}`;
}

/** Uptime as "3d 4h", "4h 5m" or "5m". */
export function formatUptime(seconds: number): string {
  const s = Math.max(0, Math.floor(seconds));
  const d = Math.floor(s / 86400);
  const h = Math.floor((s % 86400) / 3600);
  const m = Math.floor((s % 3600) / 60);
  if (d > 0) return `${d}d ${h}h`;
  if (h > 0) return `${h}h ${m}m`;
  return `${m}m`;
}

/** How long something has waited: seconds under a minute, then as uptime reads. */
export function formatWait(seconds: number): string {
  const s = Math.max(0, Math.floor(seconds));
  return s < 60 ? `${s} s` : formatUptime(s);
}

/** What putting failed emails back in the queue did, in a sentence. */
export function emailRequeueMessage(requeued: number, leftFailed: number): string {
  const emails = (n: number) => `${n.toLocaleString("en-IN")} ${n === 1 ? "email" : "emails"}`;
  const sent =
    requeued === 0
      ? "No failed email could be sent again."
      : `${emails(requeued)} put back in the queue: the mail server gets ${requeued === 1 ? "it" : "them"} within a few seconds.`;
  return leftFailed === 0
    ? sent
    : `${sent} ${emails(leftFailed)} ${leftFailed === 1 ? "stays" : "stay"} failed (older than 7 days, or ${leftFailed === 1 ? "its" : "their"} link expired).`;
}
