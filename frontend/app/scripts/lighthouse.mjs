// Runs Lighthouse against one page of a running server in headless Chromium and prints the
// four category scores. Fails when performance or accessibility is under 95.
//
//   npm run lighthouse --workspace app [-- URL] [--desktop] [--json FILE]
//
// URL defaults to http://127.0.0.1:18090/home. Lighthouse's default is a mobile run (Moto G
// power emulation, slow 4G, 4x CPU slowdown); --desktop uses its desktop preset instead.
// CHROME_PATH picks the browser (default: Debian's /usr/bin/chromium when present).
import { existsSync, writeFileSync } from "node:fs";
import * as chromeLauncher from "chrome-launcher";
import lighthouse from "lighthouse";
import desktopConfig from "lighthouse/core/config/desktop-config.js";

const MIN_SCORE = 95;
const GATED = ["performance", "accessibility"];
const CATEGORIES = ["performance", "accessibility", "best-practices", "seo"];

const args = process.argv.slice(2);
const desktop = args.includes("--desktop");
const jsonIdx = args.indexOf("--json");
const jsonOut = jsonIdx >= 0 ? args[jsonIdx + 1] : null;
const url =
  args.find((a, i) => !a.startsWith("--") && (jsonIdx < 0 || i !== jsonIdx + 1)) ??
  "http://127.0.0.1:18090/home";

const chromePath =
  process.env.CHROME_PATH || (existsSync("/usr/bin/chromium") ? "/usr/bin/chromium" : undefined);

const chrome = await chromeLauncher.launch({
  chromePath,
  chromeFlags: ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"],
});
let result;
try {
  result = await lighthouse(
    url,
    { port: chrome.port, output: "json", logLevel: "error", onlyCategories: CATEGORIES },
    desktop ? desktopConfig : undefined,
  );
} finally {
  await chrome.kill();
}
if (!result) {
  console.error("lighthouse: no result");
  process.exit(1);
}
const { lhr } = result;
if (jsonOut) writeFileSync(jsonOut, result.report);
if (lhr.runtimeError) {
  console.error(`lighthouse: ${lhr.runtimeError.code}: ${lhr.runtimeError.message}`);
  process.exit(1);
}

console.log(`lighthouse ${lhr.lighthouseVersion}, ${desktop ? "desktop" : "mobile"}: ${url}`);
let failed = false;
for (const id of CATEGORIES) {
  const score = Math.round((lhr.categories[id]?.score ?? 0) * 100);
  const gated = GATED.includes(id);
  const bad = gated && score < MIN_SCORE;
  failed ||= bad;
  console.log(
    `  ${id.padEnd(15)} ${String(score).padStart(3)}${gated ? `  (min ${MIN_SCORE})` : ""}${bad ? "  FAIL" : ""}`,
  );
}
const metrics = ["first-contentful-paint", "largest-contentful-paint", "total-blocking-time"];
const cls = lhr.audits["cumulative-layout-shift"];
console.log(
  "  " +
    metrics.map((m) => `${lhr.audits[m].title}: ${lhr.audits[m].displayValue}`).join(", ") +
    `, ${cls.title}: ${cls.displayValue}`,
);
// What cost points, so a failure says what to fix.
for (const id of CATEGORIES) {
  const cat = lhr.categories[id];
  const misses = cat.auditRefs
    .map((ref) => lhr.audits[ref.id])
    .filter((a) => a.score !== null && a.score < 0.9 && a.scoreDisplayMode !== "informative")
    .filter((a) => a.scoreDisplayMode !== "notApplicable" && a.scoreDisplayMode !== "manual");
  for (const a of misses) {
    console.log(`  - ${id}: ${a.title}${a.displayValue ? ` (${a.displayValue})` : ""}`);
  }
}
if (failed) {
  console.error(`lighthouse: performance and accessibility must each be at least ${MIN_SCORE}`);
  process.exit(1);
}
