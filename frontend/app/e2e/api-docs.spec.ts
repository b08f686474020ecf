import { expect, test } from "@playwright/test";

// The API reference runs only this server's scripts (its viewer is copied from a pinned npm
// package at build time), asks no other origin for anything, and draws the whole document,
// so it works on an install without internet.
test("the API reference draws the document from this server alone", async ({ page, baseURL }) => {
  const origin = new URL(baseURL ?? "http://127.0.0.1").origin;
  const foreign: string[] = [];
  const violations: string[] = [];
  page.on("request", (req) => {
    const url = req.url();
    if (!url.startsWith(origin) && !url.startsWith("data:")) foreign.push(url);
  });
  page.on("console", (msg) => {
    if (msg.type() === "error" && msg.text().includes("Content Security Policy")) {
      violations.push(msg.text());
    }
  });
  await page.goto("/api/docs");
  await expect(page.getByRole("heading", { name: "ConvertAssist API" })).toBeVisible({
    timeout: 20_000,
  });
  await expect(page.getByText("/api/campaigns").first()).toBeVisible();
  expect(foreign).toEqual([]);
  expect(violations).toEqual([]);
});
