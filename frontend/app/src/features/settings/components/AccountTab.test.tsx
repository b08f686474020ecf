import { MantineProvider } from "@mantine/core";
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import { AuthProvider } from "../../../lib/auth";
import { fetchMock, json, sampleUser } from "../../../test/fetch-mock";
import { AccountTab } from "./AccountTab";

function renderTab() {
  return render(
    <MantineProvider>
      <QueryClientProvider client={new QueryClient()}>
        <AuthProvider>
          <AccountTab user={sampleUser} />
        </AuthProvider>
      </QueryClientProvider>
    </MantineProvider>,
  );
}

describe("AccountTab", () => {
  it("shows a field's error under that field, and clears it when the field changes", async () => {
    const message = "Phone number must have 6 to 15 digits";
    fetchMock.mockResolvedValue(
      json(400, {
        success: false,
        message,
        code: "validation_failed",
        errors: { phone: [message] },
      }),
    );
    const user = userEvent.setup();
    renderTab();
    const phone = screen.getByLabelText("Phone");
    await user.clear(phone);
    await user.type(phone, "12");
    await user.click(screen.getByRole("button", { name: "Save changes" }));

    const error = await screen.findByText(message);
    expect(phone).toHaveAttribute("aria-invalid", "true");
    expect(phone.getAttribute("aria-describedby")).toContain(error.id);
    // Said once, under the field; not again above the form.
    expect(screen.queryByRole("alert")).not.toBeInTheDocument();
    expect(screen.getByLabelText("Name")).not.toHaveAttribute("aria-invalid", "true");

    await user.type(phone, "3");
    expect(screen.queryByText(message)).not.toBeInTheDocument();
  });

  it("says a refusal that names no field above the form", async () => {
    fetchMock.mockResolvedValue(
      json(500, { success: false, message: "Something went wrong", code: "internal_error" }),
    );
    const user = userEvent.setup();
    renderTab();
    await user.type(screen.getByLabelText("Name"), " K");
    await user.click(screen.getByRole("button", { name: "Save changes" }));
    expect(await screen.findByRole("alert")).toHaveTextContent("Something went wrong");
  });
});
