// Starts one sign-in page in its own small build (vite.signin.config.ts): the same page
// component the dashboard's router shows, on Preact's React compatibility layer instead of
// React, inside the dashboard's providers (its theme, the query client the auth state uses, the
// auth state) but without React Router: src/signin/router.tsx stands in for it.
import "@mantine/core/styles.css";
import { MantineProvider } from "@mantine/core";
import { QueryClientProvider } from "@tanstack/react-query";
import type { ComponentType } from "react";
import { createRoot } from "react-dom/client";
import { contrastResolver } from "../app/contrast";
import { makeQueryClient, theme } from "../app/providers";
import { AuthProvider } from "../lib/auth";
import { keepMetaClickCookies } from "../lib/meta-cookies";
import { rememberLightTheme } from "../lib/storage";

export function mountSignInPage(Page: ComponentType) {
  rememberLightTheme();
  void keepMetaClickCookies();
  const root = document.getElementById("root");
  if (!root) return;
  createRoot(root).render(
    <MantineProvider theme={theme} forceColorScheme="light" cssVariablesResolver={contrastResolver}>
      <QueryClientProvider client={makeQueryClient()}>
        <AuthProvider>
          <Page />
        </AuthProvider>
      </QueryClientProvider>
    </MantineProvider>,
  );
}
