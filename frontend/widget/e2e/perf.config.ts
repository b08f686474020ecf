import { defineConfig } from "@playwright/test";
import base from "./playwright.config";

/** `npm run perf --workspace widget`: prints the widget's main-thread cost (see main-thread.perf.ts). */
export default defineConfig({
  ...base,
  testMatch: /.*\.perf\.ts$/,
  projects: [{ name: "chromium", use: { ...base.use } }],
});
