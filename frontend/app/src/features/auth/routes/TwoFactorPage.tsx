import {
  Alert,
  Anchor,
  Box,
  Button,
  Code,
  Container,
  Group,
  Image,
  List,
  Paper,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
  Title,
} from "@mantine/core";
import { useState } from "react";
import type { FormEvent } from "react";
import { Link, useNavigate } from "react-router";
import { CopyButton } from "../../../components/CopyButton";
import { Logo } from "../../../components/Logo";
import { READABLE_TEXT } from "../../../components/a11y";
import { useAuth } from "../../../lib/auth";
import {
  disableTwoFactor,
  enableTwoFactor,
  groupedSecret,
  qrImageSource,
  startTwoFactorSetup,
  type TwoFactorSetup,
} from "../api/two-factor";

const dateFormat = new Intl.DateTimeFormat("en-IN", { dateStyle: "medium" });

/**
 * Two-factor sign-in: set it up (scan the QR code or type the secret into an authenticator app,
 * keep the ten recovery codes, enter a code to turn it on) or turn it off. Staff past their grace
 * period land here and can reach nothing else until it is on.
 */
export function TwoFactorPage() {
  const { user, twoFactor, setSession, refreshUser, logout } = useAuth();
  const navigate = useNavigate();
  const [setup, setSetup] = useState<TwoFactorSetup | null>(null);
  const [code, setCode] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const enabled = twoFactor?.enabled ?? false;
  const requiredFrom = twoFactor?.requiredFrom ? new Date(twoFactor.requiredFrom) : null;

  async function begin() {
    setError(null);
    setNotice(null);
    setBusy(true);
    try {
      setSetup(await startTwoFactorSetup());
      setCode("");
    } catch (err) {
      setError(err instanceof Error ? err.message : "Could not start the set-up");
    } finally {
      setBusy(false);
    }
  }

  async function turnOn(e: FormEvent) {
    e.preventDefault();
    if (!/^\d{6}$/.test(code.trim())) {
      setError("Enter the 6-digit code your app shows");
      return;
    }
    setError(null);
    setBusy(true);
    try {
      const token = await enableTwoFactor(code.trim());
      setSession(token);
      await refreshUser();
      setSetup(null);
      setCode("");
      setNotice("Two-factor sign-in is on. Other devices have been signed out.");
    } catch (err) {
      setError(err instanceof Error ? err.message : "That code did not work");
    } finally {
      setBusy(false);
    }
  }

  async function turnOff(e: FormEvent) {
    e.preventDefault();
    if (!code.trim()) {
      setError("Enter a code from your app or a recovery code");
      return;
    }
    setError(null);
    setBusy(true);
    try {
      await disableTwoFactor(code.trim());
      await refreshUser();
      setCode("");
      setNotice("Two-factor sign-in is off.");
    } catch (err) {
      setError(err instanceof Error ? err.message : "That code did not work");
    } finally {
      setBusy(false);
    }
  }

  return (
    <Box bg="gray.0" mih="100vh" py={{ base: "md", sm: "xl" }} style={READABLE_TEXT}>
      <Container size={640}>
        <Group justify="space-between" mb="lg">
          <Logo />
          <Group gap="md">
            {twoFactor?.enrolmentRequired ? null : (
              <Anchor component={Link} to={user?.role === "user" ? "/settings" : "/admin"} fz="sm">
                Back
              </Anchor>
            )}
            <Anchor
              component="button"
              type="button"
              fz="sm"
              onClick={() => {
                logout();
                navigate("/login");
              }}
            >
              Sign out
            </Anchor>
          </Group>
        </Group>
        <Paper withBorder shadow="sm" radius="md" p={{ base: "md", sm: "xl" }}>
          <Stack>
            <Title order={1} fz="h2">
              Two-factor sign-in
            </Title>
            <Text c="dimmed" fz="sm">
              Signing in then takes your password and a 6-digit code from an authenticator app on
              your phone (Google Authenticator, Microsoft Authenticator, 1Password, Authy or any
              other).
            </Text>
            {twoFactor?.enrolmentRequired ? (
              <Alert color="yellow" title="Set up two-factor sign-in to continue" role="status">
                Staff accounts must use two-factor sign-in. Until it is on, the admin area and the
                dashboard stay closed.
              </Alert>
            ) : twoFactor?.required && !enabled && requiredFrom ? (
              <Alert color="blue" role="status">
                Staff accounts need it from {dateFormat.format(requiredFrom)}.
              </Alert>
            ) : null}
            {notice ? (
              <Alert color="teal" role="status">
                {notice}
              </Alert>
            ) : null}
            {error ? (
              <Alert color="red" role="alert">
                {error}
              </Alert>
            ) : null}

            {enabled ? (
              <form onSubmit={turnOff} noValidate>
                <Stack>
                  <Text fw={600}>Two-factor sign-in is on.</Text>
                  {notice && !twoFactor?.enrolmentRequired ? (
                    <Button component={Link} to={user?.role === "user" ? "/dashboard" : "/admin"}>
                      Continue
                    </Button>
                  ) : null}
                  <TextInput
                    label="Code to turn it off"
                    description="A code from your app, or one of your recovery codes."
                    autoComplete="one-time-code"
                    value={code}
                    onChange={(e) => setCode(e.currentTarget.value)}
                  />
                  <Group>
                    <Button type="submit" color="red" variant="light" loading={busy}>
                      Turn off
                    </Button>
                  </Group>
                </Stack>
              </form>
            ) : setup ? (
              <Stack>
                <Title order={2} fz="h4">
                  1. Add ConvertAssist to your app
                </Title>
                <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="lg">
                  <Image
                    src={qrImageSource(setup.qrSvg)}
                    alt="QR code to scan with your authenticator app"
                    w={200}
                    h={200}
                    fit="contain"
                  />
                  <Stack gap="xs">
                    <Text fz="sm">Scan the QR code, or type this key into the app:</Text>
                    <Code fz="md" style={{ wordBreak: "break-all" }}>
                      {groupedSecret(setup.secret)}
                    </Code>
                    <CopyButton text={setup.secret} label="Copy key" />
                  </Stack>
                </SimpleGrid>
                <Title order={2} fz="h4">
                  2. Save your recovery codes
                </Title>
                <Text fz="sm">
                  Each code signs you in once if you lose your phone. Keep them somewhere safe: they
                  are shown only now.
                </Text>
                <List
                  aria-label="Recovery codes"
                  listStyleType="none"
                  spacing={4}
                  styles={{
                    root: { columns: 2, fontFamily: "var(--mantine-font-family-monospace)" },
                  }}
                >
                  {setup.recoveryCodes.map((c) => (
                    <List.Item key={c}>{c}</List.Item>
                  ))}
                </List>
                <Group>
                  <CopyButton text={setup.recoveryCodes.join("\n")} label="Copy recovery codes" />
                </Group>
                <Title order={2} fz="h4">
                  3. Enter the code your app shows
                </Title>
                <form onSubmit={turnOn} noValidate>
                  <Stack>
                    <TextInput
                      label="6-digit code"
                      autoComplete="one-time-code"
                      inputMode="numeric"
                      maxLength={6}
                      value={code}
                      onChange={(e) => setCode(e.currentTarget.value)}
                    />
                    <Group>
                      <Button type="submit" loading={busy}>
                        Turn on
                      </Button>
                    </Group>
                  </Stack>
                </form>
              </Stack>
            ) : (
              <Group>
                <Button onClick={begin} loading={busy}>
                  Set up two-factor sign-in
                </Button>
              </Group>
            )}
          </Stack>
        </Paper>
      </Container>
    </Box>
  );
}
