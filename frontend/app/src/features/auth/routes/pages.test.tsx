import { MantineProvider } from "@mantine/core";
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { MemoryRouter, Route, Routes } from "react-router";
import { describe, expect, it } from "vitest";
import { AuthProvider } from "../../../lib/auth";
import { fetchMock, json, sampleUser } from "../../../test/fetch-mock";
import { ForgotPasswordPage } from "./ForgotPasswordPage";
import { LoginPage } from "./LoginPage";
import { RegisterPage } from "./RegisterPage";
import { ResetPasswordPage } from "./ResetPasswordPage";

function renderAt(path: string) {
  return render(
    <MantineProvider>
      <QueryClientProvider client={new QueryClient()}>
        <AuthProvider>
          <MemoryRouter initialEntries={[path]}>
            <Routes>
              <Route path="/login" element={<LoginPage />} />
              <Route path="/billing/invoice/:txnid" element={<p>the invoice</p>} />
              <Route path="/register" element={<RegisterPage />} />
              <Route path="/forgot-password" element={<ForgotPasswordPage />} />
              <Route path="/reset-password" element={<ResetPasswordPage />} />
              <Route path="/dashboard" element={<p>dashboard</p>} />
            </Routes>
          </MemoryRouter>
        </AuthProvider>
      </QueryClientProvider>
    </MantineProvider>,
  );
}

describe("RegisterPage", () => {
  it("checks the form before calling the server, then sends the phone with its code", async () => {
    const user = userEvent.setup();
    renderAt("/register");
    await user.type(screen.getByLabelText(/Full name/), "Priya Sharma");
    await user.type(screen.getByLabelText(/^Email/), "priya@example.in");
    await user.type(screen.getByLabelText(/Phone number/), "9876543210");
    await user.type(screen.getByLabelText(/^Password/), "12345");
    await user.type(screen.getByLabelText(/Confirm password/), "12345");
    await user.click(screen.getByRole("button", { name: "Create account" }));
    expect(await screen.findByRole("alert")).toHaveTextContent(
      "Password must be at least 6 characters long",
    );
    expect(fetchMock).not.toHaveBeenCalled();

    await user.type(screen.getByLabelText(/^Password/), "6");
    await user.type(screen.getByLabelText(/Confirm password/), "6");
    fetchMock.mockResolvedValueOnce(
      json(409, {
        success: false,
        message: "An account with this email already exists",
        code: "email_taken",
      }),
    );
    await user.click(screen.getByRole("button", { name: "Create account" }));
    expect(await screen.findByRole("alert")).toHaveTextContent(
      "An account with this email already exists",
    );
    const body = (await fetchMock.mock.calls[0]?.[0].json()) as Record<string, string>;
    expect(body).toEqual({
      name: "Priya Sharma",
      email: "priya@example.in",
      password: "123456",
      phone: "+91 9876543210",
    });
  });
});

describe("ForgotPasswordPage", () => {
  it("requires an email and shows the network error text", async () => {
    const user = userEvent.setup();
    renderAt("/forgot-password");
    await user.click(screen.getByRole("button", { name: "Send reset link" }));
    expect(await screen.findByRole("alert")).toHaveTextContent("Email is required");
    fetchMock.mockRejectedValueOnce(new TypeError("Failed to fetch"));
    await user.type(screen.getByLabelText(/Email/), "priya@example.in");
    await user.click(screen.getByRole("button", { name: "Send reset link" }));
    expect(await screen.findByRole("alert")).toHaveTextContent("Network error. Please try again.");
  });

  it("shows the success view with Send Another Email and Back to Login", async () => {
    const user = userEvent.setup();
    renderAt("/forgot-password");
    fetchMock.mockResolvedValueOnce(
      json(200, {
        success: true,
        message: "If an account exists for that email, a password reset link has been sent.",
      }),
    );
    await user.type(screen.getByLabelText(/Email/), "priya@example.in");
    await user.click(screen.getByRole("button", { name: "Send reset link" }));
    expect(await screen.findByText("Check your email")).toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Send Another Email" })).toBeInTheDocument();
    expect(screen.getByRole("link", { name: "Back to Login" })).toBeInTheDocument();
  });
});

describe("ResetPasswordPage", () => {
  it("without a token says the link is invalid", () => {
    renderAt("/reset-password");
    expect(screen.getByRole("alert")).toHaveTextContent(
      "Invalid reset link. Please request a new password reset.",
    );
  });

  it("shows the server's message when the token is refused", async () => {
    const user = userEvent.setup();
    renderAt("/reset-password?token=abc");
    fetchMock.mockResolvedValueOnce(
      json(400, {
        success: false,
        message: "Invalid or expired reset token",
        code: "invalid_reset_token",
      }),
    );
    await user.type(screen.getByLabelText(/^New password/), "secret1");
    await user.type(screen.getByLabelText(/Confirm new password/), "secret1");
    await user.click(screen.getByRole("button", { name: "Reset password" }));
    expect(await screen.findByRole("alert")).toHaveTextContent("Invalid or expired reset token");
  });
});

describe("LoginPage", () => {
  async function signIn(path: string) {
    fetchMock.mockResolvedValue(json(200, { success: true, token: "t", user: sampleUser }));
    const user = userEvent.setup();
    renderAt(path);
    await user.type(screen.getByLabelText(/^Email/), "priya@example.in");
    await user.type(screen.getByLabelText(/^Password/), "secret1");
    await user.click(screen.getByRole("button", { name: "Sign in" }));
  }

  it("comes back to the page that was asked for", async () => {
    await signIn(`/login?next=${encodeURIComponent("/billing/invoice/CA1")}`);
    expect(await screen.findByText("the invoice")).toBeInTheDocument();
  });

  it("opens the dashboard for a next page on another site", async () => {
    await signIn(`/login?next=${encodeURIComponent("//evil.com/billing/invoice/CA1")}`);
    expect(await screen.findByText("dashboard")).toBeInTheDocument();
  });
});
