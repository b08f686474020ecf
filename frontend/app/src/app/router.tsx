import type { ComponentType } from "react";
import { createBrowserRouter, type RouteObject } from "react-router";
import { FullPageLoader, LoadFailed } from "../components/FullPageLoader";
import { NotFound } from "../components/NotFound";
import { adminRoutes } from "../features/admin/admin-routes";
import { RequireAuth } from "../features/shell/components/RequireAuth";

// Every page is its own chunk, loaded by React Router when its route matches (the `lazy`
// route property): the landing and sign-in pages never download the signed-in app, and the
// app's pages load one by one. The entry chunk holds only React, the router, Mantine's
// provider, the query client and the session check. While the first page's chunk loads the
// root's HydrateFallback shows; on later navigations the current page stays until the next
// one is ready. A chunk that fails to load (a deploy replaced it, the network dropped) lands
// in the root's ErrorBoundary, which offers a reload.

/**
 * A route's page component, imported when the route first matches. This is the function form
 * of `lazy`, which React Router awaits before it renders, so a failed import reaches the error
 * boundary; with the object form (`lazy: { Component }`) a failed import leaves a blank page.
 */
const page = (load: () => Promise<ComponentType>) => async () => ({ Component: await load() });

export const routes: RouteObject[] = [
  {
    HydrateFallback: FullPageLoader,
    ErrorBoundary: LoadFailed,
    children: [
      {
        path: "/home",
        lazy: page(
          async () => (await import("../features/landing/routes/LandingPage")).LandingPage,
        ),
      },
      {
        path: "/login",
        lazy: page(async () => (await import("../features/auth/routes/LoginPage")).LoginPage),
      },
      {
        path: "/register",
        lazy: page(async () => (await import("../features/auth/routes/RegisterPage")).RegisterPage),
      },
      {
        path: "/forgot-password",
        lazy: page(
          async () =>
            (await import("../features/auth/routes/ForgotPasswordPage")).ForgotPasswordPage,
        ),
      },
      {
        path: "/reset-password",
        lazy: page(
          async () => (await import("../features/auth/routes/ResetPasswordPage")).ResetPasswordPage,
        ),
      },
      {
        path: "/auth",
        lazy: page(
          async () =>
            (await import("../features/auth/routes/SessionExpiredPage")).SessionExpiredPage,
        ),
      },
      {
        path: "/terms",
        lazy: async () => {
          const { LegalPage } = await import("../features/legal/routes/LegalPage");
          return { element: <LegalPage kind="terms" /> };
        },
      },
      {
        path: "/privacy",
        lazy: async () => {
          const { LegalPage } = await import("../features/legal/routes/LegalPage");
          return { element: <LegalPage kind="privacy" /> };
        },
      },
      // The payment result pages are public: the gateway returns here, signed in or not.
      {
        path: "/payment/success",
        lazy: page(
          async () =>
            (await import("../features/payments/routes/PaymentSuccessPage")).PaymentSuccessPage,
        ),
      },
      {
        path: "/payment/failure",
        lazy: page(
          async () =>
            (await import("../features/payments/routes/PaymentFailurePage")).PaymentFailurePage,
        ),
      },
      {
        path: "/payment/status",
        lazy: page(
          async () =>
            (await import("../features/payments/routes/PaymentStatusPage")).PaymentStatusPage,
        ),
      },
      {
        Component: RequireAuth,
        children: [
          {
            path: "/account/two-factor",
            lazy: page(
              async () => (await import("../features/auth/routes/TwoFactorPage")).TwoFactorPage,
            ),
          },
          {
            path: "/mock-payment",
            lazy: page(
              async () =>
                (await import("../features/billing/routes/MockPaymentPage")).MockPaymentPage,
            ),
          },
          {
            lazy: page(
              async () => (await import("../features/shell/components/AppLayout")).AppLayout,
            ),
            children: [
              {
                index: true,
                lazy: page(
                  async () =>
                    (await import("../features/dashboard/routes/DashboardPage")).DashboardPage,
                ),
              },
              {
                path: "/dashboard",
                lazy: page(
                  async () =>
                    (await import("../features/dashboard/routes/DashboardPage")).DashboardPage,
                ),
              },
              {
                // Admin or superuser only; anyone else sees the Access Denied view.
                path: "/admin",
                lazy: page(
                  async () => (await import("../features/admin/components/AdminArea")).AdminArea,
                ),
                children: adminRoutes,
              },
              {
                path: "/campaigns",
                lazy: page(
                  async () =>
                    (await import("../features/campaigns/routes/CampaignsPage")).CampaignsPage,
                ),
              },
              {
                path: "/campaigns/create",
                lazy: page(
                  async () =>
                    (await import("../features/campaigns/routes/CreateCampaignPage"))
                      .CreateCampaignPage,
                ),
              },
              {
                path: "/campaigns/:id/edit",
                lazy: page(
                  async () =>
                    (await import("../features/campaigns/routes/EditCampaignPage"))
                      .EditCampaignPage,
                ),
              },
              {
                path: "/customers",
                lazy: page(
                  async () =>
                    (await import("../features/customers/routes/CustomersPage")).CustomersPage,
                ),
              },
              {
                path: "/conversations",
                lazy: page(
                  async () =>
                    (await import("../features/conversations/routes/ConversationsPage"))
                      .ConversationsPage,
                ),
              },
              {
                path: "/conversations/:conversationId",
                lazy: page(
                  async () =>
                    (await import("../features/conversations/routes/ConversationsPage"))
                      .ConversationsPage,
                ),
              },
              {
                path: "/billing",
                lazy: page(
                  async () => (await import("../features/billing/routes/BillingPage")).BillingPage,
                ),
              },
              {
                path: "/billing/history",
                lazy: page(
                  async () =>
                    (await import("../features/billing/routes/PaymentHistoryPage"))
                      .PaymentHistoryPage,
                ),
              },
              {
                path: "/billing/invoice/:txnid",
                lazy: page(
                  async () => (await import("../features/billing/routes/InvoicePage")).InvoicePage,
                ),
              },
              {
                path: "/settings",
                lazy: page(
                  async () =>
                    (await import("../features/settings/routes/SettingsPage")).SettingsPage,
                ),
              },
              {
                path: "/settings/integrations",
                lazy: page(
                  async () =>
                    (await import("../features/settings/routes/SettingsPage")).SettingsPage,
                ),
              },
              {
                path: "/settings/billing",
                lazy: page(
                  async () =>
                    (await import("../features/billing/routes/BillingSettingsPage"))
                      .BillingSettingsPage,
                ),
              },
              { path: "*", element: <NotFound home="/dashboard" /> },
            ],
          },
        ],
      },
    ],
  },
];

export function createRouter() {
  return createBrowserRouter(routes);
}
