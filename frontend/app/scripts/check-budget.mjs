// Checks the dashboard build against its size budgets: the JavaScript a page downloads before
// it shows, gzipped. The landing page is static HTML (scripts/prerender.mjs writes
// dist/home/index.html): its JavaScript is whatever that file loads, which should be nothing.
// The sign-in pages are their own build (vite.signin.config.ts: the same page components on
// Preact's React compatibility layer, without React Router), each answered by its own HTML
// (scripts/signin-pages.mjs writes dist/<page>/index.html): their JavaScript is their entry in
// that build's manifest and every chunk it statically imports, which must also be exactly what
// their HTML loads. Every other page's is the dashboard's entry chunk, the route modules React
// Router loads for it (src/app/router.tsx), and every chunk those statically import. Reads
// Vite's manifests (`build.manifest`), prints a table and fails when a page is over its budget.
//
//   node scripts/check-budget.mjs [DIST]      (DIST defaults to dist; run after prerender.mjs)
//
// React 19 with react-dom is 69 KB gzipped and React Router's data router 32 KB more, before any
// Mantine or page code: as React pages the sign-in pages needed 144-188 KB.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { gzipSync } from "node:zlib";

const KB = 1024;

// Each page with the route modules it needs, as the dashboard's manifest names them (paths from
// app/), its entry in the sign-in build's manifest, or the static HTML file that answers it.
const PAGES = [
  { path: "/home", budget: 100 * KB, html: "home/index.html" },
  { path: "/login", budget: 100 * KB, signIn: "src/signin/login.tsx" },
  { path: "/register", budget: 100 * KB, signIn: "src/signin/register.tsx" },
  { path: "/forgot-password", budget: 100 * KB, signIn: "src/signin/forgot-password.tsx" },
  { path: "/reset-password", budget: 100 * KB, signIn: "src/signin/reset-password.tsx" },
  { path: "/auth", budget: 100 * KB, signIn: "src/signin/session-expired.tsx" },
  {
    path: "/dashboard",
    budget: 250 * KB,
    modules: [
      "src/features/shell/components/AppLayout.tsx",
      "src/features/dashboard/routes/DashboardPage.tsx",
    ],
  },
];

const dist = process.argv[2] ?? "dist";
const readManifest = (name) => JSON.parse(readFileSync(join(dist, ".vite", name), "utf8"));
const manifest = readManifest("manifest.json");
const signInManifest = readManifest("signin-manifest.json");
const gz = (file) => gzipSync(readFileSync(join(dist, file)), { level: 9 }).length;
const sizeOf = new Map();
const gzOf = (file) => {
  if (!sizeOf.has(file)) sizeOf.set(file, gz(file));
  return sizeOf.get(file);
};

const entryKey = Object.keys(manifest).find((k) => manifest[k].isEntry);
if (!entryKey) throw new Error("no entry chunk in the manifest");

/** The JS and CSS files `keys` of manifest `from` need before they run: themselves and their static imports. */
function closure(keys, from) {
  const js = new Set();
  const css = new Set();
  const seen = new Set();
  const visit = (key) => {
    if (seen.has(key)) return;
    seen.add(key);
    const chunk = from[key];
    if (!chunk)
      throw new Error(`${key} is not in a manifest: was it renamed? (scripts/check-budget.mjs)`);
    js.add(chunk.file);
    for (const c of chunk.css ?? []) css.add(c);
    for (const i of chunk.imports ?? []) visit(i);
  };
  keys.forEach(visit);
  return { js: [...js], css: [...css] };
}

/** The JS and CSS files a static HTML page loads (scripts, module preloads, stylesheets). */
function htmlAssets(file) {
  const html = readFileSync(join(dist, file), "utf8");
  const refs = (re) => [...html.matchAll(re)].map((m) => m[1].replace(/^\//, ""));
  return {
    js: refs(/<(?:script|link rel="modulepreload")[^>]*(?:src|href)="([^"]+)"/g),
    css: refs(/<link rel="stylesheet"[^>]*href="([^"]+)"/g),
  };
}

/** What `page` loads before it shows. */
function assetsOf(page) {
  if (page.html) return htmlAssets(page.html);
  if (!page.signIn) return closure([entryKey, ...page.modules], manifest);
  const needed = closure([page.signIn], signInManifest);
  const html = `${page.path.slice(1)}/index.html`;
  const loaded = htmlAssets(html);
  const same = (a, b) => a.length === b.length && a.every((f) => b.includes(f));
  if (!same(needed.js, loaded.js) || !same(needed.css, loaded.css)) {
    throw new Error(
      `dist/${html} does not load what ${page.signIn} needs: run scripts/signin-pages.mjs`,
    );
  }
  return needed;
}

const kb = (n) => `${(n / KB).toFixed(1)} KB`;
const rows = [];
let over = false;
for (const page of PAGES) {
  const { js, css } = assetsOf(page);
  const jsBytes = js.reduce((s, f) => s + gzOf(f), 0);
  const cssBytes = css.reduce((s, f) => s + gzOf(f), 0);
  const ok = jsBytes <= page.budget;
  over ||= !ok;
  rows.push({ ...page, jsBytes, cssBytes, chunks: js.length, ok });
}

const entryGz = closure([entryKey], manifest).js.reduce((s, f) => s + gzOf(f), 0);
console.log(`dashboard JS by page (gzipped; entry and its imports ${kb(entryGz)}):`);
console.log(
  `  ${"page".padEnd(17)}${"JS".padStart(10)}${"budget".padStart(10)}${"chunks".padStart(8)}${"CSS".padStart(10)}`,
);
for (const r of rows) {
  console.log(
    `  ${r.path.padEnd(17)}${kb(r.jsBytes).padStart(10)}${kb(r.budget).padStart(10)}${String(r.chunks).padStart(8)}${kb(r.cssBytes).padStart(10)}${r.ok ? "" : "  OVER"}`,
  );
}
if (over) {
  console.error("dashboard size budget exceeded (scripts/check-budget.mjs)");
  process.exit(1);
}
