import { Alert, Anchor, Button, Stack, Text, TextInput, ThemeIcon } from "@mantine/core";
import { IconMailCheck } from "@tabler/icons-react";
import { useState } from "react";
import type { FormEvent } from "react";
import { Link } from "react-router";
import { requestPasswordReset } from "../api/password-reset";
import { AuthLayout } from "../components/AuthLayout";

export function ForgotPasswordPage() {
  const [email, setEmail] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [sent, setSent] = useState<string | null>(null);
  const [submitting, setSubmitting] = useState(false);

  async function onSubmit(e: FormEvent) {
    e.preventDefault();
    if (email.trim() === "") {
      setError("Email is required");
      return;
    }
    setError(null);
    setSubmitting(true);
    try {
      setSent(await requestPasswordReset(email.trim()));
    } catch (err) {
      setError(err instanceof Error ? err.message : "Failed to send reset email");
    } finally {
      setSubmitting(false);
    }
  }

  if (sent) {
    return (
      <AuthLayout title="Check your email">
        <Stack align="flex-start">
          <ThemeIcon size={48} radius="xl" color="teal" variant="light">
            <IconMailCheck size={28} />
          </ThemeIcon>
          <Text>{sent}</Text>
          <Text fz="sm" c="dimmed">
            We sent it to <b>{email.trim()}</b>. The link works once and expires in 1 hour. Check
            your spam folder if it doesn't arrive within a few minutes.
          </Text>
          <Button variant="light" onClick={() => setSent(null)} fullWidth>
            Send Another Email
          </Button>
          <Button component={Link} to="/login" variant="subtle" fullWidth>
            Back to Login
          </Button>
        </Stack>
      </AuthLayout>
    );
  }

  return (
    <AuthLayout
      title="Forgot your password?"
      subtitle="Enter your email and we'll send you a link to reset it."
    >
      <form onSubmit={onSubmit} noValidate>
        <Stack>
          {error ? (
            <Alert color="red" role="alert">
              {error}
            </Alert>
          ) : null}
          <TextInput
            label="Email"
            type="email"
            autoComplete="email"
            value={email}
            onChange={(e) => setEmail(e.currentTarget.value)}
          />
          <Button type="submit" loading={submitting} fullWidth>
            Send reset link
          </Button>
          <Anchor component={Link} to="/login" fz="sm" ta="center">
            Back to Login
          </Anchor>
        </Stack>
      </form>
    </AuthLayout>
  );
}
