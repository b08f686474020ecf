// The sign-in pages' own build (npm run build runs it after the dashboard's): one entry per
// page (src/signin/*.tsx), each mounting the same page component the dashboard's router shows,
// with React aliased to Preact's compatibility layer and React Router to a small stand-in
// (src/signin/router.tsx), so a sign-in page downloads a fraction of the dashboard's JavaScript.
// It writes its chunks into the dashboard's dist/assets and its manifest to
// dist/.vite/signin-manifest.json; scripts/signin-pages.mjs then writes each page's HTML.
import { fileURLToPath } from "node:url";
import { defineConfig } from "vite";

const src = (path: string) => fileURLToPath(new URL(`./src/${path}`, import.meta.url));

/** Each sign-in path with its entry module. */
const SIGN_IN_PAGES = {
  login: "signin/login.tsx",
  register: "signin/register.tsx",
  "forgot-password": "signin/forgot-password.tsx",
  "reset-password": "signin/reset-password.tsx",
  auth: "signin/session-expired.tsx",
} as const;

export default defineConfig({
  resolve: {
    alias: [
      { find: /^react$/, replacement: "preact/compat" },
      { find: /^react-dom$/, replacement: "preact/compat" },
      { find: /^react-dom\/client$/, replacement: "preact/compat/client" },
      { find: /^react\/jsx-runtime$/, replacement: "preact/jsx-runtime" },
      { find: /^react\/jsx-dev-runtime$/, replacement: "preact/jsx-dev-runtime" },
      { find: /^react-router$/, replacement: src("signin/router.tsx") },
    ],
  },
  build: {
    outDir: "dist",
    emptyOutDir: false,
    copyPublicDir: false,
    sourcemap: false,
    manifest: ".vite/signin-manifest.json",
    rollupOptions: {
      input: Object.fromEntries(
        Object.entries(SIGN_IN_PAGES).map(([name, entry]) => [name, src(entry)]),
      ),
      output: {
        // Named as the dashboard's stylesheet: both builds import the same Mantine styles, so
        // when their contents match (the hash is of the content) it is one file, and the
        // dashboard opened after signing in finds it cached.
        assetFileNames: (asset) =>
          asset.names.some((name) => name.endsWith(".css"))
            ? "assets/index-[hash][extname]"
            : "assets/[name]-[hash][extname]",
      },
      onwarn(warning, warn) {
        // Mantine ships "use client" directives for React Server Components; they mean nothing here.
        if (warning.code === "MODULE_LEVEL_DIRECTIVE") return;
        warn(warning);
      },
    },
  },
});
