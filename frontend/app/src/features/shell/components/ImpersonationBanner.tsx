import { Alert, Button, Group, Text } from "@mantine/core";
import { IconArrowBackUp, IconEye } from "@tabler/icons-react";
import { useState } from "react";
import type { User } from "../../../lib/api-client";
import { useAuth, type ImpersonatedBy } from "../../../lib/auth";

/** The banner's sentence: whose account staff are viewing, and that what they do is recorded. */
export function impersonationText(user: Pick<User, "name" | "email">): string {
  return `Viewing as ${user.name} (${user.email}). Actions are recorded.`;
}

/** Shown on every page while a "login as user" session is in use, with the way back. */
export function ImpersonationBanner() {
  const { user, impersonatedBy, returnToAdmin } = useAuth();
  if (!user || !impersonatedBy) return null;
  return <Banner user={user} by={impersonatedBy} onReturn={returnToAdmin} />;
}

function Banner({
  user,
  by,
  onReturn,
}: {
  user: User;
  by: ImpersonatedBy;
  onReturn: () => Promise<void>;
}) {
  const [returning, setReturning] = useState(false);
  return (
    <Alert
      color="orange"
      variant="light"
      radius="md"
      mb="md"
      icon={<IconEye size={18} />}
      role="region"
      aria-label="Signed in as another user"
      data-testid="impersonation-banner"
    >
      <Group justify="space-between" gap="xs" wrap="wrap">
        <div style={{ minWidth: 0 }}>
          <Text fz="sm" fw={600} style={{ overflowWrap: "anywhere" }}>
            {impersonationText(user)}
          </Text>
          <Text fz="xs" c="dimmed" style={{ overflowWrap: "anywhere" }}>
            Signed in by {by.email}
          </Text>
        </div>
        <Button
          size="xs"
          variant="filled"
          leftSection={<IconArrowBackUp size={14} />}
          loading={returning}
          onClick={() => {
            setReturning(true);
            void onReturn();
          }}
        >
          Return to admin
        </Button>
      </Group>
    </Alert>
  );
}
