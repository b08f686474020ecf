import { MantineProvider } from "@mantine/core";
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { fireEvent, render, screen } from "@testing-library/react";
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
            failedAt: "2026-11-26T09:40:00Z",
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
    expect(screen.queryByRole("button", { name: "Send test email" })).toBeNull();
  });

  it("without a mail server still shows the emails left waiting when it was removed", async () => {
    fetchMock.mockResolvedValueOnce(
      json(
        200,
        health({
          mailServer: false,
          waiting: 4,
          oldestWaitingSeconds: 7200,
          failedLast7Days: 0,
          lastFailure: null,
        }),
      ),
    );
    renderPanel();
    const card = await screen.findByTestId("system-Email");
    expect(card).toHaveTextContent("Not set: emails are kept in the outbox");
    expect(card).toHaveTextContent("Waiting4 (oldest 2h 0m), sent once a mail server is set again");
    expect(screen.queryByRole("button", { name: "Send test email" })).toBeNull();
  });

  it("lets staff send the given-up emails again, then reads the card anew", async () => {
    const failing = {
      mailServer: true,
      waiting: 0,
      oldestWaitingSeconds: 0,
      failedLast7Days: 3,
      lastFailure: {
        createdAt: "2026-11-26T09:00:00Z",
        subject: "Receipt CA-000012: Basic",
        error: "451 4.3.0 try later",
      },
    };
    fetchMock.mockResolvedValueOnce(json(200, health(failing)));
    renderPanel();
    const button = await screen.findByRole("button", { name: "Send failed emails again" });
    fetchMock.mockResolvedValueOnce(
      json(200, { success: true, data: { requeued: 2, leftFailed: 1 } }),
    );
    fetchMock.mockResolvedValueOnce(
      json(200, health({ ...failing, waiting: 2, oldestWaitingSeconds: 1, failedLast7Days: 1 })),
    );
    fireEvent.click(button);
    expect(await screen.findByRole("status")).toHaveTextContent(
      "2 emails put back in the queue: the mail server gets them within a few seconds. 1 email stays failed (older than 7 days, or its link expired).",
    );
    const requeue = fetchMock.mock.calls[1]?.[0];
    expect(requeue?.method).toBe("POST");
    expect(requeue?.url).toMatch(/\/api\/admin\/system\/emails\/requeue$/);
    expect(await screen.findByText("2 (oldest 1 s)")).toBeInTheDocument();
  });

  it("shows why the emails could not be sent again, and offers nothing when none failed", async () => {
    const failing = {
      mailServer: true,
      waiting: 0,
      oldestWaitingSeconds: 0,
      failedLast7Days: 1,
      lastFailure: null,
    };
    fetchMock.mockResolvedValueOnce(json(200, health(failing)));
    renderPanel();
    const button = await screen.findByRole("button", { name: "Send failed emails again" });
    fetchMock.mockResolvedValueOnce(
      json(422, {
        success: false,
        code: "no_mail_server",
        message:
          "No mail server is set (CA_SMTP_URL): emails are kept in the outbox and cannot be sent",
      }),
    );
    fireEvent.click(button);
    expect(await screen.findByRole("alert")).toHaveTextContent("No mail server is set");
  });

  it("has no button when nothing was given up", async () => {
    fetchMock.mockResolvedValueOnce(
      json(
        200,
        health({
          mailServer: true,
          waiting: 0,
          oldestWaitingSeconds: 0,
          failedLast7Days: 0,
          lastFailure: null,
        }),
      ),
    );
    renderPanel();
    await screen.findByTestId("system-Email");
    expect(screen.queryByRole("button", { name: "Send failed emails again" })).toBeNull();
  });

  it("emails staff a test message and says where it goes", async () => {
    const quiet = {
      mailServer: true,
      waiting: 0,
      oldestWaitingSeconds: 0,
      failedLast7Days: 0,
      lastFailure: null,
    };
    fetchMock.mockResolvedValueOnce(json(200, health(quiet)));
    renderPanel();
    const button = await screen.findByRole("button", { name: "Send test email" });
    fetchMock.mockResolvedValueOnce(json(200, { success: true, data: { to: "staff@example.in" } }));
    fetchMock.mockResolvedValueOnce(json(200, health({ ...quiet, waiting: 1 })));
    fireEvent.click(button);
    expect(await screen.findByRole("status")).toHaveTextContent(
      "A test email is on its way to staff@example.in.",
    );
    const sent = fetchMock.mock.calls[1]?.[0];
    expect(sent?.method).toBe("POST");
    expect(sent?.url).toMatch(/\/api\/admin\/system\/emails\/test$/);
    expect(await screen.findByText("1 (oldest 0 s)")).toBeInTheDocument();
  });
});
