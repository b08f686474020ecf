import { Navigate, Outlet } from "react-router";
import { FullPageLoader } from "../../../components/FullPageLoader";
import { useAuth } from "../../../lib/auth";

/** Shell routes need a user; a spinner shows while the session check runs. */
export function RequireAuth() {
  const { user, loading } = useAuth();
  if (loading) return <FullPageLoader />;
  if (!user) return <Navigate to="/login" replace />;
  return <Outlet />;
}
