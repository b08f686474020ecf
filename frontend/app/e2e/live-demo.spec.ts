import { execFileSync } from "node:child_process";
import { expect, test, type BrowserContext, type Page } from "@playwright/test";
import { expectAccessible } from "./a11y";
import { shot } from "./support";

/** Campaigns, conversations, customers and widget events of every owner, from the test database. */
function everyonesFigures(): string {
  const db = (process.env.E2E_DATABASE_URL ?? "").replace(/^sqlite:\/\//, "").split("?")[0] ?? "";
  if (!db) throw new Error("E2E_DATABASE_URL must name the SQLite test database");
  return execFileSync(
    "python3",
    [
      "-c",
      "import sqlite3,sys; c=sqlite3.connect(sys.argv[1]); print([c.execute(q).fetchone()[0] for q in ('SELECT COUNT(*) FROM campaigns','SELECT COALESCE(SUM(impressions),0) FROM campaigns','SELECT COUNT(*) FROM conversations','SELECT COUNT(*) FROM customers')])",
      db,
    ],
    { encoding: "utf8" },
  ).trim();
}

/** Watch Demo on the landing page, then the demo's first caption once the widget is ready. */
async function openDemo(page: Page) {
  await page.goto("/home");
  await page.getByRole("link", { name: "Watch Demo" }).click();
  await page.waitForURL("**/live-demo");
  await expect(page.locator("#demo-caption")).toContainText("move your pointer out");
}

function popup(page: Page) {
  return page.locator("convertassist-widget").getByRole("dialog");
}

/** Asks the assistant, leaves an email, and follows the captions. */
async function askAndLeaveEmail(page: Page, width: number) {
  const caption = page.locator("#demo-caption");
  const dialog = popup(page);
  await expect(dialog).toBeVisible();
  await expect(caption).toContainText("the popup opened");
  await shot(page, `live-demo-popup-${width}`);
  const message = dialog.getByLabel("Your message");
  await message.fill("Is shipping free?");
  await message.press("Enter");
  await expect(dialog.getByText(/free on orders above ₹999/)).toBeVisible();
  await expect(caption).toContainText("knowledge base");
  await message.fill("Is there a discount on my first order?");
  await message.press("Enter");
  const form = dialog.getByRole("form", { name: "Get 10% off your first order" });
  await expect(form).toBeVisible();
  await form.getByLabel("Email").fill("prospect@example.com");
  await form.getByRole("button", { name: "Send my code" }).click();
  await expect(dialog.getByText("Done! Your code WELCOME10 is on its way.")).toBeVisible();
  await expect(caption).toContainText("That is a lead");
  await expect(page.locator("[data-step='4']")).toHaveAttribute("aria-current", "step");
  await shot(page, `live-demo-lead-${width}`);
}

test("Watch Demo: the pointer leaves, the popup opens, the assistant answers, an email is left; nothing counts", async ({
  browser,
}) => {
  const before = everyonesFigures();
  for (const [width, height] of [
    [1440, 900],
    [768, 1024],
  ] as const) {
    const context: BrowserContext = await browser.newContext({ viewport: { width, height } });
    const page = await context.newPage();
    await openDemo(page);
    if (width === 1440) await expectAccessible(page, "live-demo");
    // The pointer moves up and out through the top of the window.
    await page.mouse.move(width / 2, 400);
    await page.mouse.move(width / 2, 1, { steps: 6 });
    await page.evaluate(() =>
      document.dispatchEvent(
        new MouseEvent("mouseout", {
          clientX: 600,
          clientY: 1,
          bubbles: true,
          relatedTarget: null,
        }),
      ),
    );
    await askAndLeaveEmail(page, width);
    await context.close();
  }

  // A phone: a quick flick up opens the popup.
  const phone = await browser.newContext({
    viewport: { width: 390, height: 844 },
    isMobile: true,
    hasTouch: true,
  });
  const page = await phone.newPage();
  await page.goto("/live-demo");
  await expect(page.locator("#demo-caption")).toContainText("move your pointer out");
  await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
  await page.waitForTimeout(600);
  const cdp = await phone.newCDPSession(page);
  const touch = (type: "touchStart" | "touchMove" | "touchEnd", y?: number) =>
    cdp.send("Input.dispatchTouchEvent", {
      type,
      touchPoints: y === undefined ? [] : [{ x: 200, y }],
    });
  let y = 180;
  await touch("touchStart", y);
  for (const [dy, gap] of [
    [20, 45],
    [25, 60],
    [20, 40],
    [70, 16],
    [80, 16],
    [3, 1],
    [90, 16],
    [80, 16],
  ] as const) {
    await page.waitForTimeout(gap);
    y += dy;
    await touch("touchMove", y);
  }
  await page.waitForTimeout(250);
  await touch("touchEnd");
  await askAndLeaveEmail(page, 390);
  await phone.close();

  // Nothing done on the demo is in anyone's figures.
  expect(everyonesFigures()).toBe(before);
});
