import { Navigate, Outlet, useLocation } from "react-router";
import { FullPageLoader } from "../../../components/FullPageLoader";
import { useAuth } from "../../../lib/auth";
import { currentPage, withNext } from "../../../lib/return-to";

/**
 * Shell routes need a user; a spinner shows while the session check runs. Without one the
 * sign-in page opens, and comes back to the page that was asked for.
 */
export function RequireAuth() {
  const { user, loading } = useAuth();
  const location = useLocation();
  if (loading) return <FullPageLoader />;
  if (!user) return <Navigate to={withNext("/login", currentPage(location))} replace />;
  return <Outlet />;
}
