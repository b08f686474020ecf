import { Button, Center, Stack, Text, Title } from "@mantine/core";
import { Link } from "react-router";

/** A real not-found page with a way back. */
export function NotFound({ home = "/" }: { home?: string }) {
  return (
    <Center mih="60vh" p="xl">
      <Stack align="center" gap="sm">
        <Text fz={64} fw={800} c="indigo.6" lh={1}>
          404
        </Text>
        <Title order={2}>Page not found</Title>
        <Text c="dimmed" ta="center" maw={420}>
          The page you were looking for doesn't exist or has moved.
        </Text>
        <Button component={Link} to={home} mt="sm">
          Go back home
        </Button>
      </Stack>
    </Center>
  );
}
