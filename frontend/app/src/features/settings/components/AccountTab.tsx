import { Alert, Button, Group, Stack, TextInput } from "@mantine/core";
import { useState } from "react";
import type { FormEvent } from "react";
import { useAuth } from "../../../lib/auth";
import { messageOf, type User } from "../../../lib/api-client";
import { useSaveAccount } from "../api/account";

export function AccountTab({ user }: { user: User }) {
  const { refreshUser } = useAuth();
  const [name, setName] = useState(user.name);
  const [phone, setPhone] = useState(user.phone);
  const [status, setStatus] = useState<{ ok: boolean; text: string } | null>(null);
  const save = useSaveAccount();
  const changed = name !== user.name || phone !== user.phone;

  async function onSubmit(e: FormEvent) {
    e.preventDefault();
    setStatus(null);
    try {
      const saved = await save.mutateAsync({ body: { name, phone } });
      setName(saved.user.name);
      setPhone(saved.user.phone);
      await refreshUser();
      setStatus({ ok: true, text: "Your changes have been saved." });
    } catch (err) {
      setStatus({ ok: false, text: messageOf(err, "Failed to save your changes") });
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
        <TextInput label="Name" value={name} onChange={(e) => setName(e.currentTarget.value)} />
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
          onChange={(e) => setPhone(e.currentTarget.value)}
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
