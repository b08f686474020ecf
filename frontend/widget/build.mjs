// Builds the widget: the small loader `dist/ca-widget.js` (a classic script)
// and the popup chunk it imports when exit intent fires
// (`dist/chunks/popup-<hash>.js`). Fails when a gzipped size is over budget.
import { build } from "esbuild";
import { createHash } from "node:crypto";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { gzipSync } from "node:zlib";

const BUDGET_LOADER = 6 * 1024;
const BUDGET_TOTAL = 20 * 1024;

rmSync("dist", { recursive: true, force: true });
mkdirSync("dist/chunks", { recursive: true });

const common = {
  bundle: true,
  minify: true,
  target: "es2020",
  write: false,
  legalComments: "none",
};

const popup = await build({ ...common, entryPoints: ["src/popup.ts"], format: "esm" });
const popupCode = popup.outputFiles[0].contents;
const hash = createHash("sha256").update(popupCode).digest("hex").slice(0, 10);
const popupFile = `popup-${hash}.js`;
writeFileSync(`dist/chunks/${popupFile}`, popupCode);

const loader = await build({
  ...common,
  entryPoints: ["src/loader.ts"],
  format: "iife",
  define: { __POPUP_CHUNK__: JSON.stringify(`chunks/${popupFile}`) },
});
const loaderCode = loader.outputFiles[0].contents;
writeFileSync("dist/ca-widget.js", loaderCode);

const gz = (b) => gzipSync(b, { level: 9 }).length;
const sizes = { loader: gz(loaderCode), popup: gz(popupCode) };
const total = sizes.loader + sizes.popup;
console.log(
  `widget sizes (gzipped): ca-widget.js ${sizes.loader} B (budget ${BUDGET_LOADER}), ` +
    `${popupFile} ${sizes.popup} B, total ${total} B (budget ${BUDGET_TOTAL})`,
);
writeFileSync("dist/sizes.json", JSON.stringify({ ...sizes, total, popupFile }, null, 2));
if (sizes.loader > BUDGET_LOADER || total > BUDGET_TOTAL) {
  console.error("widget size budget exceeded");
  process.exit(1);
}
