import { MantineProvider } from "@mantine/core";
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { MemoryRouter } from "react-router";
import { describe, expect, it } from "vitest";
import { AuthProvider } from "../../../lib/auth";
import { fetchMock, json } from "../../../test/fetch-mock";
import { SecurityTab } from "./SecurityTab";

function renderTab() {
  return render(
    <MantineProvider>
      <QueryClientProvider client={new QueryClient()}>
        <AuthProvider>
          <MemoryRouter>
            <SecurityTab />
          </MemoryRouter>
        </AuthProvider>
      </QueryClientProvider>
    </MantineProvider>,
  );
}

/** The message Mantine shows under `input`, read through its aria-describedby. */
function errorUnder(input: HTMLElement): string | null {
  const ids = (input.getAttribute("aria-describedby") ?? "").split(" ").filter(Boolean);
  const texts = ids.map((id) => document.getElementById(id)?.textContent ?? "");
  return texts.find((t) => t !== "" && t !== "At least 6 characters") ?? null;
}

describe("SecurityTab", () => {
  it("says what is wrong under the field it is about", async () => {
    const user = userEvent.setup();
    renderTab();
    const current = screen.getByLabelText("Current password");
    const next = screen.getByLabelText("New password");
    const confirm = screen.getByLabelText("Confirm new password");
    await user.type(next, "abcdef");
    await user.type(confirm, "abcdeg");
    await user.click(screen.getByRole("button", { name: "Change password" }));
    expect(errorUnder(current)).toBe("Enter your current password");
    expect(errorUnder(next)).toBeNull();
    expect(errorUnder(confirm)).toBe("Passwords do not match");
    expect(fetchMock).not.toHaveBeenCalled();

    fetchMock.mockResolvedValue(
      json(400, {
        success: false,
        message: "Current password is incorrect",
        code: "wrong_password",
      }),
    );
    await user.type(current, "wrong-one");
    await user.clear(confirm);
    await user.type(confirm, "abcdef");
    await user.click(screen.getByRole("button", { name: "Change password" }));
    await screen.findByText("Current password is incorrect");
    expect(errorUnder(current)).toBe("Current password is incorrect");
    expect(screen.queryByRole("alert")).not.toBeInTheDocument();
  });
});
