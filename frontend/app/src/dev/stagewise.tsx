// The stagewise developer toolbar (docs/dev-overlay.md). Development only:
// main.tsx imports this module behind `import.meta.env.DEV`, so production builds
// contain none of it (a test over dist/ checks that).
import { ReactPlugin } from "@stagewise-plugins/react";
import { StagewiseToolbar } from "@stagewise/toolbar-react";
import { createRoot } from "react-dom/client";

/** The element the toolbar mounts itself into (one per page). */
export const STAGEWISE_ANCHOR = "stagewise-companion-anchor";

const config = { plugins: [ReactPlugin] };

/**
 * Mounts the toolbar once. It lives in its own React root, outside the app's
 * StrictMode and router, so the app's renders never touch it and an error in
 * the toolbar cannot unmount the dashboard. The React plugin still reads the
 * app's components from the DOM elements the developer picks.
 */
export function mountStagewiseToolbar(): void {
  if (document.querySelector(STAGEWISE_ANCHOR)) return;
  createRoot(document.createElement("div")).render(<StagewiseToolbar enabled config={config} />);
}
