import { Navigate, Outlet, useLocation } from "react-router";
import { FullPageLoader } from "../../../components/FullPageLoader";
import { useAuth } from "../../../lib/auth";
import { currentPage, withNext } from "../../../lib/return-to";

/** The page where two-factor sign-in is set up. */
export const TWO_FACTOR_PATH = "/account/two-factor";

/**
 * Shell routes need a user; a spinner shows while the session check runs. Without one the
 * sign-in page opens, and comes back to the page that was asked for. Staff past their grace
 * period without two-factor sign-in are sent to set it up (the server refuses them the rest).
 */
export function RequireAuth() {
  const { user, twoFactor, loading } = useAuth();
  const location = useLocation();
  if (loading) return <FullPageLoader />;
  if (!user) return <Navigate to={withNext("/login", currentPage(location))} replace />;
  if (twoFactor?.enrolmentRequired && location.pathname !== TWO_FACTOR_PATH) {
    return <Navigate to={TWO_FACTOR_PATH} replace />;
  }
  return <Outlet />;
}
