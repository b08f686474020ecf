import { useQueryClient } from "@tanstack/react-query";
import {
  createContext,
  useCallback,
  useContext,
  useEffect,
  useMemo,
  useRef,
  useState,
} from "react";
import type { ReactNode } from "react";
import type { components } from "../api/schema";
import { client, messageOf, quietClient, type User } from "./api-client";
import { forgetThisBrowsersPush } from "./push-signout";
import { clearAllTokens, clearToken, getToken, restoreStaffSession, setToken } from "./storage";

/** What registering sends: name, email, password and phone (with its country code). */
export type RegisterInput = components["schemas"]["RegisterIn"];
/** The staff member signed in as the current user ("login as user"). */
export type ImpersonatedBy = components["schemas"]["ImpersonatedBy"];
/** Where the current user stands with two-factor sign-in. */
export type TwoFactorStatus = components["schemas"]["TwoFactorStatus"];

/**
 * What a right password gives: the signed-in user, or (with two-factor sign-in on) the token of
 * the second step, to send with a code to `verifyTwoFactor`.
 */
export type LoginResult = { user: User } | { challengeToken: string };

export interface AuthContextValue {
  user: User | null;
  /** Who is signed in as this user, under a "login as user" session; else null. */
  impersonatedBy: ImpersonatedBy | null;
  /** Two-factor sign-in of the current user (null until the session check is done). */
  twoFactor: TwoFactorStatus | null;
  loading: boolean;
  login(email: string, password: string): Promise<LoginResult>;
  /** The second step of signing in: a code from the app or a recovery code. */
  verifyTwoFactor(challengeToken: string, code: string): Promise<User>;
  register(input: RegisterInput): Promise<User>;
  logout(): void;
  /** Re-reads the current user; keeps the old state when that fails. */
  refreshUser(): Promise<void>;
  /** Stores a session the server handed out (password reset, password change). */
  setSession(token: string, user?: User): void;
  /**
   * Return to admin: ends the "login as user" session on the server and goes back to the admin
   * area with the staff session kept aside, without a new sign-in.
   */
  returnToAdmin(): Promise<void>;
}

const AuthContext = createContext<AuthContextValue | null>(null);

export function AuthProvider({ children }: { children: ReactNode }) {
  const [user, setUser] = useState<User | null>(null);
  const [impersonatedBy, setImpersonatedBy] = useState<ImpersonatedBy | null>(null);
  const [twoFactor, setTwoFactor] = useState<TwoFactorStatus | null>(null);
  const [loading, setLoading] = useState(true);
  const queryClient = useQueryClient();
  // Whether the browser is leaving this page. Leaving aborts the page's requests, the start-up
  // check's too, and that failure says nothing about the session: the sign-in pages, for one,
  // go on to the dashboard with a full page load, which checks the new token while the owner
  // may already be going on to another page.
  const leaving = useRef(false);

  useEffect(() => {
    const leave = () => {
      leaving.current = true;
    };
    const stay = () => {
      leaving.current = false;
    };
    window.addEventListener("pagehide", leave);
    window.addEventListener("pageshow", stay);
    return () => {
      window.removeEventListener("pagehide", leave);
      window.removeEventListener("pageshow", stay);
    };
  }, []);

  useEffect(() => {
    let cancelled = false;
    async function check() {
      if (!getToken()) {
        setLoading(false);
        return;
      }
      try {
        const { data } = await quietClient.GET("/api/auth/me");
        if (cancelled) return;
        if (data) {
          setUser(data.user);
          setImpersonatedBy(data.impersonatedBy ?? null);
          setTwoFactor(data.twoFactor);
        } else if (restoreStaffSession()) {
          // The login-as session is over: back to the staff session kept aside.
          window.location.assign("/admin");
        } else clearToken();
      } catch {
        // An aborted request fails before the page is gone: look again a moment later (a page
        // that has gone runs no more timers).
        await new Promise((resolve) => setTimeout(resolve, 0));
        if (!cancelled && !leaving.current) clearToken();
      } finally {
        if (!cancelled) setLoading(false);
      }
    }
    void check();
    return () => {
      cancelled = true;
    };
  }, []);

  /** Reads the two-factor status of a new session (staff may have to set it up first). */
  const readTwoFactor = useCallback(async () => {
    try {
      const { data } = await quietClient.GET("/api/auth/me");
      if (data) setTwoFactor(data.twoFactor);
    } catch {
      // The next page load reads it again.
    }
  }, []);

  const login = useCallback(
    async (email: string, password: string): Promise<LoginResult> => {
      const { data, error } = await client.POST("/api/auth/login", { body: { email, password } });
      if (!data) throw new Error(messageOf(error, "Login failed"));
      if ("challengeToken" in data) return { challengeToken: data.challengeToken };
      setToken(data.token);
      setUser(data.user);
      await readTwoFactor();
      return { user: data.user };
    },
    [readTwoFactor],
  );

  const verifyTwoFactor = useCallback(
    async (challengeToken: string, code: string) => {
      const { data, error } = await client.POST("/api/auth/2fa/verify", {
        body: { challengeToken, code },
      });
      if (!data) throw new Error(messageOf(error, "That code did not work"));
      setToken(data.token);
      setUser(data.user);
      await readTwoFactor();
      return data.user;
    },
    [readTwoFactor],
  );

  const register = useCallback(async (input: RegisterInput) => {
    const { data, error } = await client.POST("/api/auth/register", { body: input });
    if (!data) throw new Error(messageOf(error, "Registration failed"));
    setToken(data.token);
    setUser(data.user);
    return data.user;
  }, []);

  const logout = useCallback(() => {
    void forgetThisBrowsersPush(getToken()).catch(() => undefined);
    clearAllTokens();
    setUser(null);
    setImpersonatedBy(null);
    setTwoFactor(null);
    queryClient.clear();
  }, [queryClient]);

  const refreshUser = useCallback(async () => {
    try {
      const { data } = await client.GET("/api/auth/me");
      if (data) {
        setUser(data.user);
        setTwoFactor(data.twoFactor);
      }
    } catch {
      // Keep the current state on a network failure.
    }
  }, []);

  const setSession = useCallback((token: string, next?: User) => {
    setToken(token);
    if (next) setUser(next);
  }, []);

  const returnToAdmin = useCallback(async () => {
    try {
      // Quiet: the login-as token may already be over (401), which changes nothing here.
      await quietClient.POST("/api/admin/return");
    } catch {
      // The staff session comes back even if the server could not be told.
    }
    queryClient.clear();
    if (restoreStaffSession()) {
      window.location.assign("/admin");
    } else {
      clearToken();
      window.location.assign("/auth");
    }
  }, [queryClient]);

  const value = useMemo<AuthContextValue>(
    () => ({
      user,
      impersonatedBy,
      twoFactor,
      loading,
      login,
      verifyTwoFactor,
      register,
      logout,
      refreshUser,
      setSession,
      returnToAdmin,
    }),
    [
      user,
      impersonatedBy,
      twoFactor,
      loading,
      login,
      verifyTwoFactor,
      register,
      logout,
      refreshUser,
      setSession,
      returnToAdmin,
    ],
  );
  return <AuthContext.Provider value={value}>{children}</AuthContext.Provider>;
}

export function useAuth(): AuthContextValue {
  const ctx = useContext(AuthContext);
  if (!ctx) throw new Error("useAuth must be used within an AuthProvider");
  return ctx;
}

/** Roles that may open the admin area. */
export function isStaff(user: User | null): boolean {
  return user?.role === "admin" || user?.role === "superuser";
}
