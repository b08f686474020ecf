import { MantineProvider } from "@mantine/core";
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { render, screen } from "@testing-library/react";
import { MemoryRouter } from "react-router";
import { describe, expect, it } from "vitest";
import { AuthProvider } from "../../../lib/auth";
import { fetchMock, json, sampleUser } from "../../../test/fetch-mock";
import { Navigation } from "./Navigation";

async function renderFor(role: string) {
  localStorage.setItem("token", "t");
  fetchMock.mockResolvedValueOnce(json(200, { success: true, user: { ...sampleUser, role } }));
  render(
    <MantineProvider>
      <QueryClientProvider client={new QueryClient()}>
        <AuthProvider>
          <MemoryRouter initialEntries={["/dashboard"]}>
            <Navigation />
          </MemoryRouter>
        </AuthProvider>
      </QueryClientProvider>
    </MantineProvider>,
  );
  await screen.findByText(sampleUser.name);
}

describe("Navigation", () => {
  it("shows the six entries to an owner, without the admin link", async () => {
    await renderFor("user");
    for (const label of [
      "Overview",
      "Campaigns",
      "Conversations",
      "Customers",
      "Billing",
      "Settings",
    ]) {
      expect(screen.getByRole("link", { name: label })).toBeInTheDocument();
    }
    expect(screen.queryByRole("link", { name: "Admin Dashboard" })).toBeNull();
  });

  it.each(["admin", "superuser"])("shows the admin link to %s", async (role) => {
    await renderFor(role);
    expect(screen.getByRole("link", { name: "Admin Dashboard" })).toHaveAttribute("href", "/admin");
  });
});
