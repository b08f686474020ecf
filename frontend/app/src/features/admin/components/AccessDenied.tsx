import { Badge, Button, Card, Center, Group, Stack, Text, ThemeIcon, Title } from "@mantine/core";
import { IconLock } from "@tabler/icons-react";
import { Link } from "react-router";

/** What anyone but an admin or a superuser sees on /admin/*. */
export function AccessDenied({ role }: { role: string }) {
  return (
    <Center mih="60vh" p="md">
      <Card withBorder radius="md" p="xl" maw={480} w="100%">
        <Stack align="center" gap="sm">
          <ThemeIcon color="red" variant="light" size={56} radius="xl">
            <IconLock size={30} />
          </ThemeIcon>
          <Title order={2}>Access Denied</Title>
          <Text ta="center">You don&apos;t have permission to access the admin dashboard.</Text>
          <Text ta="center" c="dimmed" fz="sm">
            Only administrators and superusers can access this area.
          </Text>
          <Group gap="xs">
            <Text fz="sm">Your role:</Text>
            <Badge variant="light" color="gray" data-testid="your-role">
              {role}
            </Badge>
          </Group>
          <Button component={Link} to="/dashboard" mt="sm">
            Back to Dashboard
          </Button>
        </Stack>
      </Card>
    </Center>
  );
}
