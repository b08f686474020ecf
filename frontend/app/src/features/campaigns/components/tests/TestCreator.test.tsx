import { MantineProvider } from "@mantine/core";
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { fireEvent, render, screen, waitFor } from "@testing-library/react";
import { describe, expect, it, vi } from "vitest";
import { fetchMock, json } from "../../../../test/fetch-mock";
import type { AbTest } from "../../api/ab-test-queries";
import type { CampaignSettings } from "../../api/campaigns";
import { TestCreator } from "./TestCreator";

const BASE = {
  aiSettings: { initialMessage: "", knowledgeBase: "", businessInfo: "", customInstructions: "" },
  exitIntent: { enabled: true, sensitivity: "medium", delay: 1000, cooldown: 60 },
  forms: {
    conversionForms: [],
    formDisplayRules: {
      cooldownBetweenForms: 5,
      maxFormsPerConversation: 2,
      minMessagesBeforeForm: 3,
    },
  },
  popup: {
    backgroundColor: "#ffffff",
    buttonColor: "",
    buttonText: "",
    design: {
      headerTitle: "Wait! Before you go",
      headerSubtitle: "Chat with our assistant",
      primaryColor: "#ff6b6b",
      secondaryColor: "#ee5a24",
      borderRadius: 12,
      popupSize: "medium",
      fontFamily: "Inter",
      submitButtonText: "Send",
      showTrustBadges: false,
      trustBadges: [],
      formTitle: "Get exclusive offers",
      formSubtitle: "Leave your email",
    },
  },
  targeting: {
    devices: ["desktop"],
    includePages: [],
    excludePages: [],
    minTimeOnPage: 0,
    maxDisplaysPerSession: 1,
    cooldownMinutes: 1440,
  },
  revenue: { maxOrderValue: 500000 },
} as unknown as CampaignSettings;

function renderCreator(from?: AbTest) {
  const onCreated = vi.fn();
  render(
    <MantineProvider>
      <QueryClientProvider client={new QueryClient()}>
        <TestCreator
          campaignId="c1"
          base={BASE}
          dirty={false}
          from={from}
          onCancel={() => {}}
          onCreated={onCreated}
        />
      </QueryClientProvider>
    </MantineProvider>,
  );
  return onCreated;
}

