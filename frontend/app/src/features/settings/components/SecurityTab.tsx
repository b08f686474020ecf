import { Alert, Button, Divider, PasswordInput, Stack, Text, Title } from "@mantine/core";
import { useState } from "react";
import type { FormEvent } from "react";
import { useNavigate } from "react-router";
import { useAuth } from "../../../lib/auth";
import { messageOf } from "../../../lib/api-client";
import { useChangePassword, useLogoutEverywhere } from "../api/account";

export function SecurityTab() {
  const { setSession, logout } = useAuth();
  const navigate = useNavigate();
  const [current, setCurrent] = useState("");
  const [next, setNext] = useState("");
  const [confirm, setConfirm] = useState("");
  const [status, setStatus] = useState<{ ok: boolean; text: string } | null>(null);
  const change = useChangePassword();
  const signOut = useLogoutEverywhere();

  async function onSubmit(e: FormEvent) {
    e.preventDefault();
    if (!current || !next || !confirm) {
      setStatus({ ok: false, text: "All password fields are required" });
      return;
    }
    if (next !== confirm) {
      setStatus({ ok: false, text: "Passwords do not match" });
      return;
    }
    if (next.length < 6) {
      setStatus({ ok: false, text: "Password must be at least 6 characters long" });
      return;
    }
    setStatus(null);
    try {
      const changed = await change.mutateAsync({
        body: { currentPassword: current, newPassword: next },
      });
      setSession(changed.token);
      setCurrent("");
      setNext("");
      setConfirm("");
      setStatus({ ok: true, text: "Password changed. Other devices have been signed out." });
    } catch (err) {
      setStatus({ ok: false, text: messageOf(err, "Failed to change your password") });
    }
  }

  async function signOutEverywhere() {
    try {
      await signOut.mutateAsync({});
      logout();
      navigate("/login");
    } catch (err) {
      setStatus({ ok: false, text: messageOf(err, "Failed to sign out of all devices") });
    }
  }

  return (
    <Stack maw={480}>
      <Title order={3} fz="h4">
        Change password
      </Title>
      <form onSubmit={onSubmit} noValidate>
        <Stack>
          {status ? (
            <Alert color={status.ok ? "teal" : "red"} role={status.ok ? "status" : "alert"}>
              {status.text}
            </Alert>
          ) : null}
          <PasswordInput
            label="Current password"
            autoComplete="current-password"
            value={current}
            onChange={(e) => setCurrent(e.currentTarget.value)}
          />
          <PasswordInput
            label="New password"
            autoComplete="new-password"
            description="At least 6 characters"
            value={next}
            onChange={(e) => setNext(e.currentTarget.value)}
          />
          <PasswordInput
            label="Confirm new password"
            autoComplete="new-password"
            value={confirm}
            onChange={(e) => setConfirm(e.currentTarget.value)}
          />
          <Button type="submit" loading={change.isPending} w="fit-content">
            Change password
          </Button>
        </Stack>
      </form>
      <Divider my="md" />
      <Title order={3} fz="h4">
        Sessions
      </Title>
      <Text fz="sm" c="dimmed">
        Signs you out on every device and browser, including this one.
      </Text>
      <Button
        variant="light"
        color="red"
        loading={signOut.isPending}
        onClick={() => void signOutEverywhere()}
        w="fit-content"
      >
        Sign out of all devices
      </Button>
    </Stack>
  );
}
