import { Alert, Stack, Switch, Text } from "@mantine/core";
import { useEffect, useState } from "react";
import { useAuth } from "../../../lib/auth";
import { messageOf, type User } from "../../../lib/api-client";
import { useSaveAccount } from "../api/account";
import { type PushState, pushError, readPushState, turnPushOff, turnPushOn } from "../api/push";

type Toggle = "emailNotifications";

/** Why the push switch cannot be used in this browser, in words. */
const PUSH_BLOCKED: Partial<Record<PushState, string>> = {
  unsupported:
    "This browser cannot show push notifications. Use a recent Chrome, Edge, Firefox or Safari (on an iPhone, add ConvertAssist to the Home Screen first).",
  denied:
    "Notifications are blocked for this site in your browser. Allow them in the site settings (the icon left of the address), then switch this on.",
};

export function NotificationsTab({ user }: { user: User }) {
  const { refreshUser } = useAuth();
  const [error, setError] = useState<string | null>(null);
  const [saving, setSaving] = useState<Toggle | null>(null);
  const save = useSaveAccount();
  const [push, setPush] = useState<PushState | "loading">("loading");
  const [pushBusy, setPushBusy] = useState(false);
  const [pushFailure, setPushFailure] = useState<string | null>(null);

  useEffect(() => {
    let live = true;
    readPushState()
      .then((state) => live && setPush(state))
      .catch((err) => {
        if (!live) return;
        setPush("off");
        setPushFailure(pushError(err));
      });
    return () => {
      live = false;
    };
  }, []);

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

  async function togglePush(on: boolean) {
    setPushBusy(true);
    setPushFailure(null);
    try {
      setPush(on ? await turnPushOn() : await turnPushOff());
    } catch (err) {
      setPushFailure(pushError(err));
      setPush(await readPushState().catch(() => "off" as const));
    } finally {
      setPushBusy(false);
    }
  }

  const blocked = push === "loading" ? undefined : PUSH_BLOCKED[push];

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
      <Stack gap={6}>
        <Switch
          label="Push notifications"
          description="In this browser: each new lead (several in a minute come together) and each successful payment. Clicking one opens the customer or the invoice."
          checked={push === "on"}
          disabled={push === "loading" || pushBusy || blocked !== undefined}
          onChange={(e) => void togglePush(e.currentTarget.checked)}
        />
        {blocked ? (
          <Alert color="yellow" data-testid="push-blocked">
            {blocked}
          </Alert>
        ) : null}
        {pushFailure ? (
          <Alert color="red" role="alert">
            {pushFailure}
          </Alert>
        ) : null}
      </Stack>
      <Text fz="xs" c="dimmed">
        Changes are saved as soon as you switch them. Push notifications are switched on for each
        browser separately.
      </Text>
    </Stack>
  );
}
