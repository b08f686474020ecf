import {
  Alert,
  Button,
  Checkbox,
  Group,
  Modal,
  PasswordInput,
  Stack,
  Switch,
  Text,
  TextInput,
} from "@mantine/core";
import { useState, type FormEvent } from "react";
import { READABLE_TEXT } from "../../../components/a11y";
import { messageOf } from "../../../lib/api-client";
import { fieldErrors } from "../../../lib/errors";
import {
  draftOf,
  emptyDraft,
  endpointBody,
  EVENT_TYPES,
  MAILCHIMP_EVENTS,
  type Endpoint,
  type EndpointDraft,
  type EndpointKind,
  type EventType,
} from "../api/integrations";
import { useCreateEndpoint, useRefreshWebhooks, useUpdateEndpoint } from "../api/webhooks";

/** What the modal is for: adding one of a kind, or editing one. */
export type EndpointEditing = { kind: EndpointKind } | { endpoint: Endpoint };

/**
 * Adds or edits an endpoint: a webhook (URL, description, events, on/off) or a Mailchimp audience
 * push (API key, audience id). The server checks every field; its messages show under each.
 * `onCreated` gets a new webhook, whose answer alone carries the signing secret.
 */
export function EndpointModal({
  editing,
  onClose,
  onCreated,
}: {
  editing: EndpointEditing | null;
  onClose: () => void;
  onCreated: (endpoint: Endpoint) => void;
}) {
  return (
    <Modal
      opened={editing !== null}
      onClose={onClose}
      title={title(editing)}
      centered
      size="lg"
      styles={{ content: READABLE_TEXT }}
    >
      {editing ? <EndpointForm editing={editing} onClose={onClose} onCreated={onCreated} /> : null}
    </Modal>
  );
}

function title(editing: EndpointEditing | null): string {
  if (!editing) return "";
  if ("endpoint" in editing)
    return editing.endpoint.kind === "mailchimp" ? "Edit Mailchimp audience" : "Edit endpoint";
  return editing.kind === "mailchimp" ? "Connect a Mailchimp audience" : "Add endpoint";
}

function EndpointForm({
  editing,
  onClose,
  onCreated,
}: {
  editing: EndpointEditing;
  onClose: () => void;
  onCreated: (endpoint: Endpoint) => void;
}) {
  const existing = "endpoint" in editing ? editing.endpoint : null;
  const [draft, setDraft] = useState<EndpointDraft>(() =>
    existing ? draftOf(existing) : emptyDraft("kind" in editing ? editing.kind : "webhook"),
  );
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [failure, setFailure] = useState<string | null>(null);
  const create = useCreateEndpoint();
  const update = useUpdateEndpoint();
  const refresh = useRefreshWebhooks();
  const saving = create.isPending || update.isPending;
  const choices =
    draft.kind === "mailchimp"
      ? EVENT_TYPES.filter((t) => MAILCHIMP_EVENTS.includes(t.value))
      : EVENT_TYPES;
  const set = (patch: Partial<EndpointDraft>) => setDraft((d) => ({ ...d, ...patch }));

  async function onSubmit(e: FormEvent) {
    e.preventDefault();
    setErrors({});
    setFailure(null);
    try {
      if (existing) {
        await update.mutateAsync({
          params: { path: { id: existing.id } },
          body: endpointBody(draft, true),
        });
        await refresh();
        onClose();
      } else {
        const created = await create.mutateAsync({ body: endpointBody(draft, false) });
        await refresh();
        onCreated(created.data);
      }
    } catch (err) {
      const found = fieldErrors(err);
      setErrors(found);
      // A refusal of no field in the form (too many endpoints, a failure) shows above it.
      const shown = ["url", "description", "eventTypes", "apiKey", "listId"];
      if (!Object.keys(found).some((f) => shown.includes(f)))
        setFailure(messageOf(err, "Failed to save the endpoint. Please try again."));
    }
  }

  return (
    <form onSubmit={onSubmit} noValidate>
      <Stack gap="md">
        {failure ? (
          <Alert color="red" role="alert">
            {failure}
          </Alert>
        ) : null}
        {draft.kind === "webhook" ? (
          <TextInput
            label="Endpoint URL"
            description="Where events are posted, signed; https (Zapier, Make and n8n give you one)"
            placeholder="https://hooks.zapier.com/hooks/catch/…"
            type="url"
            value={draft.url}
            onChange={(e) => set({ url: e.currentTarget.value })}
            error={errors.url}
            data-autofocus
          />
        ) : (
          <>
            <PasswordInput
              label="Mailchimp API key"
              description={
                existing
                  ? "Leave empty to keep the saved key"
                  : "Account → Extras → API keys; it ends with your data centre, like …-us21"
              }
              autoComplete="off"
              value={draft.apiKey}
              onChange={(e) => set({ apiKey: e.currentTarget.value })}
              error={errors.apiKey}
              data-autofocus
            />
            <TextInput
              label="Audience ID"
              description="Audience → Settings → Audience name and defaults"
              value={draft.listId}
              onChange={(e) => set({ listId: e.currentTarget.value })}
              error={errors.listId}
            />
          </>
        )}
        <TextInput
          label="Description"
          description="Optional: what this endpoint is for"
          value={draft.description}
          onChange={(e) => set({ description: e.currentTarget.value })}
          error={errors.description}
        />
        <Checkbox.Group
          label="Events"
          description={
            draft.kind === "mailchimp"
              ? "New leads are added to the audience; changed ones are updated"
              : "What this endpoint receives"
          }
          value={draft.eventTypes}
          onChange={(v) => set({ eventTypes: v as EventType[] })}
          error={errors.eventTypes}
        >
          <Stack gap="xs" mt="xs">
            {choices.map((t) => (
              <Checkbox
                key={t.value}
                value={t.value}
                label={
                  <Text span ff="monospace" fz="sm">
                    {t.value}
                  </Text>
                }
                description={t.description}
              />
            ))}
          </Stack>
        </Checkbox.Group>
        <Switch
          label="Enabled"
          description={
            existing?.disabledReason
              ? "Switching it back on gives it a fresh start"
              : "A disabled endpoint receives nothing but test events"
          }
          checked={draft.enabled}
          onChange={(e) => set({ enabled: e.currentTarget.checked })}
        />
        <Group justify="flex-end" gap="xs">
          <Button variant="default" onClick={onClose} disabled={saving}>
            Cancel
          </Button>
          <Button type="submit" loading={saving}>
            {existing ? "Save changes" : draft.kind === "mailchimp" ? "Connect" : "Add endpoint"}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
