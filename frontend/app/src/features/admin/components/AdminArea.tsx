import { Center, Loader } from "@mantine/core";
import { Suspense } from "react";
import { Outlet } from "react-router";
import { isStaff, useAuth } from "../../../lib/auth";
import { AccessDenied } from "./AccessDenied";
import { AdminNoticeProvider } from "./AdminNotice";

/** The admin routes' guard: staff get the screen, everyone else the Access Denied view. */
export function AdminArea() {
  const { user } = useAuth();
  if (!user) return null;
  if (!isStaff(user)) return <AccessDenied role={user.role} />;
  return (
    <Suspense
      fallback={
        <Center mih="40vh" role="status" aria-label="Loading">
          <Loader />
        </Center>
      }
    >
      <AdminNoticeProvider>
        <Outlet />
      </AdminNoticeProvider>
    </Suspense>
  );
}
