import { Button, Center, Loader, Stack, Text, Title } from "@mantine/core";
import { useRouteError } from "react-router";

/** Shown while the session check runs, and while the first page's code loads. */
export function FullPageLoader() {
  return (
    <Center h="100vh" role="status" aria-label="Loading">
      <Loader />
    </Center>
  );
}

/**
 * Whether `error` is a page's code that could not be fetched: the network dropped, or a
 * deploy replaced the chunk this tab still asks for. Browsers word it differently.
 */
export function isChunkLoadError(error: unknown): boolean {
  const message = error instanceof Error ? error.message : String(error ?? "");
  return /dynamically imported module|Importing a module script failed|Unable to preload CSS|error loading dynamically imported module/i.test(
    message,
  );
}

/**
 * The router's error boundary. A page that could not be downloaded gets a reload button
 * (which fetches the current version); anything else gets a plain apology and the same way out.
 */
export function LoadFailed() {
  const error = useRouteError();
  const chunk = isChunkLoadError(error);
  if (!chunk) console.error(error);
  return (
    <Center mih="100vh" p="xl">
      <Stack align="center" gap="sm" maw={460} ta="center" role="alert">
        <Title order={1} fz="h2">
          {chunk ? "This page could not be loaded" : "Something went wrong"}
        </Title>
        <Text c="dimmed">
          {chunk
            ? "ConvertAssist may have been updated since you opened it, or the connection dropped. Reload to get the latest version."
            : "An unexpected error stopped this page. Reloading usually fixes it; if it keeps happening, let us know."}
        </Text>
        <Button mt="sm" onClick={() => window.location.reload()}>
          Reload
        </Button>
      </Stack>
    </Center>
  );
}
