import { MantineProvider } from "@mantine/core";
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { render, screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it, vi } from "vitest";
import { fetchMock, json } from "../../../test/fetch-mock";
import type { Delivery, Endpoint } from "../api/integrations";
import { DeliveryLog } from "./DeliveryLog";

const endpoint = (id: string, description: string): Endpoint => ({
  id,
  kind: "webhook",
  url: `https://hooks.example.in/${id}`,
  description,
  eventTypes: ["lead.created"],
  enabled: true,
  createdAt: "2026-11-20T10:00:00Z",
  updatedAt: "2026-11-20T10:00:00Z",
});
const ENDPOINTS = [endpoint("e1", "Kesar CRM"), endpoint("e2", "Zapier")];

const retrying: Delivery = {
  id: "a2",
  endpointId: "e1",
  eventId: "msg_lead1",
  eventType: "lead.created",
  attempt: 2,
  status: "pending",
  responseStatus: 503,
  durationMs: 1234,
  nextAttemptAt: new Date(Date.now() + 5 * 60_000).toISOString(),
  responseExcerpt: "upstream unavailable",
  createdAt: "2026-11-26T10:00:00Z",
};

/** Answers the log with `rows` on 3 pages, and records what was asked. */
function serve(rows: Delivery[]) {
  const asked: URL[] = [];
  fetchMock.mockImplementation(async (request) => {
    const url = new URL(request.url);
    asked.push(url);
    if (request.method === "POST") return json(200, { success: true, message: "queued" });
    return json(200, {
      success: true,
      data: rows,
      pagination: {
        page: Number(url.searchParams.get("page")),
        limit: 20,
        total: 45,
        pages: 3,
        capped: false,
      },
    });
  });
  return asked;
}

function renderLog(onResent = vi.fn()) {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <MantineProvider env="test">
      <QueryClientProvider client={queryClient}>
        <DeliveryLog endpoints={ENDPOINTS} onResent={onResent} />
      </QueryClientProvider>
    </MantineProvider>,
  );
  return onResent;
}

const logCalls = (asked: URL[]) =>
  asked.filter((u) => u.pathname === "/api/webhooks/deliveries").map((u) => u.search);

// Mantine renders both the table and the list here; on a busy machine that takes seconds.
describe("DeliveryLog", { timeout: 15_000 }, () => {
  it("shows each attempt's event, code, duration, attempt, next retry, response and status", async () => {
    serve([retrying]);
    renderLog();
    // The table (wide screens) and the list (narrow ones) both carry the row.
    expect((await screen.findAllByText("upstream unavailable")).length).toBeGreaterThan(0);
    expect(screen.getAllByText("Retrying").length).toBeGreaterThan(0);
    expect(screen.getAllByText("Kesar CRM").length).toBeGreaterThan(0);
    expect(screen.getAllByText("in 5 min").length).toBeGreaterThan(0);
    expect(
      screen.getByText("Code 503 · 1.2 s · attempt 2 · next retry in 5 min"),
    ).toBeInTheDocument();
    expect(screen.getByText("45 attempts")).toBeInTheDocument();
  });

  it("asks for the page chosen and for one endpoint's deliveries from page 1", async () => {
    const asked = serve([retrying]);
    const user = userEvent.setup();
    renderLog();
    await screen.findAllByText("upstream unavailable");
    expect(logCalls(asked)).toEqual(["?page=1&limit=20"]);

    await user.click(screen.getByRole("button", { name: "2" }));
    await waitFor(() => expect(logCalls(asked)).toContain("?page=2&limit=20"));

    await user.click(screen.getByRole("textbox", { name: "Endpoint" }));
    await user.click(await screen.findByRole("option", { name: "Zapier" }));
    await waitFor(() => expect(logCalls(asked)).toContain("?page=1&limit=20&endpointId=e2"));
  });

  it("resends the attempt's event and says so", async () => {
    const asked = serve([retrying]);
    const user = userEvent.setup();
    const onResent = renderLog();
    const [button] = await screen.findAllByRole("button", {
      name: "Resend lead.created msg_lead1",
    });
    await user.click(button!);
    await waitFor(() => expect(onResent).toHaveBeenCalledOnce());
    expect(onResent.mock.calls[0]![0]).toContain("msg_lead1 is being sent again");
    expect(asked.some((u) => u.pathname === "/api/webhooks/deliveries/a2/resend")).toBe(true);
  });
});
