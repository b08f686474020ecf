import "@mantine/core/styles.css";
import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { RouterProvider } from "react-router";
import { Providers, makeQueryClient } from "./app/providers";
import { createRouter } from "./app/router";
import { rememberLightTheme } from "./lib/storage";

rememberLightTheme();
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
