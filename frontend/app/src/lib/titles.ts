/** The shell header's title for a path; any path not listed falls back to Dashboard. */
export function titleForPath(pathname: string): string {
  const path = pathname.replace(/\/+$/, "") || "/";
  if (path.startsWith("/admin")) return "Admin Dashboard";
  if (path === "/billing/history") return "Payment History";
  if (path === "/settings/billing") return "Billing & Subscription";
  if (path.startsWith("/billing")) return "Billing & Subscription";
  if (path.startsWith("/campaigns")) return "Campaigns";
  if (path.startsWith("/conversations")) return "Conversations";
  if (path.startsWith("/customers")) return "Customers";
  if (path.startsWith("/settings")) return "Settings";
  return "Dashboard";
}
