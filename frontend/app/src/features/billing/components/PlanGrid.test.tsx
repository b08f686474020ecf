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

describe("PlanGrid prices", () => {
  const limits = {
    campaigns: 1,
    visitorsPerMonth: 1000,
    aiConversations: 100,
    customBranding: false,
    apiAccess: false,
    whiteLabel: false,
    prioritySupport: false,
    phoneSupport: false,
  };
  const plan = (id: string, price: number, currency: string, interval: string) => ({
    id,
    _id: id,
    name: id,
    displayName: id,
    price,
    currency,
    interval,
    features: ["One"],
    limits,
    popular: false,
    active: true,
    sortOrder: 0,
    inviteOnly: false,
    contactSales: false,
    checkoutAvailable: currency === "INR",
  });

  it("shows each plan in its own currency and period; one checkout cannot charge goes to sales", async () => {
    fetchMock.mockImplementation((input: Request) => {
      if (input.url.includes("/api/billing/plans")) {
        return Promise.resolve(
          json(200, {
            success: true,
            data: [plan("basic", 999, "INR", "monthly"), plan("global", 49, "USD", "yearly")],
          }),
        );
      }
      return Promise.resolve(
        json(401, { success: false, message: "No token", code: "missing_token" }),
      );
    });
    renderGrid();
    expect(await screen.findByTestId("price-global")).toHaveTextContent("$49 / year");
    expect(screen.getByTestId("price-basic")).toHaveTextContent("₹999 / month");
    const global = screen.getByTestId("plan-global");
    expect(global).toHaveTextContent("Contact Sales");
    expect(global).toHaveTextContent("Priced in USD");
    expect(global).not.toHaveTextContent("Choose global");
    expect(screen.getByTestId("plan-basic")).toHaveTextContent("Choose basic");
  });
});
