import { expect, test } from "@playwright/test";
import { registerThroughForm, uniqueEmail } from "../e2e/support";
import { startIdeStandIn, type IdeStandIn } from "./ide-standin";

const SCREENSHOTS = "e2e-screenshots";

let ide: IdeStandIn;
test.beforeAll(async () => {
  ide = await startIdeStandIn({ displayName: "convertassist - stand-in" });
});
test.afterAll(async () => {
  await ide?.close();
});

test("the stagewise toolbar finds the IDE window and sends it a prompt about a picked element", async ({
  page,
}) => {
  const duplicateWarnings: string[] = [];
  page.on("console", (msg) => {
    if (msg.text().includes("companion anchor already exists")) duplicateWarnings.push(msg.text());
  });
  // The toolbar adds a web font from a third-party host; the test machine has no Internet.
  await page.route("https://rsms.me/**", (route) =>
    route.fulfill({ status: 200, contentType: "text/css", body: "" }),
  );

  // Sign-up loads the page once; from there to Campaigns the router navigates in the page.
  await registerThroughForm(page, uniqueEmail("overlay"));
  await page
    .getByRole("navigation", { name: "Main" })
    .getByRole("link", { name: "Campaigns" })
    .click();
  await page.waitForURL("**/campaigns");
  const heading = page.getByRole("heading", { name: "Your campaigns" });
  await expect(heading).toBeVisible();

  // Mounted once, across the app's route changes and StrictMode's double effects.
  const anchor = page.locator("stagewise-companion-anchor");
  await expect(anchor).toHaveCount(1);

  // Discovery found the stand-in: the prompt box replaces the "Not Connected" card.
  const promptBox = anchor.locator("textarea");
  await expect(promptBox).toHaveAttribute("placeholder", /What do you want to change\?/);
  expect(ide.sessionInfoRequests()).toBeGreaterThan(0);
  await expect(anchor.getByText("Not Connected")).toHaveCount(0);

  // Ctrl+Alt+C starts prompt creation; the picker covers the page.
  await page.keyboard.press("Control+Alt+KeyC");
  await expect(promptBox).toHaveAttribute("placeholder", "Enter prompt...");
  const box = await heading.boundingBox();
  if (!box) throw new Error("the heading has no box");
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2, { steps: 4 });
  // The hover proposal is labelled with the tag and the React plugin's component name.
  await expect(anchor.getByText("CampaignsPage").first()).toBeVisible();
  await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2);

  // The picked heading keeps a green frame labelled "h2" and "CampaignsPage".
  await promptBox.click();
  await promptBox.fill("Make this heading say 'Your exit-intent campaigns'");
  await page.screenshot({ path: `${SCREENSHOTS}/90-dev-overlay-campaigns.png` });
  await promptBox.press("Enter");

  const received = await ide.nextPrompt(15_000);
  expect(received.sessionId).toBe(ide.sessionId);
  const prompt = received.prompt;
  await test.info().attach("prompt received by the IDE stand-in", {
    body: prompt,
    contentType: "text/plain",
  });
  if (process.env.E2E_PRINT_PROMPT) console.log(prompt);
  expect(prompt).toContain(
    "<user_goal>Make this heading say 'Your exit-intent campaigns'</user_goal>",
  );
  expect(prompt).toContain(`<url>${page.url()}</url>`);
  expect(page.url()).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/campaigns$/);
  expect(prompt).toMatch(
    /<selected_elements>[\s\S]*<tag>h2<\/tag>[\s\S]*<text>Your campaigns<\/text>/,
  );
  expect(prompt).toContain("<elements-react-component-info>");
  expect(prompt).toMatch(/React component tree[^\n]*\{name: CampaignsPage, type: regular\}/);
  expect(ide.prompts).toHaveLength(1);

  // The stand-in's success answer shows as the prompt box's success state.
  await expect(anchor.locator(".chat-success-border")).toBeVisible();
  await expect(anchor).toHaveCount(1);
  expect(duplicateWarnings).toEqual([]);
  await page.screenshot({ path: `${SCREENSHOTS}/91-dev-overlay-sent.png` });
});
