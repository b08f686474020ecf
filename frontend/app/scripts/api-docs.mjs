// Copies the API reference's viewer (Scalar's standalone build, pinned in
// package.json) into dist/api-docs/, which the server answers /api-docs/
// with: the reference at /api/docs runs only scripts from this server, so no
// third-party script runs beside the dashboard's session, and it works on an
// install without internet.
//
//   node scripts/api-docs.mjs [DIST]      (DIST defaults to dist)
import { copyFileSync, existsSync, mkdirSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";

const dist = process.argv[2] ?? "dist";
const require = createRequire(import.meta.url);
// The package's entry is dist/index.js; its browser build sits beside it.
const entry = require.resolve("@scalar/api-reference");
const root = dirname(dirname(entry));
const viewer = join(root, "dist/browser/standalone.js");
if (!existsSync(viewer)) {
  throw new Error(`api-docs: ${viewer} is missing (is @scalar/api-reference installed?)`);
}
const version = JSON.parse(readFileSync(join(root, "package.json"), "utf8")).version;
mkdirSync(join(dist, "api-docs"), { recursive: true });
copyFileSync(viewer, join(dist, "api-docs/scalar.js"));
console.log(`api-docs: @scalar/api-reference ${version} -> ${join(dist, "api-docs/scalar.js")}`);
