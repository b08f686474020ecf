import { expect, test, type Browser, type Page } from "@playwright/test";
import { API, campaign, owner } from "./support/api";
import {
  PARTS,
  PREVIEW_PARTS,
  readStyles,
  readTexts,
  savePreview,
  SCREENSHOTS,
  WIDGET_PARTS,
  type Styles,
} from "./support/styles";

/**
 * The dashboard's preview of the journeys' campaign (Edit campaign → Popup Design): its computed
 * styles are what the widget's popup must match on every site (sites.spec.ts compares them).
 */
test("the dashboard's preview of the journeys' campaign", async ({ page, request }) => {
  const token = await owner(request);
  const id = await campaign(request, token, { website: "https://kesar-handlooms.example.in" });
  await signIn(page, token);
  await page.goto(`${API}/campaigns/${id}/edit`);
  await page.getByRole("tab", { name: "Popup Design" }).click();
  const preview = page.getByTestId("popup-preview");
  await expect(preview).toBeVisible();
  await expect(preview.getByText("Wait! Before you go...")).toBeVisible();
  const styles = await readStyles(page, PREVIEW_PARTS);
  savePreview(styles);
  await preview.screenshot({ path: `${SCREENSHOTS}/00-dashboard-preview.png` });
});

/**
 * Campaigns the preview and the embed must draw alike: the journeys' design (near-black text on
 * the default coral), and designs that move every computed style the widget derives from the
 * settings (size, radius, padding, font, colours on either side of the text-colour switch, an
 * owner writing right to left, no badges).
 */
const DESIGNS: { name: string; design: Record<string, unknown>; initialMessage?: string }[] = [
  { name: "default", design: {} },
  {
    name: "dark-small-serif",
    design: {
      popupSize: "small",
      borderRadius: 0,
      padding: 16,
      fontFamily: "Helvetica",
      primaryColor: "#1e3a8a",
      secondaryColor: "#312e81",
      showTrustBadges: false,
    },
    initialMessage: "Hello! Any questions about sizes?",
  },
  {
    name: "light-large-rtl",
    design: {
      popupSize: "large",
      borderRadius: 24,
      padding: 40,
      fontFamily: "Times New Roman",
      primaryColor: "#ffd43b",
      secondaryColor: "#fab005",
      headerTitle: "!انتظر قبل أن تغادر",
      headerSubtitle: "مساعدنا هنا لمساعدتك",
      trustBadges: [{ icon: "🚚", text: "Free delivery" }],
    },
  },
];

/** The sample exchange the designer shows: the visitor's question, typed on the site. */
const QUESTION = "Do you deliver to Pune? What does shipping cost?";

/** The visitor's chat bubble: compared for its look (its size follows the reply it gets). */
const VISITOR_PROPS = PARTS.bubble!.filter((p) => p !== "width" && p !== "height");

async function signIn(page: Page, token: string): Promise<void> {
  await page.goto(`${API}/dashboard`);
  await page.evaluate((t) => localStorage.setItem("token", t), token);
}

/** The computed styles that differ, `part.property: embed ≠ preview`. */
function differences(embed: Styles, preview: Styles): string[] {
  const out: string[] = [];
  for (const part of new Set([...Object.keys(embed), ...Object.keys(preview)])) {
    if (!embed[part] || !preview[part]) {
      out.push(
        `${part}: ${embed[part] ? "" : "not "}in the embed, ${preview[part] ? "" : "not "}in the preview`,
      );
      continue;
    }
    for (const [prop, a] of Object.entries(embed[part] ?? {})) {
      const b = preview[part]?.[prop];
      if (a !== b) out.push(`${part}.${prop}: embed ${a} ≠ preview ${b}`);
    }
  }
  return out;
}

async function visitorBubble(page: Page, parts: string): Promise<Styles> {
  return page.evaluate(
    ({ parts, props }) => {
      const locate = new Function("part", parts) as (part: string) => Element | null;
      const el = locate("visitorBubble");
      if (!el) throw new Error("no visitor bubble");
      const cs = getComputedStyle(el) as unknown as Record<string, string>;
      const row: Record<string, string> = {};
      for (const p of props) row[p] = cs[p] as string;
      return { visitorBubble: row };
    },
    { parts, props: VISITOR_PROPS },
  );
}

/** The live popup on the sample shop page (`/test-widget`), opened as a visitor leaving. */
async function embed(browser: Browser, id: string, shot: string) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();
  await page.goto(`${API}/test-widget?campaign=${id}`);
  const dialog = page.locator("body > convertassist-widget").getByRole("dialog");
  await expect(async () => {
    await page.mouse.move(640, 300);
    await page.mouse.move(640, 120, { steps: 3 });
    await page.mouse.move(640, -10, { steps: 3 });
    await expect(dialog).toBeVisible({ timeout: 1_000 });
  }).toPass({ timeout: 15_000 });
  const styles = await readStyles(page, WIDGET_PARTS, true);
  const texts = await readTexts(page, "body > convertassist-widget");
  await page.screenshot({ path: shot });
  // The visitor asks the designer's sample question: their bubble as the preview draws it.
  const message = dialog.getByRole("textbox", { name: "Your message" });
  await message.fill(QUESTION);
  await message.press("Enter");
  await expect(dialog.getByText(QUESTION)).toBeVisible();
  const visitor = await visitorBubble(page, WIDGET_PARTS);
  await context.close();
  return { styles: { ...styles, ...visitor }, texts };
}

for (const d of DESIGNS) {
  test(`the dashboard's preview draws the popup the embed shows: ${d.name}`, async ({
    browser,
    page,
    request,
  }) => {
    const token = await owner(request);
    const id = await campaign(request, token, {
      website: "https://kesar-handlooms.example.in",
      design: d.design,
      initialMessage: d.initialMessage,
    });

    await signIn(page, token);
    await page.goto(`${API}/campaigns/${id}/edit`);
    await page.getByRole("tab", { name: "Popup Design" }).click();
    const box = page.getByTestId("popup-preview");
    await expect(box.getByRole("dialog")).toBeVisible();
    const preview = {
      styles: {
        ...(await readStyles(page, PREVIEW_PARTS, true)),
        ...(await visitorBubble(page, PREVIEW_PARTS)),
      },
      texts: await readTexts(page, "[data-testid=popup-preview] convertassist-widget"),
    };
    await box.screenshot({ path: `${SCREENSHOTS}/00-preview-${d.name}-dashboard.png` });
    // The preview sends nothing: no conversation, no event, whatever is typed into it.
    const sent: string[] = [];
    page.on("request", (r) => {
      if (r.url().includes("/api/widget/")) sent.push(r.url());
    });
    const message = box.getByRole("textbox", { name: "Your message" });
    await message.fill("Hello?");
    await message.press("Enter");
    await expect(box.getByText("This is a preview: nothing is sent.")).toBeVisible();
    await box.getByRole("button", { name: /^(Get My Offer|Submit)$/ }).click();
    await page.waitForTimeout(300);
    expect(sent, "requests from the preview").toEqual([]);

    const live = await embed(browser, id, `${SCREENSHOTS}/00-preview-${d.name}-embed.png`);
    expect(live.texts, "texts").toEqual(preview.texts);
    expect(differences(live.styles, preview.styles), "computed styles").toEqual([]);
  });
}
