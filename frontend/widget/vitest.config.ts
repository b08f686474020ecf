import { defineConfig } from "vitest/config";

/** Unit tests of the widget's logic (`test/`), in jsdom with fake timers where time matters. */
export default defineConfig({
  test: {
    environment: "jsdom",
    include: ["test/**/*.test.ts"],
  },
});
