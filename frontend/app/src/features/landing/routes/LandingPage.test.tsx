import { MantineProvider } from "@mantine/core";
import { render, screen } from "@testing-library/react";
import { MemoryRouter } from "react-router";
import { describe, expect, it } from "vitest";
import { LandingPage } from "./LandingPage";

describe("LandingPage", () => {
  it("Watch Demo opens the live demo page the server serves, not an anchor on this page", () => {
    render(
      <MantineProvider>
        <MemoryRouter>
          <LandingPage />
        </MemoryRouter>
      </MantineProvider>,
    );
    expect(screen.getByRole("link", { name: "Watch Demo" })).toHaveAttribute("href", "/live-demo");
  });
});
