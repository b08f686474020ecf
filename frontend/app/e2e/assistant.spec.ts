import { expect, test } from "@playwright/test";
import { expectAccessible } from "./a11y";
import {
  SCREENSHOTS,
  createThroughWizard,
  registerThroughForm,
  shot,
  uniqueEmail,
} from "./support";

const KNOWLEDGE_BASE =
  "Shipping: free across India on orders above 1499 rupees, delivered in 4 to 6 working days. " +
  "Returns: unused items can be returned within 10 days for a full refund. " +
  "Payment: we accept UPI, all major cards and cash on delivery.\n\n" +
  "Fees\n- Blouse stitching: ₹650, ready in 7 days\n- Fall and pico: ₹150";

test("the owner tries the assistant and sees what visitors asked that it could not answer", async ({
  page,
}) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  await registerThroughForm(page, uniqueEmail("assistant"));
  await createThroughWizard(page, "Chanderi exit offer");
  await page.waitForURL("**/campaigns");
  await page.getByRole("link", { name: "Edit campaign" }).click();
  await page.waitForURL(/\/campaigns\/[0-9a-f-]{36}\/edit$/);
  const campaignId = page.url().split("/").at(-2) ?? "";

  await page.getByRole("tab", { name: "AI Settings" }).click();
  const tryBox = page.getByTestId("try-assistant");
  await expect(tryBox.getByRole("heading", { name: "Try your assistant" })).toBeVisible();
  await expect(page.getByTestId("unanswered-questions")).toContainText("None yet");

  // The unsaved knowledge base is what gets tried.
  await page.getByLabel("Knowledge base").fill(KNOWLEDGE_BASE);
  await tryBox.getByLabel("Question to try").fill("When will my order arrive?");
  await tryBox.getByRole("button", { name: "Ask" }).click();
  const answer = page.getByTestId("try-answer");
  await expect(answer).toContainText("delivered in 4 to 6 working days");
  await expect(answer).toContainText("Passages used");
  await expect(answer).toContainText(/\d+% match/);

  await tryBox.getByLabel("Question to try").fill("What are the fees?");
  await tryBox.getByRole("button", { name: "Ask" }).click();
  await expect(answer).toContainText("Fees – Blouse stitching: ₹650, ready in 7 days.");
  await expect(answer.getByText("Fees", { exact: true }).first()).toBeVisible();
  await tryBox.screenshot({ path: `${SCREENSHOTS}/60-assistant-try-box.png` });
  await shot(page, "61-assistant-ai-tab");
  await expectAccessible(page, "edit-ai-try-answer");

  await tryBox.getByLabel("Question to try").fill("Do you sell lehengas?");
  await tryBox.getByRole("button", { name: "Ask" }).click();
  await expect(answer).toContainText("I'm not sure about that");
  await expect(answer).toContainText("Your texts don't answer this yet");
  await expect(answer).not.toContainText("Passages used");

  // An empty question is refused with the server's words.
  await tryBox.getByLabel("Question to try").fill("   ");
  await tryBox.getByRole("button", { name: "Ask" }).click();
  await expect(tryBox.getByRole("alert")).toHaveText("Type a question to try your assistant");

  await page.getByRole("button", { name: "Save changes" }).click();
  await expect(page.getByText("Campaign updated successfully!")).toBeVisible();

  // Visitors ask through the widget's calls; two of their questions have no answer.
  for (const [visitor, messages] of [
    ["visitor-e2e-0001", ["Do you sell lehengas?", "Is shipping free?"]],
    ["visitor-e2e-0002", ["do you sell LEHENGAS", "Can I customise the border colour?"]],
  ] as const) {
    const started = await page.request.post("/api/widget/conversations", {
      data: { campaignId, visitorId: visitor },
    });
    expect(started.status()).toBe(201);
    const { conversationId } = (await started.json()) as { conversationId: string };
    for (const message of messages) {
      const res = await page.request.post(`/api/widget/conversations/${conversationId}/messages`, {
        data: { message },
      });
      expect(res.status()).toBe(200);
    }
  }

  await page.reload();
  await page.getByRole("tab", { name: "AI Settings" }).click();
  const unanswered = page.getByTestId("unanswered-questions");
  const rows = unanswered.getByRole("listitem");
  await expect(rows).toHaveCount(2);
  await expect(rows.nth(0)).toContainText("Can I customise the border colour?");
  await expect(rows.nth(0)).toContainText("asked once");
  await expect(rows.nth(1)).toContainText("do you sell LEHENGAS");
  await expect(rows.nth(1)).toContainText("asked 2 times");
  await expect(unanswered).not.toContainText("Is shipping free?");

  // "Try" asks the question again, from the texts as they are now.
  await page
    .getByLabel("Knowledge base")
    .fill(`${KNOWLEDGE_BASE}\n\nLehengas: we sell bridal lehengas from ₹12,000.`);
  await unanswered.getByRole("button", { name: "Try “do you sell LEHENGAS”" }).click();
  await expect(tryBox.getByLabel("Question to try")).toHaveValue("do you sell LEHENGAS");
  await expect(answer).toContainText("we sell bridal lehengas from ₹12,000");
  await expect(answer).not.toContainText("Fees");
  await shot(page, "62-assistant-unanswered");
  await expectAccessible(page, "edit-ai-unanswered");

  // Phone width: the tab stacks, the Try box keeps its input and answer readable.
  await page.setViewportSize({ width: 390, height: 844 });
  await tryBox.scrollIntoViewIfNeeded();
  await expect(tryBox.getByRole("button", { name: "Ask" })).toBeVisible();
  const box = await tryBox.boundingBox();
  expect(box?.width ?? 0).toBeLessThanOrEqual(390);
  await tryBox.screenshot({ path: `${SCREENSHOTS}/63-assistant-try-box-390.png` });
  await shot(page, "64-assistant-ai-tab-390");
  await expectAccessible(page, "edit-ai-390");
});
