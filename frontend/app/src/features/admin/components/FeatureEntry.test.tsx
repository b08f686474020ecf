import { MantineProvider } from "@mantine/core";
import { render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { useState } from "react";
import { describe, expect, it } from "vitest";
import { FeatureEntry } from "./FeatureEntry";

function Harness() {
  const [features, setFeatures] = useState<string[]>([]);
  return (
    <MantineProvider>
      <FeatureEntry features={features} onChange={setFeatures} />
      <output data-testid="value">{JSON.stringify(features)}</output>
    </MantineProvider>
  );
}

describe("FeatureEntry", () => {
  it("adds on Enter, trimmed, ignoring empties and duplicates", async () => {
    const user = userEvent.setup();
    render(<Harness />);
    const input = screen.getByRole("textbox", { name: "Features" });
    await user.type(input, "  Exit popups  {Enter}");
    expect(input).toHaveValue("");
    await user.type(input, "Exit popups{Enter}");
    await user.type(input, "   {Enter}");
    await user.type(input, "AI chat{Enter}");
    expect(screen.getByTestId("value")).toHaveTextContent('["Exit popups","AI chat"]');
    await user.click(screen.getByRole("button", { name: "Remove Exit popups" }));
    expect(screen.getByTestId("value")).toHaveTextContent('["AI chat"]');
  });
});
