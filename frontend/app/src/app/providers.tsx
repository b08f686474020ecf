import { MantineProvider, createTheme } from "@mantine/core";
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import type { ReactNode } from "react";
import { AuthProvider } from "../lib/auth";
import { contrastResolver } from "./contrast";

export const theme = createTheme({
  primaryColor: "indigo",
  defaultRadius: "md",
  fontFamily:
    "Inter, system-ui, -apple-system, 'Segoe UI', Roboto, 'Helvetica Neue', Arial, sans-serif",
  // Plain objects, not `Modal.extend(...)`: `extend` only adds types, and referring to the
  // components here would put Modal, Drawer, ColorInput (and their popovers and scroll areas)
  // in the entry chunk that every page, the sign-in pages too, downloads first.
  components: {
    // Links are told apart by more than their colour.
    Anchor: { defaultProps: { underline: "always" } },
    // The show/hide toggle is reachable with Tab, and named.
    PasswordInput: {
      // A toggle button: its name stays, aria-pressed says whether the password shows. The name
      // leaves out "password" so the field alone answers to its label.
      defaultProps: {
        visibilityToggleButtonProps: { tabIndex: 0, "aria-label": "Show characters" },
      },
    },
    // Every dialog's close button has a name.
    Modal: { defaultProps: { closeButtonProps: { "aria-label": "Close" } } },
    Drawer: { defaultProps: { closeButtonProps: { "aria-label": "Close" } } },
    ColorInput: {
      defaultProps: { eyeDropperButtonProps: { "aria-label": "Pick a colour from the screen" } },
    },
  },
});

export function makeQueryClient() {
  return new QueryClient({
    defaultOptions: { queries: { retry: 1, refetchOnWindowFocus: false } },
  });
}

/** Mantine (light only), TanStack Query and the auth state. */
export function Providers({
  children,
  queryClient,
}: {
  children: ReactNode;
  queryClient: QueryClient;
}) {
  return (
    <MantineProvider theme={theme} forceColorScheme="light" cssVariablesResolver={contrastResolver}>
      <QueryClientProvider client={queryClient}>
        <AuthProvider>{children}</AuthProvider>
      </QueryClientProvider>
    </MantineProvider>
  );
}
