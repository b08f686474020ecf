import { MantineProvider } from "@mantine/core";
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { render, screen } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { fetchMock, json } from "../../../test/fetch-mock";
import { SystemHealthPanel } from "./SystemHealthPanel";

function health(email: unknown) {
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
      payments: {
        pendingOver15Minutes: 0,
        lastReconciliation: { ranAt: null, checked: 0, settled: 0, expired: 0, error: null },
      },
      email,
    },
  };
}

function renderPanel() {
  render(
    <MantineProvider>
      <QueryClientProvider client={new QueryClient()}>
        <SystemHealthPanel />
      </QueryClientProvider>
    </MantineProvider>,
  );
}

describe("SystemHealthPanel's Email card", () => {
  it("shows what waits and what the mail server refused", async () => {
    fetchMock.mockResolvedValueOnce(
      json(
        200,
        health({
          mailServer: true,
          waiting: 3,
          oldestWaitingSeconds: 95,
          failedLast7Days: 2,
          lastFailure: {
            createdAt: "2026-11-26T09:00:00Z",
            subject: "Receipt CA-000012: Basic",
            error: "permanent error (550): 5.1.1 Recipient address rejected",
          },
        }),
      ),
    );
    renderPanel();
    const card = await screen.findByTestId("system-Email");
    expect(card).toHaveTextContent("Configured");
    expect(card).toHaveTextContent("3 (oldest 1m)");
    expect(card).toHaveTextContent("Given up, last 7 days2");
    expect(screen.getByTestId("email-last-failure")).toHaveTextContent(
      "Receipt CA-000012: Basic: permanent error (550): 5.1.1 Recipient address rejected",
    );
  });

  it("without a mail server says the emails are kept, and shows no queue", async () => {
    fetchMock.mockResolvedValueOnce(
      json(
        200,
        health({
          mailServer: false,
          waiting: 0,
          oldestWaitingSeconds: 0,
          failedLast7Days: 0,
          lastFailure: null,
        }),
      ),
    );
    renderPanel();
    const card = await screen.findByTestId("system-Email");
    expect(card).toHaveTextContent("Not set: emails are kept in the outbox");
    expect(card).not.toHaveTextContent("Waiting");
    expect(screen.queryByTestId("email-last-failure")).toBeNull();
  });
});
