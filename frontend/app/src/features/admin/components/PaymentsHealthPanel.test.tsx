import { MantineProvider } from "@mantine/core";
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { render, screen } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { fetchMock, json } from "../../../test/fetch-mock";
import { PaymentsHealthPanel } from "./PaymentsHealthPanel";

function health(payments: unknown) {
  return {
    success: true,
    data: {
      status: "ok",
      version: "0.1.0",
      uptimeSeconds: 60,
      checkedAt: "2026-11-26T10:00:00Z",
      database: { backend: "sqlite", latencyMs: 1, poolSize: 8, poolIdle: 8 },
      process: { cpuPercent: 1, threads: 4, memoryBytes: 1 },
      eventWriter: { queueDepth: 0, queueCapacity: 100 },
      disk: { path: "/", totalBytes: 10, freeBytes: 5 },
      payments,
    },
  };
}

function renderPanel() {
  render(
    <MantineProvider>
      <QueryClientProvider client={new QueryClient()}>
        <PaymentsHealthPanel />
      </QueryClientProvider>
    </MantineProvider>,
  );
}

describe("PaymentsHealthPanel", () => {
  it("shows stuck payments and a failed reconciliation's error in red", async () => {
    fetchMock.mockResolvedValueOnce(
      json(
        200,
        health({
          pendingOver15Minutes: 2,
          lastReconciliation: {
            ranAt: "2026-11-26T09:59:30Z",
            checked: 3,
            settled: 1,
            expired: 0,
            error: "PayU refused the call: Invalid Hash.",
          },
        }),
      ),
    );
    renderPanel();
    const error = await screen.findByText("PayU refused the call: Invalid Hash.");
    expect(error).toHaveStyle({ color: "var(--mantine-color-red-8)" });
    expect(screen.getByText("2 stuck")).toBeInTheDocument();
    expect(screen.getByTestId("payments-stuck")).toHaveTextContent("2");
    expect(screen.getByText("Failed")).toBeInTheDocument();
    expect(screen.getByTestId("reconciliation-counts")).toHaveTextContent(
      "3 checked · 1 settled · 0 expired",
    );
  });

  it("says when the reconciliation has not run yet", async () => {
    fetchMock.mockResolvedValueOnce(
      json(
        200,
        health({
          pendingOver15Minutes: 0,
          lastReconciliation: { ranAt: null, checked: 0, settled: 0, expired: 0, error: null },
        }),
      ),
    );
    renderPanel();
    expect(await screen.findByText("Not run yet")).toBeInTheDocument();
    expect(screen.getByText("None stuck")).toBeInTheDocument();
    expect(screen.queryByTestId("reconciliation-counts")).toBeNull();
  });
});
