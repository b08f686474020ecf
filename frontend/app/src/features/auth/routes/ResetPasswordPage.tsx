import { Alert, Anchor, Button, PasswordInput, Stack, Text, ThemeIcon } from "@mantine/core";
import { IconCircleCheck } from "@tabler/icons-react";
import { useEffect, useState } from "react";
import type { FormEvent } from "react";
import { Link, useNavigate, useSearchParams } from "react-router";
import { useAuth } from "../../../lib/auth";
import { resetFormError, resetPassword } from "../api/password-reset";
import { AuthLayout } from "../components/AuthLayout";

/**
 * After a successful reset the owner is signed in; the success view shows this long before
 * the dashboard opens.
 */
const REDIRECT_MS = 2000;

export function ResetPasswordPage() {
  const [params] = useSearchParams();
  const token = params.get("token") ?? "";
  const { setSession } = useAuth();
  const navigate = useNavigate();
  const [password, setPassword] = useState("");
  const [confirm, setConfirm] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState(false);
  // Two-factor sign-in is on: the reset does not sign in; this says to sign in with a code.
  const [signInWithCode, setSignInWithCode] = useState<string | null>(null);
  const [submitting, setSubmitting] = useState(false);

  useEffect(() => {
    if (!done) return;
    const timer = window.setTimeout(() => navigate("/dashboard"), REDIRECT_MS);
    return () => window.clearTimeout(timer);
  }, [done, navigate]);

  if (!token) {
    return (
      <AuthLayout title="Reset your password">
        <Stack>
          <Alert color="red" role="alert">
            Invalid reset link. Please request a new password reset.
          </Alert>
          <Button component={Link} to="/forgot-password" fullWidth>
            Request a new link
          </Button>
        </Stack>
      </AuthLayout>
    );
  }

  if (done) {
    return (
      <AuthLayout title="Password reset">
        <Stack align="flex-start">
          <ThemeIcon size={48} radius="xl" color="teal" variant="light">
            <IconCircleCheck size={28} />
          </ThemeIcon>
          <Text>Your password has been reset and you are now logged in.</Text>
          <Text fz="sm" c="dimmed">
            Taking you to your dashboard in 2 seconds…
          </Text>
          <Button onClick={() => navigate("/dashboard")} fullWidth>
            Go to Dashboard
          </Button>
        </Stack>
      </AuthLayout>
    );
  }

  if (signInWithCode) {
    return (
      <AuthLayout title="Password reset">
        <Stack align="flex-start">
          <ThemeIcon size={48} radius="xl" color="teal" variant="light">
            <IconCircleCheck size={28} />
          </ThemeIcon>
          <Text>{signInWithCode}</Text>
          <Button component={Link} to="/login" fullWidth>
            Sign in
          </Button>
        </Stack>
      </AuthLayout>
    );
  }

  async function onSubmit(e: FormEvent) {
    e.preventDefault();
    const problem = resetFormError(token, password, confirm);
    if (problem) {
      setError(problem);
      return;
    }
    setError(null);
    setSubmitting(true);
    try {
      const session = await resetPassword(token, password);
      if ("signInWithCode" in session) {
        setSignInWithCode(session.signInWithCode);
        return;
      }
      setSession(session.token, session.user);
      setDone(true);
    } catch (err) {
      setError(err instanceof Error ? err.message : "Failed to reset password");
    } finally {
      setSubmitting(false);
    }
  }

  return (
    <AuthLayout title="Reset your password" subtitle="Choose a new password for your account.">
      <form onSubmit={onSubmit} noValidate>
        <Stack>
          {error ? (
            <Alert color="red" role="alert">
              {error}
            </Alert>
          ) : null}
          <PasswordInput
            label="New password"
            autoComplete="new-password"
            description="At least 6 characters"
            value={password}
            onChange={(e) => setPassword(e.currentTarget.value)}
          />
          <PasswordInput
            label="Confirm new password"
            autoComplete="new-password"
            value={confirm}
            onChange={(e) => setConfirm(e.currentTarget.value)}
          />
          <Button type="submit" loading={submitting} fullWidth>
            Reset password
          </Button>
          <Anchor component={Link} to="/login" fz="sm" ta="center">
            Back to Login
          </Anchor>
        </Stack>
      </form>
    </AuthLayout>
  );
}
