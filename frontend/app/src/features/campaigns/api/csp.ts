/**
 * The origin the widget is served from and talks to, read from the embed tag the server made
 * (its `data-api-url`, else its `src`): the origin of the server's public URL.
 */
export function widgetOrigin(script: string): string | null {
  const found =
    /data-api-url="([^"]+)"/.exec(script)?.[1] ?? /src="([^"]+)\/widget\//.exec(script)?.[1];
  if (!found) return null;
  try {
    const url = new URL(found);
    return url.protocol === "http:" || url.protocol === "https:" ? url.origin : null;
  } catch {
    return null;
  }
}

/**
 * The Content-Security-Policy directives a site with a CSP needs for the widget, as docs/widget.md
 * says: the server's origin in `script-src` (the loader and the popup it imports) and in
 * `connect-src` (configuration, events, chat, forms, purchases); nothing else.
 */
export function cspDirectives(origin: string): { directive: string; why: string }[] {
  return [
    { directive: `script-src 'self' ${origin}`, why: "the loader and the popup it imports" },
    {
      directive: `connect-src 'self' ${origin}`,
      why: "configuration, page views, chat, forms and purchases",
    },
  ];
}
