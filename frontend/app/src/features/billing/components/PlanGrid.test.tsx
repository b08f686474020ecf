import { MantineProvider } from "@mantine/core";
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { render, screen } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { AuthProvider } from "../../../lib/auth";
import { fetchMock, json } from "../../../test/fetch-mock";
import { PlanGrid } from "./PlanGrid";

function renderGrid() {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return render(
    <MantineProvider>
      <QueryClientProvider client={queryClient}>
        <AuthProvider>
          <PlanGrid currentPlanId="free" />
        </AuthProvider>
      </QueryClientProvider>
    </MantineProvider>,
  );
}

describe("PlanGrid loading failures", () => {
  it("a network failure shows the product's message, not the browser's 'Failed to fetch'", async () => {
    fetchMock.mockRejectedValue(new TypeError("Failed to fetch"));
    renderGrid();
    expect(await screen.findByRole("alert")).toHaveTextContent(/^Failed to fetch plans$/);
  });

  it("a refusal shows the server's message", async () => {
    fetchMock.mockResolvedValue(
      json(503, { success: false, message: "Plans are being updated", code: "unavailable" }),
    );
    renderGrid();
    expect(await screen.findByRole("alert")).toHaveTextContent("Plans are being updated");
  });
});
