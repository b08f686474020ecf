import { Alert, Stack, Switch, Text } from "@mantine/core";
import { useState } from "react";
import { useAuth } from "../../../lib/auth";
import { messageOf, type User } from "../../../lib/api-client";
import { useSaveAccount } from "../api/account";

type Toggle = "emailNotifications";

export function NotificationsTab({ user }: { user: User }) {
  const { refreshUser } = useAuth();
  const [error, setError] = useState<string | null>(null);
  const [saving, setSaving] = useState<Toggle | null>(null);
  const save = useSaveAccount();

  async function toggle(key: Toggle, value: boolean) {
    setSaving(key);
    setError(null);
    try {
      await save.mutateAsync({ body: { [key]: value } });
      await refreshUser();
    } catch (err) {
      setError(messageOf(err, "Failed to save your changes"));
    } finally {
      setSaving(null);
    }
  }

  return (
    <Stack maw={560} gap="lg">
      {error ? (
        <Alert color="red" role="alert">
          {error}
        </Alert>
      ) : null}
      <Switch
        label="E-mail notifications"
        description="New leads (at most one email every 10 minutes; more come together in a digest) and payment receipts."
        checked={user.emailNotifications}
        disabled={saving === "emailNotifications"}
        onChange={(e) => void toggle("emailNotifications", e.currentTarget.checked)}
      />
      <Text fz="xs" c="dimmed">
        Changes are saved as soon as you switch them.
      </Text>
    </Stack>
  );
}
