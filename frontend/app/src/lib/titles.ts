/** The admin pages' own titles, by path below /admin; /admin itself is the Admin Dashboard. */
function adminTitle(path: string): string {
  const rest = path.slice("/admin".length);
  if (rest === "/superadmin") return "SuperAdmin Dashboard";
  if (rest === "/users") return "Users";
  if (/^\/users\/[^/]+$/.test(rest)) return "User Details";
  if (rest === "/plans") return "Plan Management";
  if (rest === "/audit") return "Audit Log";
  if (rest === "/plans/create") return "Create Plan";
  if (/^\/plans\/[^/]+\/edit$/.test(rest)) return "Edit Plan";
  return "Admin Dashboard";
}

/** The shell header's title for a path; any path not listed falls back to Dashboard. */
export function titleForPath(pathname: string): string {
  const path = pathname.replace(/\/+$/, "") || "/";
  if (path === "/admin" || path.startsWith("/admin/")) return adminTitle(path);
  if (path === "/billing/history") return "Payment History";
  if (path === "/settings/billing") return "Billing & Subscription";
  if (path.startsWith("/billing")) return "Billing & Subscription";
  if (path.startsWith("/campaigns")) return "Campaigns";
  if (path.startsWith("/conversations")) return "Conversations";
  if (path.startsWith("/customers")) return "Customers";
  if (path.startsWith("/settings")) return "Settings";
  return "Dashboard";
}
