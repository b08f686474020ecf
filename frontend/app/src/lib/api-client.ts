import createClient, { type Middleware } from "openapi-fetch";
import createQueryHooks from "openapi-react-query";
import type { components, paths } from "../api/schema";
import { currentPage, withNext } from "./return-to";
import { clearToken, getToken, restoreStaffSession } from "./storage";

export type User = components["schemas"]["UserOut"];
export type ErrorBody = components["schemas"]["ErrorBody"];

/** Sends the stored token as a bearer header. */
const authHeader: Middleware = {
  onRequest({ request }) {
    const token = getToken();
    if (token) request.headers.set("Authorization", `Bearer ${token}`);
    return request;
  },
};

/** Where a 401 sends the browser: the session-expired page, which asks to sign in again. */
export const SESSION_EXPIRED_PATH = "/auth";

/** Where staff land when a "login as user" session is over. */
export const ADMIN_HOME_PATH = "/admin";

/** How many shown screens say themselves that the owner must sign in again (see below). */
let screensAskingToSignIn = 0;

/**
 * While a screen that shows its own "Please log in again" message is open (the billing
 * screens), a 401 leaves the owner where they are: that screen says so, with a sign-in link that
 * comes back to it. Returns the function that ends this when the screen closes.
 */
export function askToSignInHere(): () => void {
  screensAskingToSignIn += 1;
  let ended = false;
  return () => {
    if (ended) return;
    ended = true;
    screensAskingToSignIn -= 1;
  };
}

/**
 * A 401 answer to a call that carried a token means the session is over: a "login as user"
 * session gives way to the staff session kept aside (back to the admin area); any other
 * session's token is forgotten and the browser goes to the session-expired page, which signs in
 * again and comes back to `here()`. Not while a screen that says so itself is open (see
 * askToSignInHere).
 */
export function sessionExpiry(
  navigate: (path: string) => void,
  here: () => string = () => currentPage(window.location),
): Middleware {
  return {
    onResponse({ request, response }) {
      if (response.status === 401 && request.headers.has("Authorization")) {
        if (restoreStaffSession()) {
          navigate(ADMIN_HOME_PATH);
        } else if (screensAskingToSignIn === 0) {
          clearToken();
          navigate(withNext(SESSION_EXPIRED_PATH, here()));
        }
      }
      return response;
    },
  };
}

/** The shared client: every feature's calls go through it. */
/** Same origin: the server serves the dashboard and the API. */
const baseUrl = window.location.origin;

export const client = createClient<paths>({ baseUrl });
client.use(authHeader);
client.use(sessionExpiry((path) => window.location.assign(path)));

/** For the start-up session check only: a 401 there silently discards the token. */
export const quietClient = createClient<paths>({ baseUrl });
quietClient.use(authHeader);

/** TanStack Query hooks over the shared client. */
export const $api = createQueryHooks(client);

/** The message to show for a failed call: the server's, else the screen's fallback. */
export function messageOf(error: unknown, fallback: string): string {
  if (error && typeof error === "object" && "message" in error) {
    const message = (error as { message?: unknown }).message;
    if (typeof message === "string" && message.trim() !== "") return message;
  }
  return fallback;
}
