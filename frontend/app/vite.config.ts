import { defineConfig } from "vitest/config";

export default defineConfig({
  build: {
    outDir: "dist",
    emptyOutDir: true,
    sourcemap: false,
    // dist/.vite/manifest.json: which chunks each route module needs, for scripts/check-budget.mjs.
    manifest: true,
    rollupOptions: {
      onwarn(warning, warn) {
        // Mantine ships "use client" directives for React Server Components; they mean nothing here.
        if (warning.code === "MODULE_LEVEL_DIRECTIVE") return;
        warn(warning);
      },
    },
  },
  server: {
    proxy: {
      // `cargo xtask run` by default; the dev-overlay journey points it at its own test server.
      "/api": process.env.CA_DEV_API_URL || "http://127.0.0.1:8080",
    },
  },
  test: {
    environment: "jsdom",
    setupFiles: ["./src/test/setup.ts"],
    include: ["src/**/*.test.{ts,tsx}"],
    css: false,
    // Page tests render whole screens with Mantine in jsdom; on a machine
    // busy with a Rust build, some take more than Vitest's 5 s default.
    testTimeout: 20_000,
  },
});
