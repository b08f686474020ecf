// Renders the landing page to static HTML after `vite build`: dist/home/index.html, the built
// index.html with the page's markup in #root and no scripts. The server answers /home with it
// (a directory's index.html), so the landing page shows without downloading the app; every
// other path still gets the app's index.html.
//
//   node scripts/prerender.mjs [DIST]      (DIST defaults to dist)
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { build } from "vite";

const dist = resolve(process.argv[2] ?? "dist");
// Inside app/node_modules so the bundle's bare imports (react, @mantine/core) resolve.
const out = resolve("node_modules/.cache/prerender");

await build({
  logLevel: "warn",
  build: {
    ssr: "src/features/landing/prerender.tsx",
    outDir: out,
    emptyOutDir: true,
    manifest: false,
    copyPublicDir: false,
    rollupOptions: { output: { entryFileNames: "prerender.mjs" } },
  },
});

// The theme's module also sets up the API client, which reads the page's origin when loaded.
globalThis.window ??= { location: { origin: "http://127.0.0.1", assign() {} } };
const { renderLandingPage } = await import(pathToFileURL(join(out, "prerender.mjs")).href);
const markup = renderLandingPage();
rmSync(out, { recursive: true, force: true });

const template = readFileSync(join(dist, "index.html"), "utf8");
const html = template
  // Mantine sets this attribute from a script in the app; the static page has none.
  .replace('<html lang="en">', '<html lang="en" data-mantine-color-scheme="light">')
  .replace(/\s*<script type="module"[^>]*><\/script>/g, "")
  .replace(/\s*<link rel="modulepreload"[^>]*>/g, "")
  .replace('<div id="root"></div>', `<div id="root">${markup}</div>`);
for (const [what, ok] of [
  ["the html tag", html.includes("data-mantine-color-scheme")],
  ["#root", html.includes(markup)],
  ["no scripts", !/<script/i.test(html)],
]) {
  if (!ok) throw new Error(`prerender: unexpected dist/index.html (${what})`);
}
mkdirSync(join(dist, "home"), { recursive: true });
writeFileSync(join(dist, "home/index.html"), html);
console.log(`prerendered /home: ${join(dist, "home/index.html")} (${html.length} bytes)`);
