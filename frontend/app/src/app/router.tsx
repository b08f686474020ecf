import { createBrowserRouter } from "react-router";
import { NotFound } from "../components/NotFound";
import { adminRoutes } from "../features/admin/admin-routes";
import { AdminArea } from "../features/admin/components/AdminArea";
import { ForgotPasswordPage } from "../features/auth/routes/ForgotPasswordPage";
import { LoginPage } from "../features/auth/routes/LoginPage";
import { RegisterPage } from "../features/auth/routes/RegisterPage";
import { ResetPasswordPage } from "../features/auth/routes/ResetPasswordPage";
import { SessionExpiredPage } from "../features/auth/routes/SessionExpiredPage";
import { BillingPage } from "../features/billing/routes/BillingPage";
import { BillingSettingsPage } from "../features/billing/routes/BillingSettingsPage";
import { InvoicePage } from "../features/billing/routes/InvoicePage";
import { MockPaymentPage } from "../features/billing/routes/MockPaymentPage";
import { PaymentHistoryPage } from "../features/billing/routes/PaymentHistoryPage";
import { CampaignsPage } from "../features/campaigns/routes/CampaignsPage";
import { CreateCampaignPage } from "../features/campaigns/routes/CreateCampaignPage";
import { EditCampaignPage } from "../features/campaigns/routes/EditCampaignPage";
import { ConversationsPage } from "../features/conversations/routes/ConversationsPage";
import { CustomersPage } from "../features/customers/routes/CustomersPage";
import { DashboardPage } from "../features/dashboard/routes/DashboardPage";
import { LandingPage } from "../features/landing/routes/LandingPage";
import { LegalPage } from "../features/legal/routes/LegalPage";
import { PaymentFailurePage } from "../features/payments/routes/PaymentFailurePage";
import { PaymentStatusPage } from "../features/payments/routes/PaymentStatusPage";
import { PaymentSuccessPage } from "../features/payments/routes/PaymentSuccessPage";
import { SettingsPage } from "../features/settings/routes/SettingsPage";
import { AppLayout } from "../features/shell/components/AppLayout";
import { RequireAuth } from "../features/shell/components/RequireAuth";

export const routes = [
  { path: "/home", element: <LandingPage /> },
  { path: "/login", element: <LoginPage /> },
  { path: "/register", element: <RegisterPage /> },
  { path: "/forgot-password", element: <ForgotPasswordPage /> },
  { path: "/reset-password", element: <ResetPasswordPage /> },
  { path: "/auth", element: <SessionExpiredPage /> },
  { path: "/terms", element: <LegalPage kind="terms" /> },
  { path: "/privacy", element: <LegalPage kind="privacy" /> },
  // The payment result pages are public: the gateway returns here, signed in or not.
  { path: "/payment/success", element: <PaymentSuccessPage /> },
  { path: "/payment/failure", element: <PaymentFailurePage /> },
  { path: "/payment/status", element: <PaymentStatusPage /> },
  {
    element: <RequireAuth />,
    children: [
      { path: "/mock-payment", element: <MockPaymentPage /> },
      {
        element: <AppLayout />,
        children: [
          { index: true, element: <DashboardPage /> },
          { path: "/dashboard", element: <DashboardPage /> },
          {
            // Admin or superuser only; anyone else sees the Access Denied view.
            path: "/admin",
            element: <AdminArea />,
            children: adminRoutes,
          },
          { path: "/campaigns", element: <CampaignsPage /> },
          { path: "/campaigns/create", element: <CreateCampaignPage /> },
          { path: "/campaigns/:id/edit", element: <EditCampaignPage /> },
          { path: "/customers", element: <CustomersPage /> },
          { path: "/conversations", element: <ConversationsPage /> },
          { path: "/conversations/:conversationId", element: <ConversationsPage /> },
          { path: "/billing", element: <BillingPage /> },
          { path: "/billing/history", element: <PaymentHistoryPage /> },
          { path: "/billing/invoice/:txnid", element: <InvoicePage /> },
          { path: "/settings", element: <SettingsPage /> },
          { path: "/settings/billing", element: <BillingSettingsPage /> },
          { path: "*", element: <NotFound home="/dashboard" /> },
        ],
      },
    ],
  },
];

export function createRouter() {
  return createBrowserRouter(routes);
}
