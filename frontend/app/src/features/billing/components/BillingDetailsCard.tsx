import {
  Alert,
  Button,
  Card,
  Group,
  Select,
  Skeleton,
  Stack,
  Text,
  TextInput,
  Textarea,
  Title,
} from "@mantine/core";
import { useState } from "react";
import type { FormEvent } from "react";
import type { components } from "../../../api/schema";
import { messageOf } from "../../../lib/api-client";
import {
  fieldMessages,
  gstinStateHint,
  normalizeGstin,
  useBillingDetails,
  useSaveBillingDetails,
} from "../api/billing-details";

/**
 * The address, state and optional GSTIN the owner's tax invoices are made out to. Each invoice
 * keeps the details it was issued with; a change applies to the next payment.
 */
type Details = components["schemas"]["BillingDetailsOut"];
type Status = { ok: boolean; text: string } | null;

export function BillingDetailsCard() {
  const details = useBillingDetails();
  const saved = details.data?.data;
  const [status, setStatus] = useState<Status>(null);

  return (
    <Card withBorder radius="md" p={{ base: "md", sm: "lg" }} id="billing-details">
      <Stack gap="md">
        <div>
          <Title order={2} fz="h4">
            Billing details
          </Title>
          <Text fz="sm" c="dimmed">
            Printed on your GST tax invoices. Add your GSTIN to claim input tax credit. An invoice
            keeps the details it was issued with; changes apply to your next payment.
          </Text>
        </div>
        {details.isLoading ? (
          <Skeleton h={220} />
        ) : details.isError || !saved ? (
          <Alert color="red" role="alert">
            Failed to load your billing details. Please try again.
          </Alert>
        ) : (
          // Started afresh from what is saved each time a save lands.
          <DetailsForm
            key={saved.updatedAt ?? "unsaved"}
            saved={saved}
            status={status}
            onStatus={setStatus}
            onSaved={() => details.refetch()}
          />
        )}
      </Stack>
    </Card>
  );
}

function DetailsForm({
  saved,
  status,
  onStatus,
  onSaved,
}: {
  saved: Details;
  status: Status;
  onStatus: (status: Status) => void;
  onSaved: () => Promise<unknown>;
}) {
  const save = useSaveBillingDetails();
  const [address, setAddress] = useState(saved.address ?? "");
  const [stateCode, setStateCode] = useState<string | null>(saved.stateCode ?? null);
  const [gstin, setGstin] = useState(saved.gstin ?? "");
  const [errors, setErrors] = useState<Record<string, string>>({});

  const changed =
    address !== (saved.address ?? "") ||
    stateCode !== (saved.stateCode ?? null) ||
    normalizeGstin(gstin) !== (saved.gstin ?? "");

  async function onSubmit(e: FormEvent) {
    e.preventDefault();
    onStatus(null);
    setErrors({});
    try {
      await save.mutateAsync({
        body: { address, stateCode: stateCode ?? "", gstin: normalizeGstin(gstin) || null },
      });
      onStatus({ ok: true, text: "Your billing details have been saved." });
      await onSaved();
    } catch (err) {
      setErrors(fieldMessages(err));
      onStatus({ ok: false, text: messageOf(err, "Failed to save your billing details") });
    }
  }

  const hint = gstinStateHint(gstin, stateCode);

  return (
    <form onSubmit={onSubmit} noValidate aria-label="Billing details">
      <Stack gap="sm" maw={560}>
        {status ? (
          <Alert color={status.ok ? "teal" : "red"} role={status.ok ? "status" : "alert"}>
            {status.text}
          </Alert>
        ) : null}
        <TextInput
          label="Billed to"
          value={saved.name}
          disabled
          description="Your account's name; change it under Settings."
        />
        <Textarea
          label="Billing address"
          required
          autosize
          minRows={3}
          maxLength={500}
          value={address}
          onChange={(e) => setAddress(e.currentTarget.value)}
          error={errors.address}
        />
        <Select
          label="State or union territory"
          required
          searchable
          placeholder="Choose your state"
          data={saved.states.map((s) => ({ value: s.code, label: `${s.name} (${s.code})` }))}
          value={stateCode}
          onChange={setStateCode}
          error={errors.stateCode}
          nothingFoundMessage="No such state"
        />
        <TextInput
          label="GSTIN (optional)"
          placeholder="e.g. 29ABCDE1234F1Z5"
          value={gstin}
          maxLength={20}
          autoCapitalize="characters"
          spellCheck={false}
          onChange={(e) => setGstin(e.currentTarget.value)}
          description={hint ?? "15 characters; leave empty if you are not registered."}
          error={errors.gstin}
          styles={{ input: { fontFamily: "var(--mantine-font-family-monospace)" } }}
        />
        <Group>
          <Button type="submit" loading={save.isPending} disabled={!changed}>
            Save billing details
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
