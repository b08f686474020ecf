import { createReadStream, existsSync, readFileSync, statSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { createRequire } from "node:module";
import { dirname, extname, join, normalize, resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";

/**
 * The test sites: real public templates installed from the npm registry (devDependencies of the
 * widget workspace), served as they are from node_modules by a tiny static server on 127.0.0.1,
 * with the widget's script tag added before `</body>`. Their CDN links are pointed at the copies
 * in node_modules (Bootstrap's bundle) or at empty stand-ins (web fonts, icon fonts, plugins the
 * tests do not need), so nothing leaves the machine.
 */

const here = dirname(fileURLToPath(import.meta.url));
const require = createRequire(import.meta.url);

/** A package's directory in node_modules. */
function pkg(name: string): string {
  return dirname(require.resolve(`${name}/package.json`));
}

/** A dependency of a package, as npm installed it for that package. */
function pkgOf(parent: string, name: string): string {
  const nested = join(parent, "node_modules", name);
  return existsSync(nested) ? nested : pkg(name);
}

export interface SitePage {
  /** Short name, also the URL's first path segment. */
  name: string;
  /** What it is, for test titles and the report. */
  title: string;
  /** Directory whose files are served under `/<name>/`. */
  root: string;
  /** The HTML file inside `root` (or an absolute path). */
  html: string;
  /** Extra directories served under `/<name>/<prefix>/`. */
  mounts?: Record<string, string>;
  /** Changes made to the template's HTML (besides the widget tag and the CDN links). */
  edit?: (html: string) => string;
  /** Response headers of the page (`api`: the ConvertAssist server's origin). */
  headers?: (api: string) => Record<string, string>;
}

/**
 * The Content-Security-Policy a strict site sends, allowing only what docs/widget.md
 * lists: the ConvertAssist server's origin in script-src and connect-src, no 'unsafe-inline'.
 */
export function strictCsp(api: string): string {
  const origin = new URL(api).origin;
  return `default-src 'self'; script-src 'self' ${origin}; connect-src 'self' ${origin}`;
}

const creative = pkg("startbootstrap-creative");
const agency = pkg("startbootstrap-agency");
const h5bp = pkg("html5-boilerplate");

const ARTICLE = Array.from(
  { length: 14 },
  (_, i) =>
    `<h2>Handloom journal, part ${i + 1}</h2><p>Every Kesar saree is woven on a pit loom in Jaipur. ` +
    `A six-yard silk takes a weaver eleven days; the zari is real silver, and the border is tied by hand. ` +
    `We ship across India in three to five days, free above ₹999, with cash on delivery up to ₹10,000.</p>`,
).join("\n");

export const PAGES: SitePage[] = [
  {
    name: "creative",
    title: "Start Bootstrap Creative (startbootstrap-creative)",
    root: join(creative, "dist"),
    html: "index.html",
    mounts: { vendor: join(pkgOf(creative, "bootstrap"), "dist") },
  },
  {
    name: "agency",
    title: "Start Bootstrap Agency with body { transform: translateZ(0) } (startbootstrap-agency)",
    root: join(agency, "dist"),
    html: "index.html",
    mounts: { vendor: join(pkgOf(agency, "bootstrap"), "dist") },
    // What a smooth-scrolling or animation library leaves on <body> (as in the report).
    edit: (html) =>
      html.replace("</head>", "<style>body { transform: translateZ(0); }</style>\n</head>"),
  },
  {
    name: "h5bp",
    title: "HTML5 Boilerplate (html5-boilerplate) with an article",
    root: join(h5bp, "dist"),
    html: "index.html",
    edit: (html) =>
      html
        .replace("<title></title>", "<title>Kesar journal</title>")
        .replace("<p>Hello world! This is HTML5 Boilerplate.</p>", `<main>${ARTICLE}</main>`),
  },
  {
    name: "bootstrap",
    title: "Bootstrap 5 product page (bootstrap dist CSS and JS)",
    root: join(here, "..", "pages"),
    html: "bootstrap.html",
    mounts: { vendor: join(pkg("bootstrap"), "dist") },
  },
  {
    name: "tabler",
    title: "Tabler dashboard (@tabler/core dist CSS and JS)",
    root: join(here, "..", "pages"),
    html: "tabler.html",
    mounts: { vendor: join(pkg("@tabler/core"), "dist") },
  },
  {
    name: "hostile",
    title: "Hostile page",
    root: join(here, "..", "pages"),
    html: "hostile.html",
  },
  {
    name: "csp",
    title: "Strict Content-Security-Policy (default-src 'self', no 'unsafe-inline')",
    root: join(here, "..", "pages"),
    html: "csp.html",
    headers: (api) => ({ "content-security-policy": strictCsp(api) }),
  },
  {
    name: "rtl",
    title: 'Right-to-left page (<html dir="rtl" lang="ar">)',
    root: join(here, "..", "pages"),
    html: "rtl.html",
  },
];

/** The gesture corpus's page (gestures.spec.ts): a long article with in-page links. */
export const ARTICLE_PAGE: SitePage = {
  name: "article",
  title: "A long article (the gesture corpus's page)",
  root: join(here, "..", "pages"),
  html: "article.html",
};

const TYPES: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".mjs": "text/javascript; charset=utf-8",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".jpg": "image/jpeg",
  ".jpeg": "image/jpeg",
  ".gif": "image/gif",
  ".webp": "image/webp",
  ".ico": "image/x-icon",
  ".woff": "font/woff",
  ".woff2": "font/woff2",
  ".json": "application/json",
  ".webmanifest": "application/manifest+json",
};

/** CDN links in the templates, pointed at local copies or removed. */
function localise(html: string): string {
  return (
    html
      // Bootstrap's bundle from jsDelivr: the copy the template's package installed.
      .replace(/https:\/\/cdn\.jsdelivr\.net\/npm\/bootstrap@[\d.]+\/dist\//g, "vendor/")
      // Plugins, web fonts and icon fonts: not needed for the journeys.
      .replace(/<link[^>]+href="https:\/\/[^"]+"[^>]*>/g, "")
      .replace(/<script[^>]+src="https:\/\/[^"]+"[^>]*><\/script>/g, "")
      // The Creative template calls SimpleLightbox from the removed plugin.
      .replace(
        '<script src="js/scripts.js">',
        '<script>window.SimpleLightbox = function () {};</script><script src="js/scripts.js">',
      )
  );
}

export function widgetTag(api: string, campaignId: string): string {
  const id = campaignId.replace(/[^A-Za-z0-9_-]/g, "");
  return `<script src="${api}/widget/ca-widget.js" data-campaign-id="${id}" data-api-url="${api}" async defer></script>`;
}

/** The page's HTML as the site serves it for `campaignId` (empty: without the widget). */
export function pageHtml(page: SitePage, api: string, campaignId: string): string {
  const file = resolve(page.root, page.html);
  let html = localise(readFileSync(file, "utf8"));
  if (page.edit) html = page.edit(html);
  // E2E_HOSTILE=layout-only: the hostile page without its replaced built-ins and the rules that
  // hide the widget's element, so an older widget build that cannot survive those still shows
  // its popup there (to compare its transform and scroll behaviour).
  if (page.name === "hostile" && process.env.E2E_HOSTILE === "layout-only")
    html = html
      .replace(/<script>\s*\/\/ What old libraries[\s\S]*?<\/script>/, "")
      .replace(/\[class\*="widget"\],[\s\S]*?z-index: -1 !important;\s*}/, "");
  const tag = campaignId ? widgetTag(api, campaignId) : "";
  const at = html.lastIndexOf("</body>");
  return at < 0 ? html + tag : html.slice(0, at) + tag + "\n" + html.slice(at);
}

export interface Sites {
  /** http://localhost:<port>: the origin campaigns name as their website. */
  origin: string;
  url: (page: SitePage, campaignId: string, query?: string) => string;
  close: () => Promise<void>;
}

/** Serves every page on 127.0.0.1 (reached as localhost). `api` is the ConvertAssist server. */
export async function startSites(api: string): Promise<Sites> {
  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://localhost");
    const [, name = "", ...rest] = url.pathname.split("/");
    const page = [...PAGES, ARTICLE_PAGE].find((p) => p.name === name);
    if (!page) {
      res.writeHead(404).end("not found");
      return;
    }
    const path = decodeURIComponent(rest.join("/"));
    if (path === "" || path === "index.html") {
      const campaign = url.searchParams.get("c") ?? "";
      res.writeHead(200, {
        "content-type": TYPES[".html"],
        "cache-control": "no-store",
        ...page.headers?.(api),
      });
      res.end(pageHtml(page, api, campaign));
      return;
    }
    let root = page.root;
    let inner = path;
    for (const [prefix, dir] of Object.entries(page.mounts ?? {})) {
      if (path.startsWith(`${prefix}/`)) {
        root = dir;
        inner = path.slice(prefix.length + 1);
      }
    }
    const file = normalize(join(root, inner));
    if (!file.startsWith(normalize(root) + sep) || !existsSync(file) || !statSync(file).isFile()) {
      res.writeHead(404).end("not found");
      return;
    }
    res.writeHead(200, {
      "content-type": TYPES[extname(file).toLowerCase()] ?? "application/octet-stream",
      "cache-control": "max-age=3600",
    });
    createReadStream(file).pipe(res);
  });
  await new Promise<void>((ok) => server.listen(0, "127.0.0.1", ok));
  const origin = `http://localhost:${(server.address() as AddressInfo).port}`;
  return {
    origin,
    url: (page, campaignId, query = "") =>
      `${origin}/${page.name}/?c=${encodeURIComponent(campaignId)}${query}`,
    close: () =>
      new Promise<void>((ok) => {
        server.closeAllConnections();
        server.close(() => ok());
      }),
  };
}
