import { Alert, Button, Group, Stack, TextInput } from "@mantine/core";
import { useState } from "react";
import type { FormEvent } from "react";
import { useAuth } from "../../../lib/auth";
import { messageOf, type User } from "../../../lib/api-client";
import { fieldErrors } from "../../../lib/errors";
import { useSaveAccount } from "../api/account";

/** The field errors once `field` has been changed: its message goes, the others stay. */
function withoutField(errors: Record<string, string>, field: string): Record<string, string> {
  if (!(field in errors)) return errors;
  const rest = { ...errors };
  delete rest[field];
  return rest;
}

export function AccountTab({ user }: { user: User }) {
  const { refreshUser } = useAuth();
  const [name, setName] = useState(user.name);
  const [phone, setPhone] = useState(user.phone);
  const [status, setStatus] = useState<{ ok: boolean; text: string } | null>(null);
  // The server's message for a field shows under that field.
  const [errors, setErrors] = useState<Record<string, string>>({});
  const save = useSaveAccount();
  const changed = name !== user.name || phone !== user.phone;

  async function onSubmit(e: FormEvent) {
    e.preventDefault();
    setStatus(null);
    setErrors({});
    try {
      const saved = await save.mutateAsync({ body: { name, phone } });
      setName(saved.user.name);
      setPhone(saved.user.phone);
      await refreshUser();
      setStatus({ ok: true, text: "Your changes have been saved." });
    } catch (err) {
      const byField = fieldErrors(err);
      setErrors(byField);
      // A refusal that names no field of this form is said above the form.
      if (!byField.name && !byField.phone) {
        setStatus({ ok: false, text: messageOf(err, "Failed to save your changes") });
      }
    }
  }

  return (
    <form onSubmit={onSubmit} noValidate>
      <Stack maw={480}>
        {status ? (
          <Alert color={status.ok ? "teal" : "red"} role={status.ok ? "status" : "alert"}>
            {status.text}
          </Alert>
        ) : null}
        <TextInput
          label="Name"
          value={name}
          error={errors.name}
          onChange={(e) => {
            setName(e.currentTarget.value);
            setErrors((prev) => withoutField(prev, "name"));
          }}
        />
        <TextInput
          label="Email"
          value={user.email}
          disabled
          description="Your email is your sign-in name and cannot be changed here."
        />
        <TextInput
          label="Phone"
          type="tel"
          value={phone}
          error={errors.phone}
          onChange={(e) => {
            setPhone(e.currentTarget.value);
            setErrors((prev) => withoutField(prev, "phone"));
          }}
        />
        <Group>
          <Button type="submit" loading={save.isPending} disabled={!changed}>
            Save changes
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
