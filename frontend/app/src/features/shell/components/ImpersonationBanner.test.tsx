import { MantineProvider } from "@mantine/core";
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { render, screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { AuthProvider } from "../../../lib/auth";
import { fetchMock, json, sampleUser } from "../../../test/fetch-mock";
import { ImpersonationBanner, impersonationText } from "./ImpersonationBanner";

const assign = vi.fn();

function renderWith(me: unknown) {
  fetchMock.mockResolvedValueOnce(json(200, me));
  render(
    <MantineProvider>
      <QueryClientProvider client={new QueryClient()}>
        <AuthProvider>
          <ImpersonationBanner />
          <p>Page</p>
        </AuthProvider>
      </QueryClientProvider>
    </MantineProvider>,
  );
}

describe("ImpersonationBanner", () => {
  beforeEach(() => {
    vi.stubGlobal("location", { ...window.location, assign });
  });
  afterEach(() => {
    vi.unstubAllGlobals();
    assign.mockReset();
  });

  it("says whose account is viewed and that actions are recorded", () => {
    expect(impersonationText(sampleUser)).toBe(
      "Viewing as Priya Sharma (priya@example.in). Actions are recorded.",
    );
  });

  it("is not shown in a session of one's own", async () => {
    localStorage.setItem("token", "own");
    renderWith({ success: true, user: sampleUser });
    await screen.findByText("Page");
    await waitFor(() => expect(fetchMock).toHaveBeenCalledTimes(1));
    expect(screen.queryByTestId("impersonation-banner")).toBeNull();
  });

  it("under a login-as session, Return ends it and restores the staff session", async () => {
    localStorage.setItem("staffToken", "staff");
    localStorage.setItem("token", "as-owner");
    renderWith({
      success: true,
      user: sampleUser,
      impersonatedBy: { id: "su1", email: "root@example.in" },
    });
    const banner = await screen.findByTestId("impersonation-banner");
    expect(banner).toHaveTextContent(
      "Viewing as Priya Sharma (priya@example.in). Actions are recorded.",
    );
    expect(banner).toHaveTextContent("Signed in by root@example.in");

    fetchMock.mockResolvedValueOnce(json(200, { success: true, message: "Returned to admin" }));
    await userEvent.click(screen.getByRole("button", { name: "Return to admin" }));
    await waitFor(() => expect(assign).toHaveBeenCalledWith("/admin"));
    const request = fetchMock.mock.calls[1]?.[0];
    expect(request?.method).toBe("POST");
    expect(request?.url).toMatch(/\/api\/admin\/return$/);
    expect(request?.headers.get("Authorization")).toBe("Bearer as-owner");
    expect(localStorage.getItem("token")).toBe("staff");
    expect(localStorage.getItem("staffToken")).toBeNull();
  });
});
