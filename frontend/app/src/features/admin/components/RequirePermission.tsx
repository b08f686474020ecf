import { Alert, Button, Center, Group, Loader, Stack } from "@mantine/core";
import { IconInfoCircle } from "@tabler/icons-react";
import type { ReactNode } from "react";
import { Link } from "react-router";
import { usePermissions, type Permission } from "../api/permissions";

/**
 * A screen only some roles may use: the others see why, and a way back, instead of a form that
 * would fail when submitted. The server refuses the calls either way.
 */
export function RequirePermission({
  action,
  refusal,
  back,
  children,
}: {
  action: Permission;
  /** What the signed-in role is told when it may not use the screen. */
  refusal: string;
  back: { to: string; label: string };
  children: ReactNode;
}) {
  const allowed = usePermissions();
  if (!allowed.loaded) {
    return (
      <Center mih="40vh" role="status" aria-label="Loading">
        <Loader />
      </Center>
    );
  }
  if (!allowed.can(action)) {
    return (
      <Stack gap="md" maw={560}>
        <Alert color="blue" variant="light" icon={<IconInfoCircle size={18} />}>
          {refusal}
        </Alert>
        <Group>
          <Button variant="default" component={Link} to={back.to}>
            {back.label}
          </Button>
        </Group>
      </Stack>
    );
  }
  return children;
}
