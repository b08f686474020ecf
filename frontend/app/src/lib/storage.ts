/** Local storage keys: the session token and the theme, named as the original client named them. */
export const TOKEN_KEY = "token";
export const THEME_KEY = "theme";

export function getToken(): string | null {
  return localStorage.getItem(TOKEN_KEY);
}

export function setToken(token: string): void {
  localStorage.setItem(TOKEN_KEY, token);
}

export function clearToken(): void {
  localStorage.removeItem(TOKEN_KEY);
}

/** The app is light-theme only; the key is kept for compatibility with the original client. */
export function rememberLightTheme(): void {
  localStorage.setItem(THEME_KEY, "light");
}
