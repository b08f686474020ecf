import { Alert, Stack, Switch, Text } from "@mantine/core";
import { useState } from "react";
import { useAuth } from "../../../lib/auth";
import type { User } from "../../../lib/api-client";
import { saveAccount, type AccountChanges } from "../api/account";

export function NotificationsTab({ user }: { user: User }) {
  const { refreshUser } = useAuth();
  const [error, setError] = useState<string | null>(null);
  const [saving, setSaving] = useState<keyof AccountChanges | null>(null);

  async function toggle(key: "emailNotifications" | "pushNotifications", value: boolean) {
    setSaving(key);
    setError(null);
    try {
      await saveAccount({ [key]: value });
      await refreshUser();
    } catch (err) {
      setError(err instanceof Error ? err.message : "Failed to save your changes");
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
        description="New leads, payment receipts and account notices, sent to your email."
        checked={user.emailNotifications}
        disabled={saving === "emailNotifications"}
        onChange={(e) => void toggle("emailNotifications", e.currentTarget.checked)}
      />
      <Switch
        label="Push notifications"
        description="Browser notifications when a visitor converts."
        checked={user.pushNotifications}
        disabled={saving === "pushNotifications"}
        onChange={(e) => void toggle("pushNotifications", e.currentTarget.checked)}
      />
      <Text fz="xs" c="dimmed">
        Changes are saved as soon as you switch them.
      </Text>
    </Stack>
  );
}
