import { Alert, Button, Divider, PasswordInput, Stack, Text, Title } from "@mantine/core";
import { useState } from "react";
import type { FormEvent } from "react";
import { Link, useNavigate } from "react-router";
import { isStaff, useAuth } from "../../../lib/auth";
import { messageOf } from "../../../lib/api-client";
import { errorCode, fieldErrors } from "../../../lib/errors";
import { useChangePassword, useLogoutEverywhere } from "../api/account";

export function SecurityTab() {
  const { user, twoFactor, setSession, logout } = useAuth();
  const navigate = useNavigate();
  const [current, setCurrent] = useState("");
  const [next, setNext] = useState("");
  const [confirm, setConfirm] = useState("");
  const [status, setStatus] = useState<{ ok: boolean; text: string } | null>(null);
  // A message about one field shows under that field.
  const [errors, setErrors] = useState<{ current?: string; next?: string; confirm?: string }>({});
  const change = useChangePassword();
  const signOut = useLogoutEverywhere();

  async function onSubmit(e: FormEvent) {
    e.preventDefault();
    setStatus(null);
    const problems = {
      current: current ? undefined : "Enter your current password",
      next: !next
        ? "Enter a new password"
        : next.length < 6
          ? "Password must be at least 6 characters long"
          : undefined,
      confirm: !confirm
        ? "Enter the new password again"
        : next && confirm !== next
          ? "Passwords do not match"
          : undefined,
    };
    setErrors(problems);
    if (problems.current || problems.next || problems.confirm) return;
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
      const text = messageOf(err, "Failed to change your password");
      const byField = fieldErrors(err);
      if (errorCode(err) === "wrong_password") setErrors({ current: text });
      else if (byField.newPassword) setErrors({ next: byField.newPassword });
      else setStatus({ ok: false, text });
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
            error={errors.current}
            onChange={(e) => {
              setCurrent(e.currentTarget.value);
              setErrors((prev) => ({ ...prev, current: undefined }));
            }}
          />
          <PasswordInput
            label="New password"
            autoComplete="new-password"
            description="At least 6 characters"
            value={next}
            error={errors.next}
            onChange={(e) => {
              setNext(e.currentTarget.value);
              setErrors((prev) => ({ ...prev, next: undefined }));
            }}
          />
          <PasswordInput
            label="Confirm new password"
            autoComplete="new-password"
            value={confirm}
            error={errors.confirm}
            onChange={(e) => {
              setConfirm(e.currentTarget.value);
              setErrors((prev) => ({ ...prev, confirm: undefined }));
            }}
          />
          <Button type="submit" loading={change.isPending} w="fit-content">
            Change password
          </Button>
        </Stack>
      </form>
      {isStaff(user) ? (
        <>
          <Divider my="md" />
          <Title order={3} fz="h4">
            Two-factor sign-in
          </Title>
          <Text fz="sm" c="dimmed">
            {twoFactor?.enabled
              ? "On: signing in takes your password and a code from your authenticator app."
              : "Off. Staff accounts must turn it on: signing in then also takes a code from an authenticator app."}
          </Text>
          <Button
            component={Link}
            to="/account/two-factor"
            variant={twoFactor?.enabled ? "light" : "filled"}
            w="fit-content"
          >
            {twoFactor?.enabled ? "Manage two-factor sign-in" : "Set up two-factor sign-in"}
          </Button>
        </>
      ) : null}
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
