import { MantineProvider } from "@mantine/core";
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { fireEvent, render, screen, waitFor, within } from "@testing-library/react";
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
          <PlanGrid />
        </AuthProvider>
      </QueryClientProvider>
    </MantineProvider>,
  );
}

/** The subscription call's answer for an owner on `planId`. */
function subscription(planId: string, status: string) {
  return {
    planId,
    planName: planId,
    status,
    price: 999,
    currency: "INR",
    interval: "monthly",
    cycle: "monthly",
    cancelAtPeriodEnd: false,
    setByStaff: false,
    invitedPlans: [],
    trialRemainingDays: 0,
    subscriptionEndsAt: "2026-12-26T10:00:00Z",
  };
}

describe("PlanGrid loading failures", () => {
  it("a network failure shows the product's message, not the browser's 'Failed to fetch'", async () => {
    fetchMock.mockImplementation((input: Request) =>
      input.url.includes("/api/billing/subscription")
        ? Promise.resolve(json(200, { success: true, data: subscription("free", "trial") }))
        : Promise.reject(new TypeError("Failed to fetch")),
    );
    renderGrid();
    expect(await screen.findByRole("alert")).toHaveTextContent(/^Failed to fetch plans$/);
  });

  it("a refusal shows the server's message", async () => {
    fetchMock.mockImplementation((input: Request) =>
      Promise.resolve(
        input.url.includes("/api/billing/subscription")
          ? json(200, { success: true, data: subscription("free", "trial") })
          : json(503, { success: false, message: "Plans are being updated", code: "unavailable" }),
      ),
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
      if (input.url.includes("/api/billing/subscription")) {
        return Promise.resolve(json(200, { success: true, data: subscription("free", "trial") }));
      }
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

describe("PlanGrid and the current plan", () => {
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
  const plan = (id: string, displayName: string, price: number) => ({
    id,
    _id: id,
    name: id,
    displayName,
    price,
    currency: "INR",
    interval: "monthly",
    features: ["One"],
    limits,
    popular: false,
    active: true,
    sortOrder: 0,
    inviteOnly: false,
    contactSales: false,
    checkoutAvailable: true,
  });
  const plans = [
    plan("free", "Free", 0),
    plan("basic", "Basic", 999),
    plan("rev2", "Rev2 Test Plan Extended Growth Bundle", 4999),
  ];

  it("the subscription call decides the current plan, whatever the usage call says", async () => {
    fetchMock.mockImplementation((input: Request) => {
      if (input.url.includes("/api/billing/subscription")) {
        return Promise.resolve(json(200, { success: true, data: subscription("basic", "active") }));
      }
      if (input.url.includes("/api/billing/plans")) {
        return Promise.resolve(json(200, { success: true, data: plans }));
      }
      return Promise.resolve(json(500, { success: false, message: "Usage failed", code: "x" }));
    });
    renderGrid();
    const basic = await screen.findByTestId("plan-basic");
    await waitFor(() =>
      expect(within(basic).getByRole("button", { name: "Current Plan" })).toBeDisabled(),
    );
    expect(basic).not.toHaveTextContent("Choose Basic");
    expect(
      within(screen.getByTestId("plan-rev2")).getByRole("button", {
        name: "Choose Rev2 Test Plan Extended Growth Bundle",
      }),
    ).toBeEnabled();
  });

  it("a failing subscription call shows an error with Try Again and disables buying", async () => {
    let failing = true;
    fetchMock.mockImplementation((input: Request) => {
      if (input.url.includes("/api/billing/subscription")) {
        return Promise.resolve(
          failing
            ? json(503, { success: false, message: "Database busy", code: "unavailable" })
            : json(200, { success: true, data: subscription("basic", "active") }),
        );
      }
      return Promise.resolve(json(200, { success: true, data: plans }));
    });
    renderGrid();
    const alert = await screen.findByRole("alert");
    expect(alert).toHaveTextContent("We couldn't load your current plan");
    expect(alert).toHaveTextContent("Database busy");
    // Neither "Free: Current Plan" nor an enabled "Choose Basic": nothing can be bought.
    const basic = await screen.findByTestId("plan-basic");
    expect(within(basic).getByRole("button", { name: "Choose Basic" })).toBeDisabled();
    expect(
      within(screen.getByTestId("plan-rev2")).getByRole("button", { name: /^Choose Rev2/ }),
    ).toBeDisabled();
    expect(screen.queryByRole("button", { name: "Current Plan" })).toBeNull();

    failing = false;
    fireEvent.click(within(alert).getByRole("button", { name: "Try Again" }));
    await waitFor(() =>
      expect(within(basic).getByRole("button", { name: "Current Plan" })).toBeDisabled(),
    );
    expect(screen.queryByRole("alert")).toBeNull();
    expect(
      within(screen.getByTestId("plan-rev2")).getByRole("button", { name: /^Choose Rev2/ }),
    ).toBeEnabled();
  });
});
