import { MantineProvider } from "@mantine/core";
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { render, screen } from "@testing-library/react";
import { MemoryRouter, Route, Routes } from "react-router";
import { describe, expect, it } from "vitest";
import { AuthProvider } from "../../../lib/auth";
import { fetchMock, json, sampleUser } from "../../../test/fetch-mock";
import { AdminArea } from "./AdminArea";

async function renderAs(role: string) {
  localStorage.setItem("token", "t");
  fetchMock.mockResolvedValueOnce(json(200, { success: true, user: { ...sampleUser, role } }));
  render(
    <MantineProvider>
      <QueryClientProvider client={new QueryClient()}>
        <AuthProvider>
          <MemoryRouter initialEntries={["/admin/plans"]}>
            <Routes>
              <Route path="/admin" element={<AdminArea />}>
                <Route path="plans" element={<p>Plan screen</p>} />
              </Route>
            </Routes>
          </MemoryRouter>
        </AuthProvider>
      </QueryClientProvider>
    </MantineProvider>,
  );
}

describe("AdminArea", () => {
  it("shows an owner the Access Denied view with their role", async () => {
    await renderAs("user");
    expect(await screen.findByRole("heading", { name: "Access Denied" })).toBeInTheDocument();
    expect(
      screen.getByText("You don't have permission to access the admin dashboard."),
    ).toBeInTheDocument();
    expect(
      screen.getByText("Only administrators and superusers can access this area."),
    ).toBeInTheDocument();
    expect(screen.getByTestId("your-role")).toHaveTextContent("user");
    expect(screen.queryByText("Plan screen")).toBeNull();
  });

  it.each(["admin", "superuser"])("lets %s in", async (role) => {
    await renderAs(role);
    expect(await screen.findByText("Plan screen")).toBeInTheDocument();
  });
});
