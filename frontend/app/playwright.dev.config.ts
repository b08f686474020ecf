import { defineConfig } from "@playwright/test";

/**
 * The developer overlay's journey (e2e-dev/): the dashboard under the Vite dev
 * server, whose `/api` goes to the server `cargo xtask test` started
 * (E2E_BASE_URL; `cargo xtask run`'s 127.0.0.1:8080 when unset).
 */
const port = Number(process.env.E2E_DEV_PORT ?? 5183);
const devUrl = `http://127.0.0.1:${port}`;

export default defineConfig({
  testDir: "./e2e-dev",
  workers: 1,
  retries: 0,
  timeout: 90_000,
  expect: { timeout: 15_000 },
  reporter: "list",
  outputDir: "test-results/dev-overlay",
  webServer: {
    command: `npx vite --host 127.0.0.1 --port ${port} --strictPort`,
    url: devUrl,
    reuseExistingServer: false,
    timeout: 60_000,
    stdout: "ignore",
    stderr: "pipe",
    env: {
      CA_DEV_API_URL: process.env.E2E_BASE_URL ?? "http://127.0.0.1:8080",
      VITE_STAGEWISE_TOOLBAR: "on",
    },
  },
  use: {
    baseURL: devUrl,
    headless: true,
    actionTimeout: 15_000,
    navigationTimeout: 30_000,
    viewport: { width: 1440, height: 900 },
    launchOptions: {
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
    },
  },
});
