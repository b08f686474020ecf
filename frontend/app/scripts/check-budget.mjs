// Checks the dashboard build against its size budgets: the JavaScript a page downloads before
// it shows, gzipped. The landing page is static HTML (scripts/prerender.mjs writes
// dist/home/index.html): its JavaScript is whatever that file loads, which should be nothing.
// Every other page's is the entry chunk, the route modules React Router loads for it
// (src/app/router.tsx), and every chunk those statically import. Reads Vite's manifest
// (`build.manifest`), prints a table and fails when a page is over its budget.
//
//   node scripts/check-budget.mjs [DIST]      (DIST defaults to dist; run after prerender.mjs)
//
// The sign-in pages cannot get under 100 KB while they are React pages: React 19 with
// react-dom is 69 KB gzipped and React Router's data router (which useBlocker needs) 32 KB more,
// before any Mantine or page code. Their budgets sit a little above what they need today.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { gzipSync } from "node:zlib";

const KB = 1024;

// Each page with the route modules it needs, as the manifest names them (paths from app/),
// or the static HTML file that answers it.
const PAGES = [
  { path: "/home", budget: 100 * KB, html: "home/index.html" },
  { path: "/login", budget: 170 * KB, modules: ["src/features/auth/routes/LoginPage.tsx"] },
  {
    path: "/register",
    budget: 200 * KB,
    modules: ["src/features/auth/routes/RegisterPage.tsx"],
  },
  {
    path: "/forgot-password",
    budget: 170 * KB,
    modules: ["src/features/auth/routes/ForgotPasswordPage.tsx"],
  },
  {
    path: "/reset-password",
    budget: 170 * KB,
    modules: ["src/features/auth/routes/ResetPasswordPage.tsx"],
  },
  {
    path: "/auth",
    budget: 170 * KB,
    modules: ["src/features/auth/routes/SessionExpiredPage.tsx"],
  },
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
const manifest = JSON.parse(readFileSync(join(dist, ".vite/manifest.json"), "utf8"));
const gz = (file) => gzipSync(readFileSync(join(dist, file)), { level: 9 }).length;
const sizeOf = new Map();
const gzOf = (file) => {
  if (!sizeOf.has(file)) sizeOf.set(file, gz(file));
  return sizeOf.get(file);
};

const entryKey = Object.keys(manifest).find((k) => manifest[k].isEntry);
if (!entryKey) throw new Error("no entry chunk in the manifest");

/** The JS and CSS files `keys` need before they run: themselves and their static imports. */
function closure(keys) {
  const js = new Set();
  const css = new Set();
  const seen = new Set();
  const visit = (key) => {
    if (seen.has(key)) return;
    seen.add(key);
    const chunk = manifest[key];
    if (!chunk)
      throw new Error(`${key} is not in the manifest: was it renamed? (scripts/check-budget.mjs)`);
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

const kb = (n) => `${(n / KB).toFixed(1)} KB`;
const rows = [];
let over = false;
for (const page of PAGES) {
  const { js, css } = page.html ? htmlAssets(page.html) : closure([entryKey, ...page.modules]);
  const jsBytes = js.reduce((s, f) => s + gzOf(f), 0);
  const cssBytes = css.reduce((s, f) => s + gzOf(f), 0);
  const ok = jsBytes <= page.budget;
  over ||= !ok;
  rows.push({ ...page, jsBytes, cssBytes, chunks: js.length, ok });
}

const entryGz = closure([entryKey]).js.reduce((s, f) => s + gzOf(f), 0);
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
