import "@mantine/core/styles.css";
import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { RouterProvider } from "react-router";
import { Providers, makeQueryClient } from "./app/providers";
import { createRouter } from "./app/router";
import { keepMetaClickCookies } from "./lib/meta-cookies";
import { rememberLightTheme } from "./lib/storage";

rememberLightTheme();
void keepMetaClickCookies();
const root = document.getElementById("root");
if (root) {
  createRoot(root).render(
    <StrictMode>
      <Providers queryClient={makeQueryClient()}>
        <RouterProvider router={createRouter()} />
      </Providers>
    </StrictMode>,
  );
}

// The stagewise developer toolbar, under the Vite dev server only. Vite replaces
// `import.meta.env.DEV` with `false` in `vite build`, which drops this branch and
// the chunk it would load. VITE_STAGEWISE_TOOLBAR=off turns it off in development.
if (import.meta.env.DEV && import.meta.env.VITE_STAGEWISE_TOOLBAR !== "off") {
  void import("./dev/stagewise").then((dev) => dev.mountStagewiseToolbar());
}