// The whole designer with its preview renders here: slow on a busy machine.
describe("TestCreator", { timeout: 60_000 }, () => {
  it("shows a split that does not add up to 100 and sends nothing", async () => {
    renderCreator();
    fireEvent.click(screen.getByRole("button", { name: "Add variant" }));
    fireEvent.change(screen.getByLabelText("Control share (%)"), { target: { value: "50" } });
    expect(
      await screen.findByText("The weights must add up to 100 percent; they add up to 116"),
    ).toBeInTheDocument();
    fireEvent.click(screen.getByRole("button", { name: "Start test" }));
    expect(await screen.findByText("Please fix the highlighted fields.")).toBeInTheDocument();
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it("sends only what the variant changes, and shows the server's refusal in its words", async () => {
    const onCreated = renderCreator();
    fireEvent.change(screen.getByLabelText(/^Test name/), { target: { value: "Headline" } });
    fireEvent.change(screen.getByLabelText("Main Title"), { target: { value: "Last chance" } });
    fetchMock.mockResolvedValueOnce(
      json(422, {
        success: false,
        code: "test_running",
        message: "The campaign already has a running or paused test",
      }),
    );
    fireEvent.click(screen.getByRole("button", { name: "Start test" }));
    expect(
      await screen.findByText("The campaign already has a running or paused test"),
    ).toBeInTheDocument();
    const sent = (await fetchMock.mock.calls[0]![0].json()) as unknown;
    expect(sent).toEqual({
      name: "Headline",
      metric: "conversionRate",
      variants: [
        { name: "Control", weight: 50, overrides: {} },
        {
          name: "Variant B",
          weight: 50,
          overrides: { popup: { design: { headerTitle: "Last chance" } } },
        },
      ],
    });
    fetchMock.mockResolvedValueOnce(json(201, { success: true, data: { id: "t1" } }));
    fetchMock.mockResolvedValue(json(200, { success: true, data: [] }));
    fireEvent.click(screen.getByRole("button", { name: "Start test" }));
    await waitFor(() => expect(onCreated).toHaveBeenCalledWith("t1"));
  });

  it("sends the maximum duration and auto-promote, and refuses a duration out of range", async () => {
    const onCreated = renderCreator();
    fireEvent.change(screen.getByLabelText(/^Test name/), { target: { value: "Ending" } });
    fireEvent.change(screen.getByLabelText("Main Title"), { target: { value: "Last chance" } });
    const days = screen.getByLabelText("Maximum duration (days)");
    expect(days).toHaveValue("30");
    const auto = screen.getByLabelText(/Promote the winner automatically/);
    expect(auto).not.toBeChecked();
    fireEvent.change(days, { target: { value: "10" } });
    fireEvent.click(screen.getByRole("button", { name: "Start test" }));
    expect(
      await screen.findByText("The maximum duration is a whole number of days from 14 to 90"),
    ).toBeInTheDocument();
    expect(fetchMock).not.toHaveBeenCalled();
    fireEvent.change(days, { target: { value: "45" } });
    fireEvent.click(auto);
    expect(auto).toBeChecked();
    fetchMock.mockResolvedValueOnce(json(201, { success: true, data: { id: "t2" } }));
    fetchMock.mockResolvedValue(json(200, { success: true, data: [] }));
    fireEvent.click(screen.getByRole("button", { name: "Start test" }));
    await waitFor(() => expect(onCreated).toHaveBeenCalledWith("t2"));
    const sent = (await fetchMock.mock.calls[0]![0].json()) as Record<string, unknown>;
    expect(sent).toMatchObject({ name: "Ending", maxDays: 45, autoPromote: true });
  });

  it("edits a running test's variants into its next version, starting from them", async () => {
    const running = {
      id: "t7",
      campaignId: "c1",
      name: "Headline",
      metric: "revenuePerVisitor",
      status: "running",
      version: 2,
      maxDays: 45,
      autoPromote: true,
      variants: [
        { id: "a", name: "Control", weight: 60, overrides: {}, paused: false },
        {
          id: "b",
          name: "Urgent",
          weight: 40,
          overrides: { popup: { design: { headerTitle: "Only today" } } },
          paused: true,
        },
      ],
    } as unknown as AbTest;
    const onCreated = renderCreator(running);
    expect(screen.getByText("Edit variants: version 3 of “Headline”")).toBeInTheDocument();
    expect(screen.getByLabelText(/^Test name/)).toHaveValue("Headline");
    expect(screen.getByLabelText("Control share (%)")).toHaveValue("60");
    expect(screen.getByLabelText("Urgent share (%)")).toHaveValue("40");
    expect(screen.getByLabelText("Main Title")).toHaveValue("Only today");
    expect(screen.getByLabelText("Maximum duration (days)")).toHaveValue("45");
    expect(screen.getByLabelText(/Promote the winner automatically/)).toBeChecked();
    fireEvent.change(screen.getByLabelText("Main Title"), { target: { value: "Only today!" } });
    fetchMock.mockResolvedValueOnce(json(201, { success: true, data: { id: "t8" } }));
    fetchMock.mockResolvedValue(json(200, { success: true, data: [] }));
    fireEvent.click(screen.getByRole("button", { name: "Start version 3" }));
    await waitFor(() => expect(onCreated).toHaveBeenCalledWith("t8"));
    const request = fetchMock.mock.calls[0]![0] as Request;
    expect(new URL(request.url).pathname).toBe("/api/campaigns/c1/tests/t7/versions");
    expect(await request.json()).toEqual({
      name: "Headline",
      metric: "revenuePerVisitor",
      maxDays: 45,
      autoPromote: true,
      variants: [
        { name: "Control", weight: 60, overrides: {} },
        {
          name: "Urgent",
          weight: 40,
          overrides: { popup: { design: { headerTitle: "Only today!" } } },
        },
      ],
    });
  });
});
