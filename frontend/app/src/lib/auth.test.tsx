import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { act, render, renderHook, screen, waitFor } from "@testing-library/react";
import type { ReactNode } from "react";
import { describe, expect, it } from "vitest";
import { fetchMock, json, sampleUser } from "../test/fetch-mock";
import { AuthProvider, useAuth } from "./auth";

function wrapper({ children }: { children: ReactNode }) {
  return (
    <QueryClientProvider client={new QueryClient()}>
      <AuthProvider>{children}</AuthProvider>
    </QueryClientProvider>
  );
}

function Probe() {
  const { user, loading } = useAuth();
  return <p>{loading ? "loading" : (user?.name ?? "nobody")}</p>;
}

describe("AuthProvider", () => {
  it("refuses to be used outside its provider", () => {
    expect(() => renderHook(() => useAuth())).toThrow(
      "useAuth must be used within an AuthProvider",
    );
  });

  it("without a stored token there is no user and no call", async () => {
    render(<Probe />, { wrapper });
    await screen.findByText("nobody");
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it("a stored token is checked with the server and the user is set", async () => {
    localStorage.setItem("token", "good");
    fetchMock.mockResolvedValueOnce(json(200, { success: true, user: sampleUser }));
    render(<Probe />, { wrapper });
    expect(screen.getByText("loading")).toBeInTheDocument();
    await screen.findByText("Priya Sharma");
    const request = fetchMock.mock.calls[0]?.[0];
    expect(request?.url).toMatch(/\/api\/auth\/me$/);
    expect(request?.headers.get("Authorization")).toBe("Bearer good");
  });

  it("a refused token is discarded silently, without leaving the page", async () => {
    localStorage.setItem("token", "stale");
    fetchMock.mockResolvedValueOnce(
      json(401, { success: false, message: "expired", code: "invalid_token" }),
    );
    const before = window.location.href;
    render(<Probe />, { wrapper });
    await screen.findByText("nobody");
    expect(localStorage.getItem("token")).toBeNull();
    expect(window.location.href).toBe(before);
  });

  it("a network failure during the check also discards the token", async () => {
    localStorage.setItem("token", "t");
    fetchMock.mockRejectedValueOnce(new TypeError("Failed to fetch"));
    render(<Probe />, { wrapper });
    await screen.findByText("nobody");
    expect(localStorage.getItem("token")).toBeNull();
  });

  it("a check cut short because the browser is leaving the page keeps the token", async () => {
    localStorage.setItem("token", "t");
    let abort: (reason: unknown) => void = () => {};
    fetchMock.mockReturnValueOnce(new Promise((_, reject) => (abort = reject)));
    render(<Probe />, { wrapper });
    await waitFor(() => expect(fetchMock).toHaveBeenCalled());
    window.dispatchEvent(new Event("pagehide"));
    abort(new TypeError("Failed to fetch"));
    await screen.findByText("nobody");
    expect(localStorage.getItem("token")).toBe("t");
    window.dispatchEvent(new Event("pageshow"));
  });

  it("login stores the token and sets the user; failures carry the server's message or the fallback", async () => {
    const { result } = renderHook(() => useAuth(), { wrapper });
    await waitFor(() => expect(result.current.loading).toBe(false));

    fetchMock.mockResolvedValueOnce(
      json(401, { success: false, message: "Invalid email or password", code: "x" }),
    );
    await expect(result.current.login("a@b.in", "nope")).rejects.toThrow(
      "Invalid email or password",
    );
    fetchMock.mockResolvedValueOnce(json(500, {}));
    await expect(result.current.login("a@b.in", "nope")).rejects.toThrow("Login failed");

    fetchMock.mockResolvedValueOnce(json(200, { success: true, token: "new", user: sampleUser }));
    await act(() => result.current.login("priya@example.in", "secret1"));
    expect(localStorage.getItem("token")).toBe("new");
    expect(result.current.user?.email).toBe("priya@example.in");

    act(() => result.current.logout());
    expect(localStorage.getItem("token")).toBeNull();
    expect(result.current.user).toBeNull();
  });

  it("register falls back to 'Registration failed'", async () => {
    const { result } = renderHook(() => useAuth(), { wrapper });
    await waitFor(() => expect(result.current.loading).toBe(false));
    fetchMock.mockResolvedValueOnce(json(500, {}));
    await expect(
      result.current.register({ name: "A", email: "a@b.in", password: "secret1", phone: "+91 1" }),
    ).rejects.toThrow("Registration failed");
  });

  it("refreshUser keeps the current user when the call fails", async () => {
    localStorage.setItem("token", "good");
    fetchMock.mockResolvedValueOnce(json(200, { success: true, user: sampleUser }));
    const { result } = renderHook(() => useAuth(), { wrapper });
    await waitFor(() => expect(result.current.user?.name).toBe("Priya Sharma"));
    fetchMock.mockRejectedValueOnce(new TypeError("offline"));
    await act(() => result.current.refreshUser());
    expect(result.current.user?.name).toBe("Priya Sharma");
  });
});
