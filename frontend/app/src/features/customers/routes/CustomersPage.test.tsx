import { MantineProvider } from "@mantine/core";
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { MemoryRouter } from "react-router";
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
const EMPTY_LIST = {
  customers: [],
  pagination: { page: 1, limit: 20, total: 0, pages: 0, capped: false },
};

function renderPage(path = "/customers") {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return render(
    <MantineProvider>
      <QueryClientProvider client={queryClient}>
        <MemoryRouter initialEntries={[path]}>
          <CustomersPage />
        </MemoryRouter>
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

describe("CustomersPage list", () => {
  it("a search past 10,000 matches reads 10,000+ customers; an exact count reads as counted", async () => {
    const customers = Array.from({ length: 20 }, (_, k) => ({
      _id: `c${k}`,
      email: `buyer${k}@example.in`,
      name: `Asha Mehta ${k}`,
      conversionStatus: "lead",
      leadScore: 10,
      totalConversations: 1,
      totalPageViews: 3,
      totalPurchases: 0,
      totalRevenue: 0,
      averageSessionDuration: 0,
      createdAt: "2026-11-20T10:00:00Z",
      updatedAt: "2026-11-20T10:00:00Z",
    }));
    let capped = true;
    fetchMock.mockImplementation(async (request) => {
      if (new URL(request.url).pathname === "/api/customers/analytics/overview")
        return json(200, OVERVIEW);
      return json(200, {
        customers,
        pagination: capped
          ? { page: 1, limit: 20, total: 10000, pages: 500, capped: true }
          : { page: 1, limit: 20, total: 4321, pages: 217, capped: false },
      });
    });
    const first = renderPage();
    expect(await screen.findByText("10,000+ customers")).toBeInTheDocument();
    first.unmount();
    capped = false;
    renderPage();
    expect(await screen.findByText("4,321 customers")).toBeInTheDocument();
  });
});

describe("CustomersPage dialog", () => {
  it("links to the customer's conversations, their email and their phone", async () => {
    const customer = {
      _id: "c1",
      email: "meera@kesar.in",
      name: "Meera Iyer",
      phone: "+91 98290 12345",
      conversionStatus: "lead",
      leadScore: 40,
      totalConversations: 2,
      totalPageViews: 3,
      totalPurchases: 0,
      totalRevenue: 0,
      averageSessionDuration: 75,
      createdAt: "2026-11-20T10:00:00Z",
      updatedAt: "2026-11-20T10:00:00Z",
    };
    fetchMock.mockImplementation(async (request) => {
      if (new URL(request.url).pathname === "/api/customers/analytics/overview")
        return json(200, OVERVIEW);
      return json(200, {
        customers: [customer],
        pagination: { page: 1, limit: 20, total: 1, pages: 1, capped: false },
      });
    });
    const user = userEvent.setup();
    renderPage();
    await user.click((await screen.findAllByRole("button", { name: "View meera@kesar.in" }))[0]!);
    const dialog = await screen.findByRole("dialog");
    expect(dialog.querySelector('a[href="mailto:meera@kesar.in"]')).toHaveTextContent(
      "meera@kesar.in",
    );
    expect(dialog.querySelector('a[href="tel:+919829012345"]')).toHaveTextContent(
      "+91 98290 12345",
    );
    expect(screen.getByRole("link", { name: "View conversations" })).toHaveAttribute(
      "href",
      "/conversations?search=meera%40kesar.in",
    );
  });

  it("a notification's link to one customer opens that customer's dialog", async () => {
    const customer = {
      _id: "c7",
      email: "ravi@kesar.in",
      name: "Ravi Kumar",
      conversionStatus: "lead",
      leadScore: 20,
      totalConversations: 1,
      totalPageViews: 1,
      totalPurchases: 0,
      totalRevenue: 0,
      averageSessionDuration: 30,
      createdAt: "2026-11-20T10:00:00Z",
      updatedAt: "2026-11-20T10:00:00Z",
    };
    fetchMock.mockImplementation(async (request) => {
      const path = new URL(request.url).pathname;
      if (path === "/api/customers/analytics/overview") return json(200, OVERVIEW);
      if (path === "/api/customers/c7") return json(200, { success: true, customer });
      if (path === "/api/customers/gone")
        return json(404, { success: false, message: "Customer not found", code: "not_found" });
      return json(200, EMPTY_LIST);
    });
    const { unmount } = renderPage("/customers?customer=c7");
    const dialog = await screen.findByRole("dialog");
    expect(dialog.querySelector('a[href="mailto:ravi@kesar.in"]')).toHaveTextContent(
      "ravi@kesar.in",
    );
    unmount();
    renderPage("/customers?customer=gone");
    expect(
      await screen.findByText("The customer this link names no longer exists in your account."),
    ).toBeInTheDocument();
  });
});
