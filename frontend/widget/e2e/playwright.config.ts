import { defineConfig, devices } from "@playwright/test";

/**
 * The widget on real site templates and a hostile page, on a desktop and on a Pixel 7.
 * `cargo xtask test` starts the server (E2E_BASE_URL); on their own the journeys start one
 * (global-setup.ts). Screenshots land in `e2e-screenshots/` of the widget workspace.
 */
const chromium = {
  executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
  args: [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
    "--disable-quic",
    "--disable-sync",
  ],
};

export default defineConfig({
  testDir: ".",
  testMatch: /.*\.spec\.ts$/,
  globalSetup: "./global-setup.ts",
  // One at a time: on SQLite the server answers concurrent campaign writes with 500s
  // ("database is locked"), and one worker keeps a trial owner's single campaign.
  workers: 1,
  retries: 0,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: "list",
  outputDir: "../test-results",
  use: {
    headless: true,
    actionTimeout: 10_000,
    navigationTimeout: 15_000,
    launchOptions: chromium,
  },
  projects: [
    // The dashboard's preview of the journeys' campaign: the styles the popup must match.
    {
      name: "preview",
      testMatch: /preview\.spec\.ts$/,
      use: { viewport: { width: 1280, height: 800 } },
    },
    {
      name: "desktop",
      testMatch: /sites\.spec\.ts$/,
      dependencies: ["preview"],
      use: { viewport: { width: 1280, height: 800 } },
    },
    {
      name: "pixel7",
      testMatch: /sites\.spec\.ts$/,
      dependencies: ["preview"],
      use: { ...devices["Pixel 7"], launchOptions: chromium },
    },
    // The gesture corpus replayed as touches: exits open the popup, reading never does.
    {
      name: "gestures",
      testMatch: /gestures\.spec\.ts$/,
      use: { ...devices["Pixel 7"], launchOptions: chromium },
    },
    // A/B tests: each visitor sees their arm's popup, and every count carries the arm.
    {
      name: "ab-desktop",
      testMatch: /ab\.spec\.ts$/,
      use: { viewport: { width: 1440, height: 900 } },
    },
    {
      name: "ab-pixel7",
      testMatch: /ab\.spec\.ts$/,
      use: { ...devices["Pixel 7"], launchOptions: chromium },
    },
    // What the widget reports by itself (engaged time on leaving the page).
    {
      name: "reports",
      testMatch: /reports\.spec\.ts$/,
      use: { viewport: { width: 1280, height: 800 } },
    },
  ],
});
