import { Alert, Anchor, Button, Stack, Text, TextInput } from "@mantine/core";
import { useState } from "react";
import type { FormEvent } from "react";
import { AuthLayout } from "./AuthLayout";

/** Messages that mean this sign-in is over: the password has to be entered again. */
const SIGN_IN_AGAIN = /sign in again/i;

/**
 * The second step of signing in with two-factor sign-in on: the 6-digit code the authenticator
 * app shows, or one of the recovery codes (each works once).
 */
export function TwoFactorStep({
  verify,
  onDone,
  onRestart,
}: {
  verify(code: string): Promise<unknown>;
  onDone(): void;
  onRestart(): void;
}) {
  const [code, setCode] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [over, setOver] = useState(false);
  const [submitting, setSubmitting] = useState(false);

  async function onSubmit(e: FormEvent) {
    e.preventDefault();
    if (!code.trim()) {
      setError("Enter the code from your authenticator app");
      return;
    }
    setError(null);
    setSubmitting(true);
    try {
      await verify(code.trim());
      onDone();
    } catch (err) {
      const text = err instanceof Error && err.message ? err.message : "That code did not work";
      setError(text);
      if (SIGN_IN_AGAIN.test(text)) setOver(true);
    } finally {
      setSubmitting(false);
    }
  }

  return (
    <AuthLayout
      title="Enter your code"
      subtitle="Open your authenticator app and enter the 6-digit code it shows for ConvertAssist."
    >
      <form onSubmit={onSubmit} noValidate>
        <Stack>
          {error ? (
            <Alert color="red" role="alert" title="Sign-in failed">
              {error}
            </Alert>
          ) : null}
          <TextInput
            label="Authentication code"
            description="No phone? Enter one of your recovery codes instead."
            autoComplete="one-time-code"
            inputMode="text"
            autoFocus
            value={code}
            onChange={(e) => setCode(e.currentTarget.value)}
            disabled={over}
            required
          />
          {over ? (
            <Button onClick={onRestart} fullWidth>
              Sign in again
            </Button>
          ) : (
            <Button type="submit" loading={submitting} fullWidth>
              Verify and sign in
            </Button>
          )}
          <Text fz="sm" ta="center" c="dimmed">
            Wrong account?{" "}
            <Anchor component="button" type="button" fz="sm" onClick={onRestart}>
              Start over
            </Anchor>
          </Text>
        </Stack>
      </form>
    </AuthLayout>
  );
}
