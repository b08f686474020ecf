// Writes each sign-in page's HTML after the sign-in build (vite.signin.config.ts):
// dist/<page>/index.html for /login, /register, /forgot-password, /reset-password and /auth,
// which the server answers those paths with (a directory's index.html, as for /home). Each is
// the dashboard's built index.html with its scripts, module preloads and stylesheets replaced
// by those of the page's entry in dist/.vite/signin-manifest.json: the page's own chunk and
// every chunk it imports, all requested at once.
//
//   node scripts/signin-pages.mjs [DIST]      (DIST defaults to dist)
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";

const dist = process.argv[2] ?? "dist";
const manifest = JSON.parse(readFileSync(join(dist, ".vite/signin-manifest.json"), "utf8"));
const template = readFileSync(join(dist, "index.html"), "utf8");

const ASSET_TAG =
  /\s*<(?:script type="module"[^>]*><\/script>|link rel="(?:modulepreload|stylesheet)"[^>]*>)/g;
const stripped = template.replace(ASSET_TAG, "");
if (!stripped.includes("</head>") || !template.includes('<div id="root"></div>')) {
  throw new Error("signin-pages: unexpected dist/index.html");
}

/** The chunks `key` needs before it runs, itself first, and their stylesheets. */
function closure(key) {
  const js = [];
  const css = new Set();
  const visit = (k) => {
    const chunk = manifest[k];
    if (!chunk) throw new Error(`signin-pages: ${k} is not in the manifest`);
    if (js.includes(chunk.file)) return;
    js.push(chunk.file);
    for (const c of chunk.css ?? []) css.add(c);
    for (const i of chunk.imports ?? []) visit(i);
  };
  visit(key);
  return { js, css: [...css] };
}

const entries = Object.entries(manifest).filter(([, chunk]) => chunk.isEntry);
if (entries.length === 0) throw new Error("signin-pages: no entries in the manifest");
for (const [key, chunk] of entries) {
  const { js, css } = closure(key);
  const [entry, ...imports] = js;
  const tags = [
    `<script type="module" crossorigin src="/${entry}"></script>`,
    ...imports.map((f) => `<link rel="modulepreload" crossorigin href="/${f}">`),
    ...css.map((f) => `<link rel="stylesheet" crossorigin href="/${f}">`),
  ];
  const html = stripped.replace(
    /\n\s*<\/head>/,
    `\n${tags.map((t) => `    ${t}\n`).join("")}  </head>`,
  );
  mkdirSync(join(dist, chunk.name), { recursive: true });
  writeFileSync(join(dist, chunk.name, "index.html"), html);
  console.log(`sign-in page /${chunk.name}: ${join(dist, chunk.name, "index.html")}`);
}
