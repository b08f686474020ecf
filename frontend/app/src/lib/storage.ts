/** Local storage keys: the session token and the theme, named as the original client named them. */
export const TOKEN_KEY = "token";
export const THEME_KEY = "theme";
/** The staff member's own session token, kept aside while they are signed in as an owner. */
export const STAFF_TOKEN_KEY = "staffToken";

export function getToken(): string | null {
  return localStorage.getItem(TOKEN_KEY);
}

export function setToken(token: string): void {
  localStorage.setItem(TOKEN_KEY, token);
}

export function clearToken(): void {
  localStorage.removeItem(TOKEN_KEY);
}

/**
 * Starts a "login as user" session: the staff member's own token is kept aside and the
 * login-as token becomes the session token.
 */
export function beginImpersonation(loginAsToken: string): void {
  const own = getToken();
  // Signed in as someone already: the staff token kept aside stays the one to come back to.
  if (own && !localStorage.getItem(STAFF_TOKEN_KEY)) localStorage.setItem(STAFF_TOKEN_KEY, own);
  setToken(loginAsToken);
}

/** Whether a staff session is kept aside (the session token is a login-as one). */
export function isImpersonating(): boolean {
  return localStorage.getItem(STAFF_TOKEN_KEY) !== null;
}

/**
 * Ends a "login as user" session in the browser: the staff member's own token becomes the
 * session token again. False when no staff token was kept aside (nothing changes then).
 */
export function restoreStaffSession(): boolean {
  const staff = localStorage.getItem(STAFF_TOKEN_KEY);
  if (staff === null) return false;
  localStorage.removeItem(STAFF_TOKEN_KEY);
  setToken(staff);
  return true;
}

/** Forgets every session token, the one kept aside too (signing out). */
export function clearAllTokens(): void {
  clearToken();
  localStorage.removeItem(STAFF_TOKEN_KEY);
}

/** The app is light-theme only; the key is kept for compatibility with the original client. */
export function rememberLightTheme(): void {
  localStorage.setItem(THEME_KEY, "light");
}
