import { lazy } from "react";
import { NotFound } from "../../components/NotFound";
import { RequirePermission } from "./components/RequirePermission";

// Staff screens load on first visit, so owners never download them.
const AdminDashboardPage = lazy(() =>
  import("./routes/AdminDashboardPage").then((m) => ({ default: m.AdminDashboardPage })),
);
const SuperAdminDashboardPage = lazy(() =>
  import("./routes/SuperAdminDashboardPage").then((m) => ({ default: m.SuperAdminDashboardPage })),
);
const AdminUsersPage = lazy(() =>
  import("./routes/AdminUsersPage").then((m) => ({ default: m.AdminUsersPage })),
);
const AdminUserDetailPage = lazy(() =>
  import("./routes/AdminUserDetailPage").then((m) => ({ default: m.AdminUserDetailPage })),
);
const PlanManagementPage = lazy(() =>
  import("./routes/PlanManagementPage").then((m) => ({ default: m.PlanManagementPage })),
);
const CreatePlanPage = lazy(() =>
  import("./routes/CreatePlanPage").then((m) => ({ default: m.CreatePlanPage })),
);
const AuditLogPage = lazy(() =>
  import("./routes/AuditLogPage").then((m) => ({ default: m.AuditLogPage })),
);
const EditPlanPage = lazy(() =>
  import("./routes/EditPlanPage").then((m) => ({ default: m.EditPlanPage })),
);

const PLANS_REFUSAL = "Only superusers can create, change or deactivate plans.";
const BACK_TO_PLANS = { to: "/admin/plans", label: "Back to Plans" };
const AUDIT_REFUSAL = "Only superusers can read the audit log.";
const BACK_TO_ADMIN = { to: "/admin", label: "Back to Admin Dashboard" };

/** The routes under /admin, rendered inside AdminArea. */
export const adminRoutes = [
  { index: true, element: <AdminDashboardPage /> },
  { path: "superadmin", element: <SuperAdminDashboardPage /> },
  { path: "users", element: <AdminUsersPage /> },
  { path: "users/:userId", element: <AdminUserDetailPage /> },
  { path: "plans", element: <PlanManagementPage /> },
  {
    path: "plans/create",
    element: (
      <RequirePermission action="managePlans" refusal={PLANS_REFUSAL} back={BACK_TO_PLANS}>
        <CreatePlanPage />
      </RequirePermission>
    ),
  },
  {
    path: "plans/:planId/edit",
    element: (
      <RequirePermission action="managePlans" refusal={PLANS_REFUSAL} back={BACK_TO_PLANS}>
        <EditPlanPage />
      </RequirePermission>
    ),
  },
  {
    path: "audit",
    element: (
      <RequirePermission action="viewAudit" refusal={AUDIT_REFUSAL} back={BACK_TO_ADMIN}>
        <AuditLogPage />
      </RequirePermission>
    ),
  },
  { path: "*", element: <NotFound home="/admin" /> },
];
