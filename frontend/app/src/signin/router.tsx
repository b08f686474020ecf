// What the sign-in pages use of React Router, for their own build (vite.signin.config.ts aliases
// "react-router" to this file there; the dashboard keeps the real router). Each sign-in page is
// its own HTML page, so a link or a navigation is an ordinary page load: to another sign-in
// page (its HTML and chunks are cached), to /home (static HTML) or to the dashboard.
import { forwardRef } from "react";
import type { AnchorHTMLAttributes } from "react";

export interface LinkProps extends AnchorHTMLAttributes<HTMLAnchorElement> {
  to: string;
  replace?: boolean;
}

export const Link = forwardRef<HTMLAnchorElement, LinkProps>(function Link(
  { to, replace, onClick, ...rest },
  ref,
) {
  return (
    <a
      ref={ref}
      href={to}
      onClick={(e) => {
        onClick?.(e);
        if (!replace || e.defaultPrevented || e.button !== 0) return;
        if (e.metaKey || e.altKey || e.ctrlKey || e.shiftKey) return;
        e.preventDefault();
        window.location.replace(to);
      }}
      {...rest}
    />
  );
});

function navigate(to: string, options?: { replace?: boolean }) {
  if (options?.replace) window.location.replace(to);
  else window.location.assign(to);
}

/** The same function on every render, as React Router's is in a data router. */
export function useNavigate() {
  return navigate;
}

/** The page's query string; the sign-in pages only read it. */
export function useSearchParams(): [URLSearchParams] {
  return [new URLSearchParams(window.location.search)];
}
