import { MantineProvider } from "@mantine/core";
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { fetchMock, json } from "../../../test/fetch-mock";
import { CustomersPage } from "./CustomersPage";

const OVERVIEW = {
  totalCustomers: 23,
  newCustomers: 5,
  conversionRate: 4.3,
  activeLeads: 7,
  conversionStats: { lead: 20, prospect: 2, customer: 1, churned: 0 },
  previous: { totalCustomers: 18, newCustomers: 5 },
  topCampaigns: [],
};
const EMPTY_LIST = { customers: [], pagination: { page: 1, limit: 20, total: 0, pages: 0 } };

function renderPage() {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return render(
    <MantineProvider>
      <QueryClientProvider client={queryClient}>
        <CustomersPage />
      </QueryClientProvider>
    </MantineProvider>,
  );
}

describe("CustomersPage overview", () => {
  beforeEach(() => {
    vi.spyOn(console, "error").mockImplementation(() => {});
  });
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it("shows the failure with Try Again instead of endless placeholders, and Try Again refetches", async () => {
    let overviewCalls = 0;
    fetchMock.mockImplementation(async (request) => {
      const path = new URL(request.url).pathname;
      if (path === "/api/customers/analytics/overview") {
        overviewCalls += 1;
        return overviewCalls === 1
          ? json(500, { success: false, message: "database unavailable", code: "internal" })
          : json(200, OVERVIEW);
      }
      return json(200, EMPTY_LIST);
    });
    const user = userEvent.setup();
    renderPage();

    const error = await screen.findByTestId("overview-error");
    expect(error).toHaveTextContent("Failed to load the customer overview. Please try again.");
    expect(screen.queryByText("Total Customers")).not.toBeInTheDocument();
    expect(console.error).toHaveBeenCalledWith("customer analytics failed", expect.anything());

    await user.click(screen.getByRole("button", { name: "Try Again" }));
    expect(await screen.findByText("Total Customers")).toBeInTheDocument();
    expect(screen.getByText("23")).toBeInTheDocument();
    expect(screen.queryByTestId("overview-error")).not.toBeInTheDocument();
    expect(overviewCalls).toBe(2);
  });

  it("a network failure reads the same, not the browser's words", async () => {
    fetchMock.mockImplementation(async (request) => {
      if (new URL(request.url).pathname === "/api/customers/analytics/overview")
        throw new TypeError("Failed to fetch");
      return json(200, EMPTY_LIST);
    });
    renderPage();
    expect(await screen.findByTestId("overview-error")).toHaveTextContent(
      "Failed to load the customer overview. Please try again.",
    );
    expect(screen.getByRole("button", { name: "Try Again" })).toBeEnabled();
    expect(screen.queryByText("Failed to fetch")).not.toBeInTheDocument();
  });
});
