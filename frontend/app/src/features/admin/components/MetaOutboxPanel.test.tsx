import { MantineProvider } from "@mantine/core";
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { fireEvent, render, screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import { fetchMock, json } from "../../../test/fetch-mock";
import { MetaOutboxPanel } from "./MetaOutboxPanel";

const REJECTED =
  "Meta token rejected: Meta answered 400: Error validating access token [type OAuthException, code 190]";

const PIXEL_REFUSED =
  "Meta refused the pixel: Meta answered 400: Unsupported post request. Object with ID '1234' does not exist [type GraphMethodException, code 100, subcode 33]";

function outbox(
  paused: boolean | { reason: string; cause: string },
  pagination = { page: 1, limit: 50, total: 1, pages: 1 },
) {
  const pause =
    paused === true ? { reason: REJECTED, cause: "token" } : paused === false ? null : paused;
  return {
    success: true,
    data: {
      forwarding: true,
      testEvents: false,
      paused: pause ? { ...pause, since: "2026-11-26T10:00:00Z" } : null,
      pending: 2,
      sent: 5,
      failed: 1,
      notForwarded: 0,
      skipped: 1,
      events: [
        {
          eventId: "lead-u1",
          eventName: "Lead",
          eventTime: "2026-11-26T09:00:00Z",
          status: "failed",
          attempts: 1,
          lastError: "Meta answered 400: Invalid parameter [code 100]",
          testEvent: false,
          createdAt: "2026-11-26T09:00:00Z",
          sentAt: null,
        },
      ],
      pagination: { ...pagination, capped: false },
    },
  };
}

function renderPanel() {
  localStorage.setItem("token", "t");
  render(
    <MantineProvider env="test">
      <QueryClientProvider client={new QueryClient()}>
        <MetaOutboxPanel />
      </QueryClientProvider>
    </MantineProvider>,
  );
}

describe("MetaOutboxPanel", () => {
  it("says a refused pixel is the pixel id to fix, not the token", async () => {
    fetchMock.mockResolvedValueOnce(json(200, outbox({ reason: PIXEL_REFUSED, cause: "pixel" })));
    renderPanel();
    expect(await screen.findByText("Meta refused the pixel")).toBeInTheDocument();
    expect(screen.queryByText("Meta token rejected")).not.toBeInTheDocument();
    expect(screen.getByTestId("meta-outbox-paused")).toHaveTextContent(
      "once CA_META_PIXEL_ID names a pixel this access token may send to",
    );
    expect(screen.getByText(PIXEL_REFUSED)).toBeInTheDocument();
  });

  it("shows a paused outbox, why, and what failed; staff re-queue failed events", async () => {
    fetchMock.mockResolvedValueOnce(json(200, outbox(true)));
    renderPanel();
    expect(await screen.findByText("Meta token rejected")).toBeInTheDocument();
    expect(screen.getByText(REJECTED)).toBeInTheDocument();
    expect(screen.getByTestId("meta-outbox-state")).toHaveTextContent("Paused");
    expect(screen.getByText("Meta answered 400: Invalid parameter [code 100]")).toBeInTheDocument();
    fetchMock.mockResolvedValueOnce(json(200, { success: true, data: { requeued: 1, tooOld: 0 } }));
    fetchMock.mockResolvedValueOnce(json(200, outbox(false)));
    fireEvent.click(screen.getByRole("button", { name: "Re-queue failed events" }));
    expect(await screen.findByText("1 failed event re-queued.")).toBeInTheDocument();
    const requeue = fetchMock.mock.calls[1]?.[0];
    expect(requeue?.method).toBe("POST");
    expect(requeue?.url).toMatch(/\/api\/admin\/meta\/events\/requeue$/);
    expect(await screen.findByTestId("meta-outbox-state")).toHaveTextContent("Forwarding");
  });

  it("pages through the events and shows one state", async () => {
    fetchMock.mockResolvedValueOnce(
      json(200, outbox(false, { page: 1, limit: 50, total: 120, pages: 3 })),
    );
    renderPanel();
    expect(await screen.findByText("120 events")).toBeInTheDocument();
    const first = fetchMock.mock.calls[0]?.[0];
    expect(new URL(first?.url ?? "").searchParams.get("page")).toBe("1");
    fetchMock.mockResolvedValueOnce(
      json(200, outbox(false, { page: 2, limit: 50, total: 120, pages: 3 })),
    );
    fireEvent.click(screen.getByRole("button", { name: "2" }));
    await waitFor(() => expect(fetchMock.mock.calls.length).toBe(2));
    expect(new URL(fetchMock.mock.calls[1]?.[0]?.url ?? "").searchParams.get("page")).toBe("2");

    // One state: back to its first page; an empty state says so.
    const empty = outbox(false, { page: 1, limit: 50, total: 0, pages: 0 });
    empty.data.events = [];
    fetchMock.mockResolvedValueOnce(json(200, empty));
    const user = userEvent.setup();
    await user.click(screen.getByRole("textbox", { name: "Show" }));
    await user.click(await screen.findByRole("option", { name: "Never sent" }));
    expect(await screen.findByText("No events in this state.")).toBeInTheDocument();
    const filtered = new URL(fetchMock.mock.calls[2]?.[0]?.url ?? "").searchParams;
    expect([filtered.get("status"), filtered.get("page")]).toEqual(["skipped", "1"]);
    expect(screen.queryByText("120 events")).not.toBeInTheDocument();
  });
});
