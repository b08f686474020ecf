import { Alert, Anchor, Button, Group, PasswordInput, Stack, Text, TextInput } from "@mantine/core";
import { useState } from "react";
import type { FormEvent } from "react";
import { Link, useNavigate, useSearchParams } from "react-router";
import { useAuth } from "../../../lib/auth";
import { NEXT_PARAM, safeNext } from "../../../lib/return-to";
import { AuthLayout } from "../components/AuthLayout";
import { TwoFactorStep } from "../components/TwoFactorStep";

export function LoginPage() {
  const { login, verifyTwoFactor } = useAuth();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  // The page that sent the owner here (a path of this site only), else the dashboard.
  const next = safeNext(params.get(NEXT_PARAM));
  const [email, setEmail] = useState("");
  const [password, setPassword] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [submitting, setSubmitting] = useState(false);
  // With two-factor sign-in on, a right password opens a second step: a code from the app.
  const [challenge, setChallenge] = useState<string | null>(null);

  async function onSubmit(e: FormEvent) {
    e.preventDefault();
    setError(null);
    setSubmitting(true);
    try {
      const result = await login(email, password);
      if ("challengeToken" in result) {
        setChallenge(result.challengeToken);
        return;
      }
      navigate(next);
    } catch (err) {
      setError(err instanceof Error && err.message ? err.message : "Login failed");
    } finally {
      setSubmitting(false);
    }
  }

  if (challenge) {
    return (
      <TwoFactorStep
        verify={(code) => verifyTwoFactor(challenge, code)}
        onDone={() => navigate(next)}
        onRestart={() => {
          setChallenge(null);
          setPassword("");
        }}
      />
    );
  }

  return (
    <AuthLayout
      title="Welcome back"
      subtitle={
        <>
          Sign in to see your campaigns and leads. New here?{" "}
          <Anchor component={Link} to="/register" fz="sm">
            Create an account
          </Anchor>
        </>
      }
    >
      <form onSubmit={onSubmit} noValidate>
        <Stack>
          {error ? (
            <Alert color="red" role="alert" title="Sign-in failed">
              {error}
            </Alert>
          ) : null}
          <TextInput
            label="Email"
            type="email"
            autoComplete="email"
            value={email}
            onChange={(e) => setEmail(e.currentTarget.value)}
            required
          />
          <PasswordInput
            label="Password"
            autoComplete="current-password"
            value={password}
            onChange={(e) => setPassword(e.currentTarget.value)}
            required
          />
          <Group justify="flex-end">
            <Anchor component={Link} to="/forgot-password" fz="sm">
              Forgot password?
            </Anchor>
          </Group>
          <Button type="submit" loading={submitting} fullWidth>
            Sign in
          </Button>
          <Text fz="sm" ta="center" c="dimmed">
            Don't have an account?{" "}
            <Anchor component={Link} to="/register" fz="sm">
              Sign up
            </Anchor>
          </Text>
        </Stack>
      </form>
    </AuthLayout>
  );
}
