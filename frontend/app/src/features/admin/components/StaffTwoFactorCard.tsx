import {
  Alert,
  Button,
  Card,
  Group,
  NumberInput,
  Skeleton,
  Stack,
  Text,
  Title,
} from "@mantine/core";
import { useState, type FormEvent } from "react";
import { messageOf } from "../../../lib/api-client";
import { fieldErrors } from "../../../lib/errors";
import { useSaveStaffTwoFactor, useStaffTwoFactor } from "../api/admin";

/** The longest grace period the server accepts, in days. */
const MAX_GRACE_DAYS = 90;

function GraceForm({ initial, canSave }: { initial: number; canSave: boolean }) {
  const [days, setDays] = useState<number | string>(initial);
  const [error, setError] = useState<string | undefined>();
  const [saved, setSaved] = useState(false);
  const save = useSaveStaffTwoFactor();

  async function submit(e: FormEvent) {
    e.preventDefault();
    setSaved(false);
    const value = typeof days === "number" ? days : Number.NaN;
    if (!Number.isInteger(value) || value < 0 || value > MAX_GRACE_DAYS) {
      setError("The grace period must be 0 to 90 days");
      return;
    }
    setError(undefined);
    try {
      const res = await save.mutateAsync({ body: { graceDays: value } });
      setDays(res.data.graceDays);
      setSaved(true);
    } catch (err) {
      setError(fieldErrors(err).graceDays ?? messageOf(err, "Failed to save"));
    }
  }

  return (
    <form noValidate onSubmit={(e) => void submit(e)}>
      <Stack gap="sm">
        {saved && (
          <Alert color="green" variant="light" role="status">
            Grace period saved.
          </Alert>
        )}
        <NumberInput
          label="Grace period (days)"
          description="Staff without two-factor sign-in after this many days (from their account's creation at the earliest) can only set it up. 0 requires it now."
          min={0}
          max={MAX_GRACE_DAYS}
          allowDecimal={false}
          value={days}
          onChange={setDays}
          error={error}
          disabled={!canSave}
          maw={320}
        />
        <Group justify="space-between" wrap="wrap" gap="xs">
          {!canSave ? (
            <Text fz="sm" c="dimmed">
              Only a superuser can change the grace period.
            </Text>
          ) : (
            <span />
          )}
          <Button type="submit" loading={save.isPending} disabled={!canSave}>
            Save Grace Period
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

/** How long staff have to turn on two-factor sign-in; a superuser may change it. */
export function StaffTwoFactorCard({ canSave }: { canSave: boolean }) {
  const policy = useStaffTwoFactor();
  return (
    <Card withBorder radius="md" p="md">
      <Title order={4} mb="sm">
        Staff Two-Factor Sign-In
      </Title>
      {policy.isLoading && <Skeleton h={120} />}
      {policy.isError && !policy.data && (
        <Alert color="red" variant="light">
          {messageOf(policy.error, "Failed to fetch the two-factor rule")}
        </Alert>
      )}
      {policy.data && <GraceForm initial={policy.data.data.graceDays} canSave={canSave} />}
    </Card>
  );
}
