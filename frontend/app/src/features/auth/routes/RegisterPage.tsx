import {
  Alert,
  Anchor,
  Button,
  Group,
  PasswordInput,
  Select,
  Stack,
  Text,
  TextInput,
} from "@mantine/core";
import { useState } from "react";
import type { FormEvent } from "react";
import { Link, useNavigate } from "react-router";
import { useAuth } from "../../../lib/auth";
import { COUNTRY_CODES } from "../api/country-codes";
import { fullPhone, registerFormError, type RegisterForm } from "../api/register-rules";
import { trackSignup } from "../../../lib/meta";
import { AuthLayout } from "../components/AuthLayout";

export function RegisterPage() {
  const { register } = useAuth();
  const navigate = useNavigate();
  const [form, setForm] = useState<RegisterForm>({
    name: "",
    email: "",
    countryCode: "+91",
    phone: "",
    password: "",
    confirmPassword: "",
  });
  const [error, setError] = useState<string | null>(null);
  const [submitting, setSubmitting] = useState(false);
  const set = (key: keyof RegisterForm) => (value: string) =>
    setForm((f) => ({ ...f, [key]: value }));

  async function onSubmit(e: FormEvent) {
    e.preventDefault();
    const problem = registerFormError(form);
    if (problem) {
      setError(problem);
      return;
    }
    setError(null);
    setSubmitting(true);
    try {
      const user = await register({
        name: form.name.trim(),
        email: form.email.trim(),
        password: form.password,
        phone: fullPhone(form),
      });
      void trackSignup(user);
      navigate("/dashboard");
    } catch (err) {
      setError(err instanceof Error && err.message ? err.message : "Registration failed");
    } finally {
      setSubmitting(false);
    }
  }

  return (
    <AuthLayout
      title="Create your account"
      subtitle="Start your 3-day free trial. No credit card required."
    >
      <form onSubmit={onSubmit} noValidate>
        <Stack>
          {error ? (
            <Alert color="red" role="alert" title="Registration failed">
              {error}
            </Alert>
          ) : null}
          <TextInput
            label="Full name"
            autoComplete="name"
            value={form.name}
            onChange={(e) => set("name")(e.currentTarget.value)}
            required
          />
          <TextInput
            label="Email"
            type="email"
            autoComplete="email"
            value={form.email}
            onChange={(e) => set("email")(e.currentTarget.value)}
            required
          />
          <Group gap="xs" align="flex-end" wrap="nowrap">
            <Select
              label="Country code"
              data={COUNTRY_CODES}
              value={form.countryCode}
              onChange={(v) => set("countryCode")(v ?? "+91")}
              allowDeselect={false}
              w={110}
            />
            <TextInput
              label="Phone number"
              type="tel"
              autoComplete="tel-national"
              value={form.phone}
              onChange={(e) => set("phone")(e.currentTarget.value)}
              required
              style={{ flex: 1 }}
            />
          </Group>
          <PasswordInput
            label="Password"
            autoComplete="new-password"
            description="At least 6 characters"
            value={form.password}
            onChange={(e) => set("password")(e.currentTarget.value)}
            required
          />
          <PasswordInput
            label="Confirm password"
            autoComplete="new-password"
            value={form.confirmPassword}
            onChange={(e) => set("confirmPassword")(e.currentTarget.value)}
            required
          />
          <Button type="submit" loading={submitting} fullWidth>
            Create account
          </Button>
          <Text fz="sm" ta="center" c="dimmed">
            Already have an account?{" "}
            <Anchor component={Link} to="/login" fz="sm">
              Sign in
            </Anchor>
          </Text>
        </Stack>
      </form>
    </AuthLayout>
  );
}
