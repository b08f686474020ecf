import { expect, test } from "@playwright/test";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

// Strings every stagewise toolbar build carries (checked below against the
// installed package, so the search cannot pass by looking for the wrong thing).
const NEEDLES = [/stagewise/i, /ping\/stagewise/, /companion-anchor/, /triggerAgentPrompt/];

function files(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? files(join(dir, entry.name)) : [join(dir, entry.name)],
  );
}

function hits(paths: string[]): string[] {
  return paths.flatMap((path) => {
    const text = readFileSync(path, "latin1");
    return NEEDLES.filter((needle) => needle.test(text)).map((needle) => `${path}: ${needle}`);
  });
}

test("the production build contains no stagewise code", () => {
  const toolbar = dirname(fileURLToPath(import.meta.resolve("@stagewise/toolbar")));
  const fromPackage = hits(files(toolbar));
  for (const needle of NEEDLES) {
    expect(
      fromPackage.some((hit) => hit.endsWith(String(needle))),
      `${needle} in the toolbar`,
    ).toBe(true);
  }

  const dist = join(import.meta.dirname, "..", "dist");
  expect(existsSync(join(dist, "index.html")), "run `npm run build --workspace app` first").toBe(
    true,
  );
  const built = files(dist);
  expect(built.some((path) => path.endsWith(".js"))).toBe(true);
  expect(hits(built)).toEqual([]);
});
