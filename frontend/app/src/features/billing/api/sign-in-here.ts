import { useEffect } from "react";
import { useLocation } from "react-router";
import { askToSignInHere } from "../../../lib/api-client";
import { currentPage, withNext } from "../../../lib/return-to";

/**
 * For a screen that tells the owner itself to log in again: while it is open a 401 does not sign
 * the owner out and leave; the screen shows its message with the link this returns, a sign-in
 * that comes back to this very page.
 */
export function useSignInHere(): string {
  useEffect(() => askToSignInHere(), []);
  return withNext("/login", currentPage(useLocation()));
}
